// Package api is the HTTP face of burraco: the chi router under /api/v1,
// its middleware (request ids, logging, panic recovery, timeouts, body
// limits, CORS, authentication, rate limits), the handlers, the request and
// response types, and RFC 9457 problem+json errors. It is the only package
// that knows HTTP; every decision about who may do what is the domain's.
//
// Each handler has one shape: decode, call the service with the actor,
// respond. Errors become problems through two tables: kindProblems from
// the domain error's kind, apiProblems for API-level codes.
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
//	@license.name				MIT
//	@license.url				https://opensource.org/licenses/MIT
//	@BasePath					/
//	@securityDefinitions.apikey	BearerAuth
//	@in							header
//	@name						Authorization
//	@description				"Bearer " followed by the access token from /auth/login or /auth/refresh.
package api
