package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/burraco/burraco/domain"
)

// Problem is an RFC 9457 problem details object (application/problem+json).
// Every error response of the API has this shape.
type Problem struct {
	// A URI naming the problem type: "urn:burraco:problem:" followed by Code.
	Type string `json:"type" example:"urn:burraco:problem:invalid_input"`
	// A short summary of the problem type; it does not change between occurrences.
	Title string `json:"title" example:"Invalid input"`
	// The HTTP status code.
	Status int `json:"status" example:"422"`
	// A human-readable explanation of this occurrence.
	Detail string `json:"detail,omitempty" example:"some fields are invalid"`
	// The request path.
	Instance string `json:"instance,omitempty" example:"/api/v1/clubs"`
	// A stable machine-readable code to switch on (never renamed; new ones may be added):
	// malformed_json (400), invalid_parameter (400), invalid_input (422), unauthenticated (401),
	// refresh_token_reused (401), forbidden (403), not_found (404), route_not_found (404),
	// method_not_allowed (405), conflict (409), version_conflict (409), request_too_large (413),
	// unsupported_media_type (415), rate_limited (429), internal (500), timeout (503),
	// unavailable (503), service_unavailable (503); for table moves also not_your_turn (409),
	// idempotency_key_reused (422) and the rules engine's codes (422: invalid_meld, must_keep_card, …).
	Code string `json:"code" example:"invalid_input"`
	// The request id (also in the X-Request-ID response header); quote it when reporting a problem.
	RequestID string `json:"request_id,omitempty" example:"3f2a9c0e7b1d4a58"`
	// Every invalid field, for invalid_input, invalid_parameter and (wrong_type, unknown_field) malformed_json;
	// for version_conflict, the field version with the current version.
	Errors []FieldError `json:"errors,omitempty"`
} // @name Problem

// FieldError is one invalid field of a request.
type FieldError struct {
	// JSON name of the field (or query/path parameter).
	Field string `json:"field" example:"email"`
	// Stable code, e.g. required, too_long, too_short, invalid, out_of_range, wrong_type, unknown_field.
	Code    string `json:"code" example:"required"`
	Message string `json:"message" example:"is required"`
} // @name FieldError

func fieldErrorsOut(fs []domain.FieldError) []FieldError {
	return mapSlice(fs, func(f domain.FieldError) FieldError {
		return FieldError{Field: f.Field, Code: f.Code, Message: f.Message}
	})
}

// API-level problem codes, for failures that happen before a service is
// called. Like the domain codes they are stable.
const (
	codeMalformedJSON      = "malformed_json"    // the body cannot be decoded (syntax, types, unknown fields)
	codeInvalidParameter   = "invalid_parameter" // a path or query parameter cannot be parsed
	codeUnsupportedMedia   = "unsupported_media_type"
	codeRequestTooLarge    = "request_too_large"
	codeRouteNotFound      = "route_not_found"
	codeMethodNotAllowed   = "method_not_allowed"
	codeTimeout            = "timeout"
	codeServiceUnavailable = "service_unavailable"
)

// problemKind is one row of the error table: status and title of a code.
type problemKind struct {
	status int
	title  string
}

// problemKinds is the one table from error code to HTTP status. A code that
// is not here is answered as an internal error.
//
// Validation: a request that cannot be parsed is a 400 (malformed_json for a
// body that is not JSON, not an object, has a value of the wrong type or an
// unknown field; invalid_parameter for a path or query parameter that is not
// a number where one is expected); a well-formed request whose values break
// the rules (too long, out of range, not an email, not a role...) is a 422
// invalid_input. Both list the fields concerned in errors.
var problemKinds = map[string]problemKind{
	string(domain.EInvalid):         {http.StatusUnprocessableEntity, "Invalid input"},
	string(domain.EUnauthenticated): {http.StatusUnauthorized, "Authentication required"},
	string(domain.EForbidden):       {http.StatusForbidden, "Forbidden"},
	string(domain.ENotFound):        {http.StatusNotFound, "Not found"},
	string(domain.EConflict):        {http.StatusConflict, "Conflict"},
	string(domain.EVersionConflict): {http.StatusConflict, "Version conflict"},
	string(domain.ETokenReused):     {http.StatusUnauthorized, "Refresh token reused"},
	string(domain.ERateLimited):     {http.StatusTooManyRequests, "Too many requests"},
	string(domain.EUnavailable):     {http.StatusServiceUnavailable, "Service unavailable"},
	string(domain.EInternal):        {http.StatusInternalServerError, "Internal error"},
	codeMalformedJSON:               {http.StatusBadRequest, "Malformed JSON"},
	codeInvalidParameter:            {http.StatusBadRequest, "Invalid parameter"},
	codeUnsupportedMedia:            {http.StatusUnsupportedMediaType, "Unsupported media type"},
	codeRequestTooLarge:             {http.StatusRequestEntityTooLarge, "Request body too large"},
	codeRouteNotFound:               {http.StatusNotFound, "Not found"},
	codeMethodNotAllowed:            {http.StatusMethodNotAllowed, "Method not allowed"},
	codeTimeout:                     {http.StatusServiceUnavailable, "Request timed out"},
	codeServiceUnavailable:          {http.StatusServiceUnavailable, "Service unavailable"},
}

// Interim, until the error-class refactor: the rules engine's codes of
// online tables (a refused move) are 422, but not_your_turn is 409.
func init() {
	for _, c := range domain.RuleCodes {
		problemKinds[string(c)] = problemKind{http.StatusUnprocessableEntity, "Move refused by the rules"}
	}
	problemKinds[string(domain.ENotYourTurn)] = problemKind{http.StatusConflict, "Not your turn"}
	problemKinds[string(domain.EIdempotencyKeyReused)] = problemKind{http.StatusUnprocessableEntity, "Idempotency key reused"}
}

// newProblem builds the problem for code with detail, filling in the
// request's path and id.
func newProblem(r *http.Request, code, detail string) Problem {
	kind, ok := problemKinds[code]
	if !ok {
		code, kind = string(domain.EInternal), problemKinds[string(domain.EInternal)]
	}
	return Problem{
		Type:      "urn:burraco:problem:" + code,
		Title:     kind.title,
		Status:    kind.status,
		Detail:    detail,
		Instance:  r.URL.Path,
		Code:      code,
		RequestID: RequestIDFrom(r.Context()),
	}
}

// writeProblem sends p as application/problem+json.
func writeProblem(w http.ResponseWriter, p Problem) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if p.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="burraco"`)
	}
	if p.Status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1") // a busy database or a slow request: worth another try
	}
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}

// fail answers a request with an API-level problem.
func fail(w http.ResponseWriter, r *http.Request, code, detail string) {
	writeProblem(w, newProblem(r, code, detail))
}

// failErr answers a request with err: a *domain.Error by its code and
// user-safe message; a timeout as 503; anything else as a 500 with a
// generic message, logged with the request id and never echoed.
func (s *server) failErr(w http.ResponseWriter, r *http.Request, err error) {
	var de *domain.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		s.log.WarnContext(r.Context(), "request timed out", "request_id", RequestIDFrom(r.Context()), "err", err)
		fail(w, r, codeTimeout, "the request took too long; try again")
	case errors.As(err, &de) && de.Code != domain.EInternal:
		if de.Err != nil {
			s.log.DebugContext(r.Context(), "request failed", "request_id", RequestIDFrom(r.Context()), "code", de.Code, "err", err)
		}
		p := newProblem(r, string(de.Code), de.Message)
		p.Errors = fieldErrorsOut(de.Fields)
		writeProblem(w, p)
	default:
		s.log.ErrorContext(r.Context(), "internal error", "request_id", RequestIDFrom(r.Context()), "method", r.Method, "path", r.URL.Path, "err", err)
		fail(w, r, string(domain.EInternal), "an internal error occurred; quote the request id when reporting it")
	}
}

// failFields answers a request with an API-level problem listing fields.
func failFields(w http.ResponseWriter, r *http.Request, code, detail string, fields []FieldError) {
	p := newProblem(r, code, detail)
	p.Errors = fields
	writeProblem(w, p)
}
