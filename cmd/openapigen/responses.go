package main

import (
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/api"
)

// The problem responses every operation of a kind has, added here rather
// than written on every handler; a handler's own @Failure line for the same
// status wins (e.g. readyz's 503, login's 401).
const (
	respDefault        = "internal (500) or another problem: quote request_id when reporting it"
	respUnavailable    = "timeout or unavailable (the database is busy): retry after Retry-After seconds"
	respUnauthRequired = "unauthenticated: no access token, or an invalid or expired one"
	respUnauthOptional = "unauthenticated: an Authorization header was sent but its token is invalid or expired (send none to call anonymously)"
	respTooLarge       = "request_too_large: the body exceeds 1 MiB"
	respMediaType      = "unsupported_media_type: send Content-Type: application/json"
)

// commonResponses adds to each operation the problems it shares with its
// kind: every one may fail with an internal error (default); every one
// under /api/v1 may time out or find the database busy (503 with
// Retry-After); one that needs an access token answers 401 without one, and
// one that takes it optionally (x-auth-optional) answers 401 to a bad one;
// one with a body answers 413 and 415. It runs before publicSecurity, which
// consumes x-auth-optional.
//
// The statuses are the server's own, from its one table of problems
// (api.ProblemCodes), by the codes the descriptions name.
func commonResponses(doc *openapi3.T) {
	status := map[string]string{}
	for _, c := range api.ProblemCodes() {
		status[c.Code] = strconv.Itoa(c.Status)
	}
	for path, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			addProblem(op, "default", respDefault, false)
			if strings.HasPrefix(path, "/api/v1/") {
				addProblem(op, status["unavailable"], respUnavailable, true)
			}
			switch {
			case op.Extensions[optionalAuth] == true:
				addProblem(op, status["unauthenticated"], respUnauthOptional, false)
			case op.Security != nil && len(*op.Security) > 0:
				addProblem(op, status["unauthenticated"], respUnauthRequired, false)
			}
			if op.RequestBody != nil {
				addProblem(op, status["request_too_large"], respTooLarge, false)
				addProblem(op, status["unsupported_media_type"], respMediaType, false)
			}
		}
	}
}

// addProblem gives op a problem+json response for status unless it has
// one; retry adds the Retry-After header.
func addProblem(op *openapi3.Operation, status, description string, retry bool) {
	if op.Responses.Value(status) != nil {
		return
	}
	schema := openapi3.NewSchemaRef("#/components/schemas/Problem", nil)
	resp := openapi3.NewResponse().WithDescription(description).
		WithContent(openapi3.Content{"application/problem+json": openapi3.NewMediaType().WithSchemaRef(schema)})
	if retry {
		resp.Headers = openapi3.Headers{"Retry-After": &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
			Description: "seconds to wait before retrying", Schema: openapi3.NewIntegerSchema().NewRef(),
		}}}}
	}
	op.Responses.Set(status, &openapi3.ResponseRef{Value: resp})
}
