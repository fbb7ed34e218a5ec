package api_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// exampleOf is the example a reader of the document sees for s, as Swagger
// UI composes it: the schema's own example, else its properties' examples
// (nested objects and arrays composed the same way); nil when none.
func exampleOf(s *openapi3.SchemaRef) any {
	if s == nil || s.Value == nil {
		return nil
	}
	v := s.Value
	if v.Example != nil {
		return v.Example
	}
	if len(v.AllOf) > 0 {
		merged := map[string]any{}
		for _, sub := range v.AllOf {
			switch ex := exampleOf(sub).(type) {
			case map[string]any:
				for k, x := range ex {
					merged[k] = x
				}
			case nil:
			default:
				if len(v.AllOf) == 1 {
					return ex
				}
			}
		}
		if len(merged) == 0 {
			return nil
		}
		return merged
	}
	if len(v.OneOf) > 0 && len(v.Properties) == 0 {
		return exampleOf(v.OneOf[0])
	}
	if len(v.Properties) > 0 {
		out := map[string]any{}
		for name, p := range v.Properties {
			if ex := exampleOf(p); ex != nil {
				out[name] = ex
			}
		}
		for _, name := range v.Required { // as Swagger UI fills them
			if _, ok := out[name]; !ok {
				out[name] = placeholder(v.Properties[name])
			}
		}
		return out
	}
	if v.Type.Is(openapi3.TypeArray) {
		if ex := exampleOf(v.Items); ex != nil {
			return []any{ex}
		}
	}
	return nil
}

// TestEveryExampleMatchesItsSchema: the example of every schema (its own,
// or composed from its properties'), and every property's own example,
// is valid against that schema: no example shows a value the document
// itself forbids (an enum it leaves out, two fields of a oneOf, a band
// table that does not start at 0).
func TestEveryExampleMatchesItsSchema(t *testing.T) {
	doc := loadOpenAPI(t)
	names := make([]string, 0, len(doc.Components.Schemas))
	for name := range doc.Components.Schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := doc.Components.Schemas[name]
		t.Run(name, func(t *testing.T) {
			if ex := exampleOf(s); ex != nil {
				if err := s.Value.VisitJSON(ex); err != nil {
					t.Errorf("example %s: %s", jsonOf(ex), schemaError(err))
				}
			}
			for prop, p := range s.Value.Properties {
				if p.Value != nil && p.Value.Example != nil {
					if err := p.Value.VisitJSON(p.Value.Example); err != nil {
						t.Errorf("%s example %s: %s", prop, jsonOf(p.Value.Example), schemaError(err))
					}
				}
			}
		})
	}
}

// requestExample is the example body of an operation, with fields set
// (the fixture's ids, which an example cannot know) replaced.
func requestExample(t *testing.T, doc *openapi3.T, method, path string, set map[string]any) map[string]any {
	t.Helper()
	op := doc.Paths.Value(path).GetOperation(method)
	if op == nil || op.RequestBody == nil {
		t.Fatalf("%s %s has no request body", method, path)
	}
	ex, ok := exampleOf(op.RequestBody.Value.Content["application/json"].Schema).(map[string]any)
	if !ok {
		t.Fatalf("%s %s: no example", method, path)
	}
	// A copy: examples are the document's.
	b, _ := json.Marshal(ex)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	for k, v := range set {
		if _, ok := v.(omit); ok {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// placeholder is what Swagger UI shows for a required property without an
// example: the first enum value, or a value of its type.
func placeholder(s *openapi3.SchemaRef) any {
	if s == nil || s.Value == nil {
		return nil
	}
	v := s.Value
	switch {
	case len(v.Enum) > 0:
		return v.Enum[0]
	case v.Type.Is(openapi3.TypeString) && v.Format == "date-time":
		return "2026-03-01T12:00:00Z"
	case v.Type.Is(openapi3.TypeString):
		return "string"
	case v.Type.Is(openapi3.TypeInteger), v.Type.Is(openapi3.TypeNumber):
		if v.Min != nil {
			return *v.Min
		}
		return 0.0
	case v.Type.Is(openapi3.TypeBoolean):
		return true
	case v.Type.Is(openapi3.TypeArray):
		return []any{}
	}
	if ex := exampleOf(s); ex != nil {
		return ex
	}
	return map[string]any{}
}

// schemaError is the first line of a validation error (kin-openapi adds
// the whole schema).
func schemaError(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\nSchema:")
	return msg
}

// omit, as a value of requestExample's set, leaves the field out.
type omit struct{}
