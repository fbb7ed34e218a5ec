// Package tourney is the pure, event-sourced heart of a live tournament
// (RULES §10): a running tournament is an append-only log of events, and
// its state is the fold of that log.
//
// The service loads a tournament's events, replays them (Replay), decides a
// command against the state (Decide: the event to append, or an *Error),
// appends the event in the same transaction and folds it in (Apply). The
// audit trail is the log; a correction recomputes everything after it by
// construction; the tournament's version is the last event's Seq.
//
// The package imports the standard library and domain/vp, domain/pairing and
// domain/standings only. It does no I/O and reads no clock: time and the
// random source come in as arguments.
package tourney
