package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
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
	ids := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.OperationID == "" || op.Security == nil || op.Summary == "" || len(op.Tags) == 0 {
				t.Errorf("%s %s: no operationId, security, summary or tags", method, path)
			}
			if ids[op.OperationID] {
				t.Errorf("%s %s: operationId %s is used twice", method, path, op.OperationID)
			}
			ids[op.OperationID] = true
			checkResponses(t, method+" "+path, op)
		}
	}
	for _, name := range []string{"Member", "MemberAddRequest", "MemberUpdateRequest"} {
		if enum := doc.Components.Schemas[name].Value.Properties["role"].Value.Enum; len(enum) != 4 {
			t.Errorf("%s.role enum %v, want the four roles", name, enum)
		}
	}
	if s := doc.Components.SecuritySchemes["BearerAuth"].Value; s.Type != "http" || s.Scheme != "bearer" {
		t.Errorf("BearerAuth is %s/%s, want http/bearer", s.Type, s.Scheme)
	}
}

// checkResponses checks that every error response of an operation is a
// Problem in application/problem+json, that there is a default (for 500),
// and that an operation with a body documents 400, 413 and 415.
func checkResponses(t *testing.T, name string, op *openapi3.Operation) {
	t.Helper()
	responses := op.Responses.Map()
	for status, resp := range responses {
		if status[0] < '4' && status != "default" {
			continue
		}
		mt := resp.Value.Content.Get("application/problem+json")
		if mt == nil || mt.Schema.Ref != "#/components/schemas/Problem" || len(resp.Value.Content) != 1 {
			t.Errorf("%s %s is not an application/problem+json Problem", name, status)
		}
		if resp.Value.Description == nil || *resp.Value.Description == "" {
			t.Errorf("%s %s has no description", name, status)
		}
	}
	want := []string{"default"}
	if op.RequestBody != nil {
		want = append(want, "400", "413", "415")
	}
	for _, status := range want {
		if responses[status] == nil {
			t.Errorf("%s: %s is not documented", name, status)
		}
	}
}

// TestOpenAPIReadsTopDown checks that openapi.yaml opens with openapi,
// info, servers and tags, then paths, then components, and that each operation
// lists its keys in the conventional order (tags, summary, description,
// operationId, parameters, requestBody, responses, security).
func TestOpenAPIReadsTopDown(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	top := doc.Content[0]
	if diff := cmp.Diff([]string{"openapi", "info", "servers", "tags", "paths", "components"}, keys(top)); diff != "" {
		t.Errorf("top-level keys (-want +got):\n%s", diff)
	}
	ops := 0
	eachValue(field(top, "paths"), nil, func(item *yaml.Node) {
		eachValue(item, httpMethods, func(op *yaml.Node) {
			ops++
			got := keys(op)
			var want []string
			for _, k := range operationOrder {
				if field(op, k) != nil {
					want = append(want, k)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: operation keys (-want +got):\n%s", field(op, "operationId").Value, diff)
			}
		})
	})
	if ops < 20 {
		t.Errorf("only %d operations seen", ops)
	}
}

// TestOrderDocumentOnlyReorders checks that ordering the keys changes no
// value: the document reads back the same before and after.
func TestOrderDocumentOnlyReorders(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var plain any
	if err := yaml.Unmarshal(b, &plain); err != nil {
		t.Fatal(err)
	}
	var node yaml.Node
	if err := node.Encode(plain); err != nil {
		t.Fatal(err)
	}
	before := keys(&node)
	orderDocument(&node)
	if cmp.Equal(before, keys(&node)) {
		t.Fatalf("top-level keys not reordered: %v", before)
	}
	var back any
	if err := node.Decode(&back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(plain, back); diff != "" {
		t.Errorf("ordering changed the document (-before +after):\n%s", diff)
	}
}

// keys lists the keys of a mapping node in order.
func keys(m *yaml.Node) []string {
	var out []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, m.Content[i].Value)
	}
	return out
}
