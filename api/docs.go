// Package api is the HTTP face of burraco: the chi router under /api/v1,
// its middleware (request ids, logging, panic recovery, timeouts, body
// limits, CORS, authentication, rate limits), the handlers, the request and
// response types, and RFC 9457 problem+json errors. It is the only package
// that knows HTTP; every decision about who may do what is the domain's.
//
// Each handler has one shape (handler): read the request, call the service
// with the actor, respond; or return the error, which the adapter (serve)
// answers as a problem through the one table of problems (problemTable):
// a domain error by its kind, an API-level problem by its code.
//
// The swag annotations below and on each handler generate docs/ and, from
// it, openapi.yaml (make docs). A handler's @Failure lines name only the
// problems of its own; those every operation of a kind shares (default,
// 503 with Retry-After under /api/v1, 401 where a token is taken, 413 and
// 415 where a body is) are added by cmd/openapigen (responses.go).
//
//	@title						Burraco API
//	@version					1.0
//	@description				Clubs, players, tournaments and online tables for the card game Burraco.
//	@description				Errors are RFC 9457 problem details (application/problem+json) with a stable `code`, the `request_id`, and for invalid input an `errors` list naming every invalid field.
//	@description				Authenticate with `Authorization: Bearer <access_token>` from /auth/login; renew with /auth/refresh.
//	@description				Every GET route also answers HEAD (the same status and headers, no body). This document is served at /openapi.yaml and /openapi.json, and shown at /docs.
//	@license.name				MIT
//	@license.url				https://opensource.org/licenses/MIT
//	@BasePath					/
//	@tag.name			auth
//	@tag.description	Accounts and sessions: register, log in, refresh (rotating refresh tokens), log out; the caller and their clubs.
//	@tag.name			rules
//	@tag.description	The rule sets the server plays and the options that apply to each (RULES §11), for new-table and new-tournament forms.
//	@tag.name			clubs
//	@tag.description	Clubs (circoli). Anyone may read them; a logged-in user creates one and becomes its owner.
//	@tag.name			members
//	@tag.description	Memberships and roles in a club: member < referee (arbitro) < admin < owner. E-mail addresses only for the club's admins and the member themself.
//	@tag.name			players
//	@tag.description	Player profiles (with an optional federation id), linked to a login or kept by a club.
//	@tag.name			tournaments
//	@tag.description	A club's tournaments: created as drafts by its admins, with their set-up and referees; their lifecycle runs from registration to published results.
//	@tag.name			entries
//	@tag.description	A tournament's entries (pairs, teams, players): self-registration while registration is open, entries by the staff, check-in, withdrawal, each entry's history.
//	@tag.name			rounds
//	@tag.description	A tournament's rounds: draws by the movement, the referee's manual override and forbidden pairings, start, close and reopen.
//	@tag.name			scores
//	@tag.description	Live score sheets (score): deals entered by the referee, or by a player of the table and confirmed by an opponent or the referee; corrections with a reason, rulings, penalties. Each sheet has a version (ETag, If-Match).
//	@tag.name			results
//	@tag.description	Standings (ETag for hall screens), the audit trail, CSV exports and printable pages in Italian or English.
//	@tag.name			seasons
//	@tag.description	A club's seasons (stagioni) and their rankings (la classifica del circolo): the evenings within a season's dates add up, by placing points, total VP or average VP; a director excludes an evening with a reason. The ranking is computed from the current standings at each read (ETag, CSV, a printable page).
//	@tag.name			tables
//	@tag.description	Online tables: a lobby, seats and bots, the state for polling (versions, ETag/304, long-poll) or as server-sent events, moves in the engine's notation, clocks, the referee's time-out, forfeits, deal records.
//	@tag.name			ratings
//	@tag.description	Players' Glicko-2 ratings from rated online matches, per rule set family (italian: fibur and fibur-row; reale; brazilian: aberto and fechado): a user's ratings with their history, and a family's leaderboard.
//	@tag.name			health
//	@tag.description	Liveness and readiness probes.
//	@securityDefinitions.apikey	BearerAuth
//	@in							header
//	@name						Authorization
//	@description				"Bearer " followed by the access token from /auth/login or /auth/refresh.
package api
