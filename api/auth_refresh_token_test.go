package api_test

import (
	"testing"

	"github.com/burraco/burraco/domain/store/storetest"
)

// TestMissingRefreshTokenIsRefused: refresh_token is required (minLength
// 1) on refresh and logout alike; without it both answer 422 naming it,
// where logout used to answer 204 to {}.
func TestMissingRefreshTokenIsRefused(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	for _, path := range []string{"/api/v1/auth/logout", "/api/v1/auth/refresh"} {
		for _, body := range []string{`{}`, `{"refresh_token":""}`} {
			t.Run(path+" "+body, func(t *testing.T) {
				p := problemOf(t, e.must(422, req{Method: "POST", Path: path, Body: body}, nil), "invalid_input")
				if len(p.Errors) != 1 || p.Errors[0].Field != "refresh_token" || p.Errors[0].Code != "required" {
					t.Errorf("errors %+v, want refresh_token:required", p.Errors)
				}
			})
		}
	}
}
