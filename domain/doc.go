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
package domain
