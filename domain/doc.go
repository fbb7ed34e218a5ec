// Package domain holds the things a Burraco federation talks about —
// users and players, clubs and their roles, tournaments, online tables
// (table*.go: seats, the match played through the engine, clocks,
// time-outs and forfeits, the versions long polls and event streams wait
// on), and (later) matches and standings — and the services the API calls
// on them.
//
// It knows nothing of HTTP or SQL. Services are declared here as interfaces
// (the contract the api package consumes); their implementations enforce
// validation and own their transaction, and ask access.go, where every
// authorisation rule is, who may do what. Every failure is a *Error with a
// Kind, which the API maps to an HTTP status in one table, and a stable
// Code the client switches on (the engine's rule codes among them,
// converted by FromRuleError).
//
// Tables and tournaments are two halves that depend one way: tournaments
// use tables, tables know nothing of tournaments. A tournament played
// online opens its rounds' tables through onlineTables, an interface
// declared on the tournaments' side (tournament_online_tables.go) that the
// tables' service implements; a table of a tournament tells it what it
// must know (a deal ended, a side forfeited, a bot stood in) through
// dealRecorder, an interface declared on the tables' side
// (table_recorder.go) that the tournaments' service implements, and the
// notifier tells it a table changed through a function (tableNotifier).
// NewServices wires the two. Each half's files (table*.go,
// tournament*.go) read alone; the rule-set vocabulary both use is in
// rules.go, authorisation in access.go.
//
// Words used in the comments of the speed code (docs/performance.md says
// what each piece buys):
//   - a stamp names one version of an answer (a tournament's, a kept
//     page's), which the API sends as its ETag, so that a poll that finds
//     the same stamp is answered 304 without a query;
//   - a kept read (kept_reads.go) is a read's answer kept in memory while
//     the storage's write marks (WriteMarks) say nothing it read has
//     changed;
//   - a tournament's cell (tournament_states.go) holds its event log
//     folded into a state, in memory; a fork is a command's private copy
//     of that state, which it changes and which replaces the cell's only
//     once the command has committed.
package domain
