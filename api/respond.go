package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
	"github.com/burraco/burraco/internal/strictjson"
)

// decode reads the JSON request body into dst (readJSON, the body
// required).
func (s *server) decode(w http.ResponseWriter, r *http.Request, dst any) error {
	_, err := s.readJSON(w, r, dst, false)
	return err
}

// readJSON is the one reader of request bodies: it reads the body into
// dst and returns its bytes (the tournaments hash them for idempotency).
// It refuses a content type other than application/json, an empty or
// oversized body, a body that is not valid UTF-8 or not a JSON object (null
// and [] included), unknown fields, null fields, values of the wrong type
// and trailing data, with the problem that names what is wrong. An
// optional body may be empty (no content type needed then): dst is left
// as it is.
func (s *server) readJSON(w http.ResponseWriter, r *http.Request, dst any, optional bool) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	isJSON := err == nil && mt == "application/json"
	if !isJSON && !optional { // refused before the body is read
		return nil, problem(codeUnsupportedMedia, "the request body must be application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err == nil && optional && len(body) == 0 {
		return body, nil
	}
	if !isJSON {
		return nil, problem(codeUnsupportedMedia, "the request body must be application/json")
	}
	if err == nil {
		err = strictjson.DecodeObject(body, dst)
	}
	if err != nil {
		return nil, decodeProblem(err)
	}
	return body, nil
}

// decodeProblem is the problem of a body that could not be decoded.
func decodeProblem(err error) error {
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	var null *strictjson.NullField
	var bad *strictjson.BadValue
	switch {
	case errors.As(err, &tooLarge):
		return problem(codeRequestTooLarge, fmt.Sprintf("the request body must not exceed %d bytes", tooLarge.Limit))
	case errors.Is(err, io.EOF):
		return problem(codeMalformedJSON, "the request body is empty; a JSON object is expected")
	case errors.Is(err, strictjson.ErrNotUTF8), errors.Is(err, strictjson.ErrNotAnObject):
		return problem(codeMalformedJSON, err.Error())
	case errors.As(err, &typeErr) && typeErr.Field == "":
		return problem(codeMalformedJSON, strictjson.ErrNotAnObject.Error())
	case errors.As(err, &typeErr):
		return problem(codeMalformedJSON, "a field has a value of the wrong type", FieldError{Field: jsonField(typeErr.Field),
			Code: "wrong_type", Message: fmt.Sprintf("must be of type %s", jsonType(typeErr.Type.String()))})
	case errors.As(err, &bad):
		return problem(codeMalformedJSON, "a field has a value it cannot take", FieldError{Field: bad.Field,
			Code: bad.Code, Message: "is not a valid value: " + strings.TrimPrefix(bad.Err.Error(), "json: ")})
	case errors.As(err, &null):
		return problem(codeMalformedJSON, "a field is null; leave it out instead", FieldError{Field: jsonField(null.Path),
			Code: "null", Message: "must not be null: leave the field out to mean absent"})
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return problem(codeMalformedJSON, "the request has an unknown field", FieldError{Field: field,
			Code: "unknown_field", Message: "is not a field of this request"})
	}
	return problem(codeMalformedJSON, "the request body is not valid JSON: "+strings.TrimPrefix(err.Error(), "json: "))
}

// jsonField is the JSON path of a field as encoding/json reports it, less
// the Go names of embedded structs it puts in it (request types embed
// shared parts, e.g. TournamentSetupInput): the JSON names of our requests
// are snake_case, so a segment that starts with a capital letter is Go's.
func jsonField(path string) string {
	parts := strings.Split(path, ".")
	out := parts[:0]
	for _, p := range parts {
		if p != "" && p[0] >= 'A' && p[0] <= 'Z' {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, ".")
}

// jsonType names a Go type the way a JSON client thinks of it.
func jsonType(goType string) string {
	switch {
	case strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "number"
	case strings.Contains(goType, "string"):
		return "string"
	case strings.Contains(goType, "bool"):
		return "boolean"
	case strings.HasPrefix(goType, "[]"):
		return "array"
	}
	return "object"
}

// respond sends v as JSON with status. It returns the error of a value
// that cannot be encoded (a bug), having written nothing, for the handler
// to return: a logged 500 problem.
func respond(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	return writeEncoded(w, v, func(body []byte) int { return status })
}

// bodyPool holds the buffers responses are encoded into.
var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBody is the largest buffer put back in bodyPool, so that one
// large answer does not keep its memory.
const maxPooledBody = 64 << 10

// pooledBody is an empty buffer from bodyPool; give it back with
// releaseBody once its bytes are no longer used.
func pooledBody() *bytes.Buffer {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	return buf
}

// releaseBody puts buf back in bodyPool, unless it grew past
// maxPooledBody.
func releaseBody(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledBody {
		bodyPool.Put(buf)
	}
}

// writeJSON sends status and v as JSON (with a newline, as json.Encoder
// writes it), the content type already set; a value that cannot be
// encoded (a bug) is a bare 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	if err := writeEncoded(w, v, func(body []byte) int { return status }); err != nil {
		w.WriteHeader(http.StatusInternalServerError)
	}
}

// respondTagged sends v as 200 with an ETag made of its bytes, or 304 when
// If-None-Match names it: for answers whose version nothing in memory
// knows (the lobby). The 304 saves the client the body, not the server
// its read.
func respondTagged(w http.ResponseWriter, r *http.Request, v any) error {
	w.Header().Set("Content-Type", "application/json")
	return writeEncoded(w, v, func(body []byte) int {
		h := fnv.New64a()
		_, _ = h.Write(body)
		etag := `"j` + strconv.FormatUint(h.Sum64(), 36) + `"`
		w.Header().Set("ETag", etag)
		if etagMatches(r.Header.Get("If-None-Match"), etag) {
			w.Header().Del("Content-Type")
			return http.StatusNotModified
		}
		return http.StatusOK
	})
}

// writeEncoded encodes v into a pooled buffer and sends it with the status
// statusOf gives for its bytes (no body with 304). Encoding first sends the
// answer with its Content-Length in one write rather than chunked; a value
// that cannot be encoded is an error, nothing written (the content type
// taken back), rather than a truncated body under a success status.
func writeEncoded(w http.ResponseWriter, v any, statusOf func(body []byte) int) error {
	buf := pooledBody()
	defer releaseBody(buf)
	if err := encodeJSON(buf, v); err != nil {
		w.Header().Del("Content-Type")
		return err
	}
	status := statusOf(buf.Bytes())
	if status == http.StatusNotModified {
		w.WriteHeader(status)
		return nil
	}
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
	return nil
}

// encodeJSON writes v and a newline into buf, as json.Encoder does.
func encodeJSON(buf *bytes.Buffer, v any) error {
	return json.NewEncoder(buf).Encode(v)
}

// created sends v as 201 Created with its Location.
func created(w http.ResponseWriter, location string, v any) error {
	w.Header().Set("Location", location)
	return respond(w, http.StatusCreated, v)
}

// noContent answers 204.
func noContent(w http.ResponseWriter) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// pathID reads a positive integer id from the URL path; 400
// invalid_parameter when it is not one.
func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, name), 10, 64)
	if err != nil || id <= 0 || id > strictjson.MaxInteger { // openapi.yaml's maximum
		return 0, problem(codeInvalidParameter, "a path parameter is invalid",
			FieldError{Field: name, Code: "invalid", Message: "must be a positive integer id"})
	}
	return id, nil
}

// query reads list parameters, collecting every invalid one. A parameter
// given empty (?limit=) is not absent: unless it is text, an empty value
// is not one the schema allows, and is refused like any other (issue 29).
type query struct {
	r *http.Request
	v domain.Validator
}

// value is the parameter's value and whether it was given.
func (q *query) value(name string) (string, bool) {
	vs, ok := q.r.URL.Query()[name]
	if !ok || len(vs) == 0 {
		return "", false
	}
	return vs[0], true
}

// int64 reads an optional positive integer parameter; nil when absent.
func (q *query) int64(name string) *int64 {
	s, ok := q.value(name)
	if !ok {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > strictjson.MaxInteger {
		q.v.Add(name, "invalid", fmt.Sprintf("must be an integer from 1 to %d", int64(strictjson.MaxInteger)))
		return nil
	}
	return &n
}

// Bounds of the paging parameters, as openapi.yaml states them.
const (
	maxPageLimit = 100
	maxOffset    = 1<<31 - 1
	// maxInt32Param bounds the int query parameters deal and round, and
	// the int32 path parameters, as openapi.yaml does.
	maxInt32Param = 1<<31 - 1
)

// page reads limit (0..100, 0 meaning 20) and offset (0..2^31-1); a value
// outside is a 400 invalid_parameter naming it, as one of the wrong type.
func (q *query) page() (limit, offset int) {
	return q.intIn("limit", 0, maxPageLimit), q.intIn("offset", 0, maxOffset)
}

// intIn reads an optional integer parameter within lo..hi; 0 when absent.
func (q *query) intIn(name string, lo, hi int) int {
	s, ok := q.value(name)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		q.v.Add(name, "invalid", fmt.Sprintf("must be an integer from %d to %d", lo, hi))
		return 0
	}
	return n
}

// search reads the optional search text q; "" when absent or empty (an
// empty q is allowed: it matches everything).
func (q *query) search() string {
	s, _ := q.value("q")
	if !domain.ValidSearch(s) {
		q.v.Add("q", "invalid", fmt.Sprintf("must be at most %d characters, without control characters", domain.MaxQueryLength))
		return ""
	}
	return s
}

// enum reads an optional parameter that takes one of a few values; ""
// when absent. An unknown value is refused here, before any service is
// asked (which would answer 422 invalid_input).
func (q *query) enum(name string, valid func(string) bool, values string) string {
	s, ok := q.value(name)
	if !ok {
		return ""
	}
	if !valid(s) {
		q.v.Add(name, "invalid", "must be one of "+values)
		return ""
	}
	return s
}

// knownRuleSet reports whether s names a rule set the server plays.
func knownRuleSet(s string) bool { return slices.Contains(engine.RuleSets(), engine.RuleSet(s)) }

// err is 400 invalid_parameter, naming every parameter that could not be
// parsed; nil when all could.
func (q *query) err() error {
	if err := q.v.Err(); err != nil {
		var de *domain.Error
		errors.As(err, &de)
		return problem(codeInvalidParameter, "some query parameters are invalid", fieldErrorsOut(de.Fields)...)
	}
	return nil
}
