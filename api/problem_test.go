package api

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// TestRuleErrorsReachClients checks that every engine rule code, converted
// by the domain, reaches the client with its own code and message: 409 for
// not_your_turn, 422 for every other.
func TestRuleErrorsReachClients(t *testing.T) {
	for _, c := range engine.Codes() {
		code := string(c)
		t.Run(code, func(t *testing.T) {
			want := http.StatusUnprocessableEntity
			if c == engine.ErrNotYourTurn {
				want = http.StatusConflict
			}
			s := testServer(&bytes.Buffer{})
			err := domain.FromRuleError(fmt.Errorf("apply: %w", &engine.RuleError{Code: engine.Code(code), Message: "the rules say no"}))
			rec, p := serve(s, func(w http.ResponseWriter, r *http.Request) { s.failErr(w, r, err) })
			if rec.Code != want || p.Status != want || p.Code != code || p.Type != "urn:burraco:problem:"+code ||
				p.Detail != "the rules say no" || p.Title == "" {
				t.Fatalf("%d %+v, want %d with code %s", rec.Code, p, want, code)
			}
		})
	}
}

// TestCodesOfTheirOwnKeepTheirCode checks that a service's own code of a
// known kind reaches the client as it is, with its kind's status.
func TestCodesOfTheirOwnKeepTheirCode(t *testing.T) {
	for kind, status := range map[domain.Kind]int{domain.KindConflict: 409, domain.KindForbidden: 403,
		domain.KindNotFound: 404, domain.KindRule: 422, domain.KindUnavailable: 503} {
		s := testServer(&bytes.Buffer{})
		err := domain.Newf(kind, "seat_taken", "seat 2 is taken")
		rec, p := serve(s, func(w http.ResponseWriter, r *http.Request) { s.failErr(w, r, err) })
		if rec.Code != status || p.Code != "seat_taken" || p.Detail != "seat 2 is taken" {
			t.Errorf("%s: %d %+v, want %d", kind, rec.Code, p, status)
		}
	}
}

// TestSpecListsEveryProblemCode checks that the description of
// Problem.code in openapi.yaml lists every code the server knows, each
// engine rule code constant among them, under its status.
func TestSpecListsEveryProblemCode(t *testing.T) {
	b, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Description string `yaml:"description"`
				} `yaml:"properties"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	desc := doc.Components.Schemas["Problem"].Properties["code"].Description
	listed := map[string]int{} // code → status, as the description's list has it
	for _, line := range strings.Split(desc, "\n") {
		i := strings.LastIndex(line, ": ")
		if !strings.HasPrefix(line, "- ") || i < 0 {
			continue
		}
		head, codes := line[2:i], line[i+2:]
		status, err := strconv.Atoi(strings.Fields(head + " x")[0])
		if err != nil {
			continue
		}
		for _, c := range strings.Split(codes, ", ") {
			listed[c] = status
		}
	}
	for _, c := range engine.Codes() {
		if _, ok := listed[string(c)]; !ok {
			t.Errorf("engine code %s is not listed in Problem.code (run make docs)", c)
		}
	}
	for _, pc := range ProblemCodes() {
		if listed[pc.Code] != pc.Status {
			t.Errorf("%s is listed with status %d, the server answers %d (run make docs)", pc.Code, listed[pc.Code], pc.Status)
		}
	}
	if len(listed) != len(ProblemCodes()) {
		t.Errorf("Problem.code lists %d codes, the server knows %d", len(listed), len(ProblemCodes()))
	}
}

// TestProblemTableIsWhole checks the one table of problems: every kind a
// known code has is a row, no kind or code is a row twice, a title of its
// own is for a code the domain knows, and no API-level code is one of the
// domain's (whose kind would be ignored).
func TestProblemTableIsWhole(t *testing.T) {
	known := domain.KnownCodes()
	seen := map[string]bool{}
	for _, row := range problemTable {
		name := string(row.kind) + "|" + row.code
		if seen[name] {
			t.Errorf("%s is a row twice", name)
		}
		seen[name] = true
		_, domainCode := known[domain.Code(row.code)]
		switch {
		case row.kind != "" && (row.code != "" || row.status == 0 || row.title == ""):
			t.Errorf("kind %s: %+v", row.kind, row)
		case row.kind == "" && row.status == 0 && !domainCode:
			t.Errorf("%s has a title of its own but is no code the domain knows", row.code)
		case row.kind == "" && row.status != 0 && domainCode:
			t.Errorf("%s is an API-level code and a domain code", row.code)
		}
	}
	for code, kind := range known {
		if _, ok := kindProblems[kind]; !ok {
			t.Errorf("%s: kind %s has no row", code, kind)
		}
	}
}
