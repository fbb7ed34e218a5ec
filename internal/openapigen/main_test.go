package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

const root = "../.."

// TestCommittedDocsAreFresh regenerates docs/ and openapi.yaml in a temp
// dir and fails when the committed copies differ: run `make docs`.
func TestCommittedDocsAreFresh(t *testing.T) {
	out := t.TempDir()
	if err := generate(root, out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"docs/swagger.json", "docs/swagger.yaml", "openapi.yaml"} {
		want, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatalf("%s: %v (run `make docs`)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run `make docs` and commit the result", name)
		}
	}
}

// TestOpenAPIIsValid loads openapi.yaml as OpenAPI 3 and validates it, and
// checks what a frontend relies on.
func TestOpenAPIIsValid(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile(filepath.Join(root, "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/v1/auth/login", "/api/v1/clubs/{clubID}/members/{userID}", "/api/v1/players/{playerID}", "/readyz"} {
		if doc.Paths.Find(path) == nil {
			t.Errorf("%s is not documented", path)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.OperationID == "" || op.Security == nil {
				t.Errorf("%s %s: no operationId or security", method, path)
			}
			for status, resp := range op.Responses.Map() {
				if status[0] >= '4' && resp.Value.Content.Get("application/problem+json") == nil {
					t.Errorf("%s %s %s is not application/problem+json", method, path, status)
				}
			}
		}
	}
}
