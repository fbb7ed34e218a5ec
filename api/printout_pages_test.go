package api_test

import (
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestPrintPagesSayWhatIsMissingInsteadOfJSON: the printable pages are for
// people, so a page that cannot be made is an HTML page with the problem's
// status, in the page's language, saying what is missing and what to do —
// not problem+json and not a blank page — for a browser (Accept naming
// text/html). An API client still gets the problem.
func TestPrintPagesSayWhatIsMissingInsteadOfJSON(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 4)
	browser := map[string]string{"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
	tests := []struct {
		name   string
		path   string
		header map[string]string
		status int
		code   string // X-Problem-Code; "" for a page that exists
		say    []string
		notSay []string
	}{
		{"tables before any draw", tpath(id, "print", "tables") + "?lang=en", browser, http.StatusNotFound, "round_not_found",
			[]string{"No table cards yet", "This round has not been drawn", "Draw the round in the director console"}, nil},
		{"tables before any draw, italian", tpath(id, "print", "tables"), map[string]string{"Accept": "text/html", "Accept-Language": "it-IT,it;q=0.9"},
			http.StatusNotFound, "round_not_found", []string{"Ancora nessun cartellino", "Sorteggia il turno"}, nil},
		{"tables of a round not drawn", tpath(id, "print", "tables") + "?round=2&lang=en", browser, http.StatusNotFound, "round_not_found",
			[]string{"This round has not been drawn"}, nil},
		{"results before any result", tpath(id, "print", "results") + "?lang=en", browser, http.StatusOK, "",
			[]string{"No round has been drawn yet, so there are no results.", "The standings page lists the entries"}, nil},
		{"standings of entries without a round", tpath(id, "print", "standings") + "?lang=en", browser, http.StatusOK, "",
			[]string{"Standings"}, []string{"No entry has registered yet."}},
		{"no such tournament", tpath(id+1000, "print", "standings") + "?lang=en", browser, http.StatusNotFound, "not_found",
			[]string{"Tournament not found", "Check the tournament number"}, nil},
		{"a language the pages lack", tpath(id, "print", "results") + "?lang=fr", browser, http.StatusBadRequest, "invalid_parameter",
			[]string{"Wrong address", "lang=it or lang=en"}, nil},
		{"a round that is not a number", tpath(id, "print", "tables") + "?round=x&lang=en", browser, http.StatusBadRequest, "invalid_parameter",
			[]string{"Wrong address"}, nil},
		{"a tournament id that is not a number", "/api/v1/tournaments/abc/print/results?lang=en", browser, http.StatusBadRequest, "invalid_parameter",
			[]string{"Wrong address"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := te.do(req{Method: "GET", Path: tt.path, Header: tt.header})
			body := html.UnescapeString(string(res.Body))
			if res.Status != tt.status {
				t.Fatalf("status %d, want %d: %s", res.Status, tt.status, body)
			}
			if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type %q, want an HTML page", ct)
			}
			if got := res.Header.Get("X-Problem-Code"); got != tt.code {
				t.Errorf("X-Problem-Code %q, want %q", got, tt.code)
			}
			if res.Header.Get("Content-Security-Policy") == "" {
				t.Errorf("the page has no Content-Security-Policy")
			}
			for _, w := range tt.say {
				if !strings.Contains(body, w) {
					t.Errorf("the page does not say %q:\n%s", w, body)
				}
			}
			for _, w := range tt.notSay {
				if strings.Contains(body, w) {
					t.Errorf("the page says %q:\n%s", w, body)
				}
			}
			if tt.code != "" && !strings.Contains(body, "Code: "+tt.code) && !strings.Contains(body, "Codice: "+tt.code) {
				t.Errorf("the notice does not name the code %s", tt.code)
			}
		})
	}

	for _, accept := range []string{"", "*/*", "application/problem+json"} {
		t.Run("an API client gets the problem (Accept "+accept+")", func(t *testing.T) {
			p := te.problem(http.StatusNotFound, req{Method: "GET", Path: tpath(id, "print", "tables"),
				Header: map[string]string{"Accept": accept}})
			if p.Code != "round_not_found" {
				t.Errorf("code %q, want round_not_found", p.Code)
			}
		})
	}

	t.Run("standings of a tournament without entries", func(t *testing.T) {
		empty := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
		te.lifecycle(empty, te.director, "open_registration")
		res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(empty, "print", "standings") + "?lang=en"}, nil)
		if !strings.Contains(string(res.Body), "No entry has registered yet.") {
			t.Errorf("the standings of no entries do not say so:\n%s", res.Body)
		}
	})
}

// TestForbiddenPairsReadBackAsSet: GET /forbidden answers the list PUT
// set (the console shows it before replacing it), empty at first.
func TestForbiddenPairsReadBackAsSet(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	es := te.pairs(id, 4)
	var got api.TournamentForbidden
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "forbidden"), Token: te.referee}, &got)
	if len(got.Pairs) != 0 {
		t.Fatalf("a new tournament has forbidden pairs %s", jsonOf(got))
	}
	te.must(http.StatusOK, req{Method: "PUT", Path: tpath(id, "forbidden"), Token: te.director,
		Body: api.TournamentForbiddenRequest{Pairs: [][]int64{{es[0].ID, es[2].ID}}, Reason: "same family"}}, nil)
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "forbidden"), Token: te.referee}, &got)
	if len(got.Pairs) != 1 || len(got.Pairs[0]) != 2 || got.Pairs[0][0].ID != es[0].ID || got.Pairs[0][1].ID != es[2].ID {
		t.Errorf("forbidden pairs read back as %s, want entries %d and %d", jsonOf(got), es[0].ID, es[2].ID)
	}
}
