// Package logs holds what the server's log is made of below log/slog: the
// text or JSON handler (NewHandler), the buffer in front of its file
// (Buffer: one write for many lines, an error line at once), and the
// request line written byte for byte as slog writes it but without its
// reflection (RequestLogger), with the JSON quoting it needs. Nothing here
// knows what the server serves.
package logs
