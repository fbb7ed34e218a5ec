package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTableRoutesAnswerAsNestedRouters pins what the /tables routes answer
// now that they are registered flat (for the long polls' stacks, issue 7)
// rather than in nested chi routers: a trailing slash is served as without,
// an unknown path is 404, a wrong method 405 with Allow, and a CORS preflight
// of the state is answered.
func TestTableRoutesAnswerAsNestedRouters(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	_, tok := e.user("routes@example.com", "Routes")
	tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2})
	id := fmt.Sprint(tb.ID)
	cases := []struct {
		name, method, path string
		header             map[string]string
		status             int
		allow              string
	}{
		{"lobby", "GET", "/api/v1/tables", nil, http.StatusOK, ""},
		{"lobby with a slash", "GET", "/api/v1/tables/", nil, http.StatusOK, ""},
		{"table", "GET", "/api/v1/tables/" + id, nil, http.StatusOK, ""},
		{"table with a slash", "GET", "/api/v1/tables/" + id + "/", nil, http.StatusOK, ""},
		{"state", "GET", "/api/v1/tables/" + id + "/state", nil, http.StatusOK, ""},
		{"unknown path", "GET", "/api/v1/tables/" + id + "/nope", nil, http.StatusNotFound, ""},
		{"state posted", "POST", "/api/v1/tables/" + id + "/state", nil, http.StatusMethodNotAllowed, "GET"},
		{"table deleted", "DELETE", "/api/v1/tables/" + id, nil, http.StatusMethodNotAllowed, "GET"},
		{"preflight of the state", "OPTIONS", "/api/v1/tables/" + id + "/state",
			map[string]string{"Origin": "https://example.com", "Access-Control-Request-Method": "GET"}, http.StatusOK, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.do(req{Method: c.method, Path: c.path, Header: c.header})
			if res.Status != c.status {
				t.Fatalf("status %d, want %d: %s", res.Status, c.status, res.Body)
			}
			if c.allow != "" && res.Header.Get("Allow") != c.allow {
				t.Fatalf("Allow %q, want %q", res.Header.Get("Allow"), c.allow)
			}
			if c.method == "OPTIONS" && res.Header.Get("Access-Control-Allow-Origin") == "" {
				t.Fatalf("no CORS answer: %v", res.Header)
			}
		})
	}
}
