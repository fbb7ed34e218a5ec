package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestCommonResponses checks in openapi.yaml what commonResponses adds,
// and that a handler's own response for the same status wins.
func TestCommonResponses(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile(filepath.Join(root, "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			has := func(status, want string) {
				t.Helper()
				r := op.Responses.Value(status)
				if r == nil || r.Value == nil || r.Value.Content.Get("application/problem+json") == nil {
					t.Errorf("%s %s: no %s problem", method, path, status)
				} else if status == "413" && strings.HasPrefix(*r.Value.Description, "request_too_large: ") {
					// a route with a bound of its own says it (PUT …/forbidden)
				} else if want != "" && *r.Value.Description != want {
					t.Errorf("%s %s %s: %q, want %q", method, path, status, *r.Value.Description, want)
				}
			}
			has("default", respDefault)
			if strings.HasPrefix(path, "/api/v1/") {
				has("503", respUnavailable)
				if r := op.Responses.Value("503"); r != nil && r.Value.Headers["Retry-After"] == nil {
					t.Errorf("%s %s: 503 without Retry-After", method, path)
				}
			}
			if op.RequestBody != nil {
				has("413", respTooLarge)
				has("415", respMediaType)
			}
			if op.Security != nil && len(*op.Security) > 0 {
				has("401", "")
			}
		}
	}
	if r := doc.Paths.Find("/readyz").Get.Responses.Value("503"); r == nil || !strings.HasPrefix(*r.Value.Description, "service_unavailable") {
		t.Errorf("readyz's own 503 was replaced")
	}
	if r := doc.Paths.Find("/api/v1/auth/login").Post.Responses.Value("401"); r == nil || !strings.Contains(*r.Value.Description, "wrong password") {
		t.Errorf("login's own 401 was replaced")
	}
}
