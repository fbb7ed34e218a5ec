package api_test

import (
	"fmt"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestNullFieldsAreRefusedNamingTheField: null is never taken for an
// absent field (a PATCHed name, a description, options, a nested option):
// 400 malformed_json with the field named and the code null, and nothing
// changes.
func TestNullFieldsAreRefusedNamingTheField(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	_, tok := e.user("null@example.com", "Nulla")
	var club api.Club
	e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: tok.AccessToken,
		Body: api.ClubCreateRequest{Name: "Circolo", City: "Roma", Description: "Tuesdays"}}, &club)
	clubPath := fmt.Sprintf("/api/v1/clubs/%d", club.ID)
	tests := []struct {
		name, method, path, body, field string
	}{
		{"PatchedName", "PATCH", clubPath, `{"name":null}`, "name"},
		{"Description", "PATCH", clubPath, `{"description":null,"city":"Milano"}`, "description"},
		{"CreateDescription", "POST", "/api/v1/clubs", `{"name":"B","description":null}`, "description"},
		{"Options", "POST", "/api/v1/tables", `{"rules":"italian","players":2,"options":null}`, "options"},
		{"NestedOption", "POST", "/api/v1/tables", `{"rules":"italian","players":2,"options":{"target":null}}`, "options.target"},
		{"InArray", "POST", clubPath + "/tournaments",
			`{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","vp_table":{"name":"x","sum":20,"bands":[null]}}`, "vp_table.bands"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := problemOf(t, e.must(400, req{Method: tt.method, Path: tt.path, Token: tok.AccessToken, Body: tt.body}, nil), "malformed_json")
			if len(p.Errors) != 1 || p.Errors[0].Field != tt.field || p.Errors[0].Code != "null" {
				t.Errorf("errors %+v, want %s:null", p.Errors, tt.field)
			}
		})
	}
	var got api.Club
	e.must(200, req{Method: "GET", Path: clubPath}, &got)
	if got.Name != "Circolo" || got.City != "Roma" || got.Description != "Tuesdays" {
		t.Errorf("a refused PATCH changed the club: %+v", got)
	}
}
