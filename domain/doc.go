// Package domain holds the things a Burraco federation talks about —
// users and players, clubs and their roles, tournaments, and (later)
// matches, tables and standings — and the services the API calls on them.
//
// It knows nothing of HTTP or SQL. Services are declared here as interfaces
// (the contract the api package consumes); their implementations enforce
// authorisation and validation and own their transaction. Every failure is a
// *Error with a stable Code that the API maps to an HTTP status in one table.
package domain
