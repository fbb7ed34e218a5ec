package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestEveryAnswerIsNosniff: every answer, JSON, CSV, HTML, YAML or a
// problem, says X-Content-Type-Options: nosniff (issue 19), so that no
// browser reads a CSV or JSON that carries a name like "<script>" as HTML.
func TestEveryAnswerIsNosniff(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(1)})
	te.lifecycle(id, te.director, "open_registration")
	for _, path := range []string{"/healthz", "/openapi.yaml", "/api/v1/rules", "/api/v1/nowhere", tpath(id), tpath(id, "entries"),
		tpath(id, "export", "standings.csv"), tpath(id, "print", "standings"), tpath(id, "print", "results")} {
		res := te.do(req{Method: "GET", Path: path, Token: te.director})
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s (%d %s): X-Content-Type-Options %q", path, res.Status, res.Header.Get("Content-Type"), got)
		}
	}
}

// TestPrintPagesHaveAStrictCSP: the print pages are static HTML served
// with a Content-Security-Policy that allows no script and no source but
// the page's own inline style, by the hash of the style the page carries.
func TestPrintPagesHaveAStrictCSP(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(1)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 4)
	te.start(id)
	te.draw(id)
	for _, path := range []string{tpath(id, "print", "standings"), tpath(id, "print", "tables"), tpath(id, "print", "results") + "?lang=it"} {
		res := te.must(http.StatusOK, req{Method: "GET", Path: path}, nil)
		csp, body := res.Header.Get("Content-Security-Policy"), string(res.Body)
		_, rest, _ := strings.Cut(body, "<style>")
		style, _, ok := strings.Cut(rest, "</style>")
		sum := sha256.Sum256([]byte(style))
		hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !ok || !strings.Contains(csp, "style-src "+hash) || !strings.Contains(csp, "default-src 'none'") ||
			strings.Contains(csp, "unsafe") || strings.Contains(csp, "script-src") {
			t.Errorf("%s: CSP %q for the page's style %s", path, csp, hash)
		}
		if strings.Contains(body, "<script") || strings.Contains(body, " style=") || strings.Count(body, "<style>") != 1 {
			t.Errorf("%s: the page has a script or a style the policy does not allow", path)
		}
	}
}
