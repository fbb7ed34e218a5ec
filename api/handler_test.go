package api

import (
	"bytes"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain"
)

// TestHandlerErrorsBecomeProblems checks the adapter: whatever a handler
// returns is answered as the problem of its kind, headers it set before
// failing kept, and nothing of a plain error's text echoed.
func TestHandlerErrorsBecomeProblems(t *testing.T) {
	for _, tt := range []struct {
		name   string
		err    error
		status int
		code   string
		fields int
	}{
		{"APILevelProblemKeepsItsCodeAndFields", problem(codeInvalidParameter, "bad", FieldError{Field: "id", Code: "invalid", Message: "m"}), 400, "invalid_parameter", 1},
		{"DomainCodeAsProblemTakesItsKind", problem(string(domain.EInvalid), "bad", FieldError{Field: "version", Code: "required", Message: "m"}), 422, "invalid_input", 1},
		{"DomainErrorTakesItsKind", domain.Errorf(domain.ENotFound, "no such thing"), 404, "not_found", 0},
		{"WrappedProblemIsFound", fmt.Errorf("reading: %w", problem(codeMalformedJSON, "bad")), 400, "malformed_json", 0},
		{"PlainErrorIsAHiddenInternalError", fmt.Errorf("secret cause"), 500, "internal", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			logs := &bytes.Buffer{}
			s := testServer(logs)
			rec, p := serve(s, s.serve(func(w http.ResponseWriter, r *http.Request) error {
				w.Header().Set("ETag", `"kept"`)
				return tt.err
			}))
			if rec.Code != tt.status || p.Status != tt.status || p.Code != tt.code || len(p.Errors) != tt.fields {
				t.Fatalf("%d %+v, want %d %s with %d fields", rec.Code, p, tt.status, tt.code, tt.fields)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("content type %q", ct)
			}
			if rec.Header().Get("ETag") != `"kept"` {
				t.Errorf("the handler's header was lost")
			}
			if strings.Contains(rec.Body.String(), "secret") {
				t.Errorf("the cause leaked: %s", rec.Body)
			}
		})
	}
}

// TestHandlerNilErrorAnswersAsWritten checks that a handler that answers
// and returns nil is left alone.
func TestHandlerNilErrorAnswersAsWritten(t *testing.T) {
	s := testServer(&bytes.Buffer{})
	rec, _ := serve(s, s.serve(func(w http.ResponseWriter, r *http.Request) error {
		return respond(w, http.StatusCreated, map[string]int{"n": 1})
	}))
	if rec.Code != http.StatusCreated || rec.Body.String() != "{\"n\":1}\n" || rec.Header().Get("Content-Length") != "8" {
		t.Fatalf("%d %q %v", rec.Code, rec.Body, rec.Header())
	}
}

// TestUnencodableAnswerIsALoggedProblem checks that a value that cannot be
// encoded (a bug) is a 500 problem, logged, rather than a bare 500 with an
// empty body and nothing in the log (as before the adapter).
func TestUnencodableAnswerIsALoggedProblem(t *testing.T) {
	logs := &bytes.Buffer{}
	s := testServer(logs)
	rec, p := serve(s, s.serve(func(w http.ResponseWriter, r *http.Request) error {
		return respond(w, http.StatusOK, map[string]float64{"x": math.NaN()})
	}))
	if rec.Code != 500 || p.Code != "internal" || rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("%d %q %+v", rec.Code, rec.Header().Get("Content-Type"), p)
	}
	if !strings.Contains(logs.String(), "unsupported value") {
		t.Errorf("the encoding error is not logged: %s", logs)
	}
}
