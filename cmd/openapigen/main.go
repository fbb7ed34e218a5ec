// Command openapigen regenerates the API documentation from the swag
// annotations of package api: docs/swagger.json and docs/swagger.yaml
// (Swagger 2.0, what swag produces) and openapi.yaml at the repository root
// (OpenAPI 3, converted with kin-openapi). Run it from the repository root:
//
//	go run ./cmd/openapigen
//
// (make docs). A test fails when the committed files are stale.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/swaggo/swag/gen"
	"gopkg.in/yaml.v3"
)

func main() {
	root := flag.String("root", ".", "repository root")
	out := flag.String("out", ".", "where to write docs/ and openapi.yaml")
	flag.Parse()
	if err := generate(*root, *out); err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
}

// generate writes out/docs/swagger.{json,yaml} and out/openapi.yaml from
// the sources under root.
func generate(root, out string) error {
	docs := filepath.Join(out, "docs")
	if err := swag(root, docs); err != nil {
		return err
	}
	spec, err := os.ReadFile(filepath.Join(docs, "swagger.json"))
	if err != nil {
		return err
	}
	y, err := toOpenAPI3(spec)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "openapi.yaml"), y, 0o644)
}

// swag runs swag (the library, at the version pinned in go.mod) as
// `swag init -d api,domain -g docs.go --outputTypes json,yaml` would.
func swag(root, docs string) error {
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	return gen.New().Build(&gen.Config{
		SearchDir:          filepath.Join(abs, "api") + "," + filepath.Join(abs, "domain"),
		MainAPIFile:        "docs.go",
		OutputDir:          docs,
		OutputTypes:        []string{"json", "yaml"},
		PropNamingStrategy: "camelcase",
		ParseDepth:         100,
		Strict:             true,
		RequiredByDefault:  true, // every field without omitempty is required
		Debugger:           quiet{},
		LeftTemplateDelim:  "{{",
		RightTemplateDelim: "}}",
		PackageName:        "docs",
		CollectionFormat:   "csv",
		InstanceName:       "swagger",
	})
}

// toOpenAPI3 converts a Swagger 2.0 document to an OpenAPI 3 YAML one.
func toOpenAPI3(swaggerJSON []byte) ([]byte, error) {
	var doc2 openapi2.T
	if err := json.Unmarshal(swaggerJSON, &doc2); err != nil {
		return nil, fmt.Errorf("read swagger.json: %w", err)
	}
	doc3, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("convert to OpenAPI 3: %w", err)
	}
	doc3.Servers = openapi3.Servers{{URL: "/", Description: "this server"}}
	problemMediaType(doc3)
	bearerScheme(doc3)
	commonResponses(doc3)
	publicSecurity(doc3)
	dropConversionNoise(doc3)
	if err := problemCodes(doc3); err != nil {
		return nil, err
	}
	if err := moveSchemas(doc3); err != nil {
		return nil, err
	}
	if err := eventSchemas(doc3); err != nil {
		return nil, err
	}
	if err := textConstraints(doc3); err != nil {
		return nil, err
	}
	if err := shapes(doc3); err != nil {
		return nil, err
	}
	if err := wholeExamples(doc3); err != nil {
		return nil, err
	}
	pathParameters(doc3)
	integerBounds(doc3)
	closedBodies(doc3)
	deprecatedProperties(doc3)
	// A round trip through JSON gives plain maps, which yaml.v3 turns into
	// nodes with sorted keys: the output is deterministic. orderDocument
	// then puts the keys of each object in the conventional order.
	j, err := doc3.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var plain any
	if err := json.Unmarshal(j, &plain); err != nil {
		return nil, err
	}
	plain = wholeNumbers(plain)
	var node yaml.Node
	if err := node.Encode(plain); err != nil {
		return nil, err
	}
	orderDocument(&node)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&node); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

// wholeNumbers turns the whole float64 numbers of a JSON value into
// int64, which yaml.v3 writes as integers: a bound such as 2^53-1 would
// otherwise read 9.007199254740991e+15.
func wholeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = wholeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = wholeNumbers(e)
		}
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= 1<<53 {
			return int64(x)
		}
	}
	return v
}

// problemMediaType declares error responses as application/problem+json,
// which is what the server sends (swag can only give one media type per
// operation: application/json, or text/event-stream for a stream).
func problemMediaType(doc *openapi3.T) {
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, resp := range op.Responses.Map() {
				for _, mt := range resp.Value.Content {
					if mt != nil && mt.Schema != nil && mt.Schema.Ref == "#/components/schemas/Problem" {
						resp.Value.Content = openapi3.Content{"application/problem+json": mt}
						break
					}
				}
			}
		}
	}
}

// bearerScheme declares BearerAuth as what it is, an HTTP bearer token (a
// JWT); Swagger 2.0, and so swag, can only call it an API key header.
func bearerScheme(doc *openapi3.T) {
	ref := doc.Components.SecuritySchemes["BearerAuth"]
	if ref == nil || ref.Value == nil {
		return
	}
	ref.Value = &openapi3.SecurityScheme{Type: "http", Scheme: "bearer", BearerFormat: "JWT",
		Description: "The access token from /api/v1/auth/login or /api/v1/auth/refresh, sent as `Authorization: Bearer <access_token>`."}
}

// optionalAuth is the operation extension (@x-auth-optional true) of
// operations that anyone may call, and that also accept an access token.
const optionalAuth = "x-auth-optional"

// publicSecurity marks operations without @Security as needing no
// authentication (swag leaves them without a security field), or, with
// @x-auth-optional, as taking an access token optionally.
func publicSecurity(doc *openapi3.T) {
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Security != nil {
				continue
			}
			op.Security = &openapi3.SecurityRequirements{}
			if op.Extensions[optionalAuth] == true {
				op.Security = &openapi3.SecurityRequirements{{}, {"BearerAuth": []string{}}}
			}
			delete(op.Extensions, optionalAuth)
		}
	}
}

// dropConversionNoise removes what the conversion adds for its own round
// trips (x-originalParamName on request bodies), and the empty contact
// object swag writes.
func dropConversionNoise(doc *openapi3.T) {
	if c := doc.Info.Contact; c != nil && c.Name == "" && c.URL == "" && c.Email == "" && len(c.Extensions) == 0 {
		doc.Info.Contact = nil
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				delete(op.RequestBody.Value.Extensions, "x-originalParamName")
			}
		}
	}
}

// quiet silences swag's progress messages.
type quiet struct{}

func (quiet) Printf(string, ...any) {}
