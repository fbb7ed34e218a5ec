package api

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
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
	// A stable machine-readable code to switch on (never renamed; new ones may be added). The status
	// follows from the code; a move the rules of the game refuse carries the engine's rule code.
	Code string `json:"code" example:"invalid_input"`
	// The request id (also in the X-Request-ID response header); quote it when reporting a problem.
	RequestID string `json:"request_id,omitempty" example:"3f2a9c0e7b1d4a58"`
	// Every invalid field, for invalid_input, invalid_parameter and (wrong_type, unknown_field) malformed_json;
	// for version_conflict and stale_sheet, the field version with the current version.
	Errors []FieldError `json:"errors,omitempty"`
	// For version_conflict: the table's (or tournament's) current version; for stale_sheet: the score
	// sheet's. Send it back after reloading.
	CurrentVersion *int64 `json:"current_version,omitempty" example:"49"`
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

// problemKind is what a problem is answered with: its status and title.
type problemKind struct {
	status int
	title  string
}

// problemRow is one row of problemTable: a kind, or a code.
type problemRow struct {
	kind domain.Kind // the status and title of every code of the kind
	code string      // a code's own title (its kind's status when status is 0), or an API-level code
	problemKind
}

// problemTable is the one table of what problems are answered with, read
// by every answer, by ProblemCodes (the document's list of codes) and,
// through it, by cmd/openapigen.
//
// The domain's codes are open (the engine's rule codes pass through, and
// new services may add codes of their own); their kind, a closed set,
// decides the status. A few codes have a title that says more than their
// kind's. The API-level codes, for failures before a service is called,
// have no domain kind: their row is their status.
//
// Validation: a request that cannot be parsed is a 400 (malformed_json for a
// body that is not JSON, not an object, has a value of the wrong type or an
// unknown field; invalid_parameter for a path or query parameter that is not
// a number where one is expected); a well-formed request whose values break
// the rules (too long, out of range, not an email, not a role...) is a 422
// invalid_input. Both list the fields concerned in errors.
var problemTable = []problemRow{
	{kind: domain.KindInvalid, problemKind: problemKind{http.StatusUnprocessableEntity, "Invalid input"}},
	{kind: domain.KindUnauthenticated, problemKind: problemKind{http.StatusUnauthorized, "Authentication required"}},
	{kind: domain.KindForbidden, problemKind: problemKind{http.StatusForbidden, "Forbidden"}},
	{kind: domain.KindNotFound, problemKind: problemKind{http.StatusNotFound, "Not found"}},
	{kind: domain.KindConflict, problemKind: problemKind{http.StatusConflict, "Conflict"}},
	{kind: domain.KindRule, problemKind: problemKind{http.StatusUnprocessableEntity, "Not allowed by the rules"}},
	{kind: domain.KindRateLimited, problemKind: problemKind{http.StatusTooManyRequests, "Too many requests"}},
	{kind: domain.KindUnavailable, problemKind: problemKind{http.StatusServiceUnavailable, "Service unavailable"}},
	{kind: domain.KindInternal, problemKind: problemKind{http.StatusInternalServerError, "Internal error"}},

	{code: string(domain.EVersionConflict), problemKind: problemKind{title: "Version conflict"}},
	{code: string(domain.ETokenReused), problemKind: problemKind{title: "Refresh token reused"}},
	{code: string(domain.EIdempotencyKeyReused), problemKind: problemKind{title: "Idempotency key reused"}},
	{code: string(domain.ETooManyOpenTables), problemKind: problemKind{title: "Too many open tables"}},
	{code: string(domain.ETournamentOfAnotherClub), problemKind: problemKind{title: "Tournament of another club"}},
	{code: string(domain.EOwnTable), problemKind: problemKind{title: "You play at this table"}},
	{code: string(domain.ETableCancelled), problemKind: problemKind{title: "Table cancelled"}},
	{code: string(domain.EOpponentPresent), problemKind: problemKind{title: "Opponent present"}},
	{code: string(domain.EWindowNotOver), problemKind: problemKind{title: "Reconnect window not over"}},
	{code: string(domain.EClaimNotAllowed), problemKind: problemKind{title: "Claim not allowed"}},
	{code: string(domain.EAlreadyStarted), problemKind: problemKind{title: "Match already started"}},
	{code: string(domain.EAbortNotAllowed), problemKind: problemKind{title: "Abort not allowed"}},
	{code: string(engine.ErrNotYourTurn), problemKind: problemKind{title: "Not your turn"}},
	// 503 to a client; 421 between two server processes (api/table_owner.go)
	{code: string(domain.ETableOwnerMoved), problemKind: problemKind{title: "Table owner moved"}},

	{code: codeMalformedJSON, problemKind: problemKind{http.StatusBadRequest, "Malformed JSON"}},
	{code: codeInvalidParameter, problemKind: problemKind{http.StatusBadRequest, "Invalid parameter"}},
	{code: codeUnsupportedMedia, problemKind: problemKind{http.StatusUnsupportedMediaType, "Unsupported media type"}},
	{code: codeRequestTooLarge, problemKind: problemKind{http.StatusRequestEntityTooLarge, "Request body too large"}},
	{code: codeRouteNotFound, problemKind: problemKind{http.StatusNotFound, "Not found"}},
	{code: codeMethodNotAllowed, problemKind: problemKind{http.StatusMethodNotAllowed, "Method not allowed"}},
	{code: codeTimeout, problemKind: problemKind{http.StatusServiceUnavailable, "Request timed out"}},
	{code: codeServiceUnavailable, problemKind: problemKind{http.StatusServiceUnavailable, "Service unavailable"}},
	{code: codeTooManyLongPolls, problemKind: problemKind{http.StatusTooManyRequests, "Too many long polls"}},
	{code: codeTooManyEventStreams, problemKind: problemKind{http.StatusTooManyRequests, "Too many event streams"}},
	{code: codeTooManyFailedLogins, problemKind: problemKind{http.StatusTooManyRequests, "Too many failed logins"}},
}

// The indexes of problemTable: by kind, the titles of domain codes, and
// the API-level codes.
var kindProblems, codeTitles, apiProblems = indexProblems(problemTable)

func indexProblems(rows []problemRow) (kinds map[domain.Kind]problemKind, titles map[string]string, api map[string]problemKind) {
	kinds, titles, api = map[domain.Kind]problemKind{}, map[string]string{}, map[string]problemKind{}
	for _, row := range rows {
		switch {
		case row.kind != "":
			kinds[row.kind] = row.problemKind
		case row.status == 0:
			titles[row.code] = row.title
		default:
			api[row.code] = row.problemKind
		}
	}
	return kinds, titles, api
}

// problemFor returns the status and title of a code: an API-level code's
// own, a domain code's kind's (with the code's own title if it has one).
func problemFor(code string, kind domain.Kind) problemKind {
	if p, ok := apiProblems[code]; ok {
		return p
	}
	p, ok := kindProblems[kind]
	if !ok {
		p = kindProblems[domain.KindInternal]
	}
	if title, ok := codeTitles[code]; ok {
		p.title = title
	}
	return p
}

// newProblem builds the problem for code with detail, filling in the
// request's path and id: an API-level code, or a known domain code (an
// unknown one is an internal error).
func newProblem(r *http.Request, code, detail string) Problem {
	kind := domain.KindOf(domain.Code(code))
	if _, api := apiProblems[code]; !api && kind == domain.KindInternal {
		code = string(domain.EInternal)
	}
	return problemOf(r, code, kind, detail)
}

// problemOf builds the problem for code of kind with detail.
func problemOf(r *http.Request, code string, kind domain.Kind, detail string) Problem {
	p := problemFor(code, kind)
	return Problem{
		Type:      "urn:burraco:problem:" + code,
		Title:     p.title,
		Status:    p.status,
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
	writeJSON(w, p.Status, p)
}

// ProblemCode is one code a problem may carry and its HTTP status.
type ProblemCode struct {
	Code   string
	Status int
	Rule   bool // one of the engine's rule codes
}

// ProblemCodes returns every code a problem may carry, ordered by status,
// the rule codes after the others, and code: the API-level codes and every code the domain knows, its own
// and the engine's rule codes. cmd/openapigen lists them in the document.
func ProblemCodes() []ProblemCode {
	var out []ProblemCode
	for code, p := range apiProblems {
		out = append(out, ProblemCode{Code: code, Status: p.status})
	}
	for code, kind := range domain.KnownCodes() {
		out = append(out, ProblemCode{Code: string(code), Status: problemFor(string(code), kind).status, Rule: domain.IsRuleCode(code)})
	}
	slices.SortFunc(out, func(a, b ProblemCode) int {
		return cmp.Or(cmp.Compare(a.Status, b.Status), compareBool(a.Rule, b.Rule), cmp.Compare(a.Code, b.Code))
	})
	return out
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// problemError is an API-level problem (a code of apiProblems) that a
// handler or a middleware returns instead of answering it: the handler's
// adapter (serve) answers it, with the fields it lists.
type problemError struct {
	code   string
	detail string
	fields []FieldError
}

func (e *problemError) Error() string { return e.code + ": " + e.detail }

// problem returns the API-level problem code with detail and fields.
func problem(code, detail string, fields ...FieldError) error {
	return &problemError{code: code, detail: detail, fields: fields}
}

// fail answers a request with an API-level problem.
func fail(w http.ResponseWriter, r *http.Request, code, detail string) {
	writeProblem(w, newProblem(r, code, detail))
}

// failErr answers a request with err: an API-level problem by its code; a
// *domain.Error by its code and user-safe message; a timeout as 503;
// anything else as a 500 with a generic message, logged with the request
// id and never echoed.
func (s *server) failErr(w http.ResponseWriter, r *http.Request, err error) {
	writeProblem(w, s.problemOfErr(r, err))
}

// problemOfErr is the problem failErr answers for err, logged as it says.
func (s *server) problemOfErr(r *http.Request, err error) Problem {
	var pe *problemError
	var de *domain.Error
	switch {
	case errors.As(err, &pe):
		p := newProblem(r, pe.code, pe.detail)
		p.Errors = pe.fields
		return p
	case errors.Is(err, context.DeadlineExceeded):
		s.log.WarnContext(r.Context(), "request timed out", "request_id", RequestIDFrom(r.Context()), "err", err)
		return newProblem(r, codeTimeout, "the request took too long; try again")
	case errors.As(err, &de) && domain.ErrorKind(de) != domain.KindInternal:
		if de.Err != nil {
			s.log.DebugContext(r.Context(), "request failed", "request_id", RequestIDFrom(r.Context()), "code", de.Code, "err", err)
		}
		p := problemOf(r, string(de.Code), domain.ErrorKind(de), de.Message)
		p.Errors = fieldErrorsOut(de.Fields)
		p.CurrentVersion = de.Current
		return p
	default:
		s.log.ErrorContext(r.Context(), "internal error", "request_id", RequestIDFrom(r.Context()), "method", r.Method, "path", r.URL.Path, "err", err)
		return newProblem(r, string(domain.EInternal), "an internal error occurred; quote the request id when reporting it")
	}
}
