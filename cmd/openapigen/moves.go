package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/api"
)

// cardPattern is a card in notation as the server writes it (it also
// reads "10" for T and lower case).
const cardPattern = `^([A2-9TJQK][SHDC]|10[SHDC]|JK)$`

// moveSchemas describes the move notation kind by kind (api.MoveKinds):
// one schema per kind, MoveNotation as oneOf them (told apart by "move"),
// and the schemas that carry a move beside other fields (MoveRequest,
// RecordMove) as allOf MoveNotation and those fields. Swagger 2.0, and so
// swag, has no oneOf: swag gives a flat object of every field.
func moveSchemas(doc *openapi3.T) error {
	schemas := doc.Components.Schemas
	notation := schemas["MoveNotation"]
	if notation == nil || notation.Value == nil {
		return fmt.Errorf("no MoveNotation schema")
	}
	moveFields := map[string]bool{}
	for name := range notation.Value.Properties {
		moveFields[name] = true
	}
	// No discriminator object: with one, generators read allOf [MoveNotation,
	// …] (MoveRequest, RecordMove) as a subtype named by its schema. Each
	// alternative's "move" is a one-value enum, which tells them apart.
	oneOf := &openapi3.Schema{Description: "A move in the engine's JSON notation (as in the conformance cases and deal records), by its kind (\"move\"). Cards are in the notation of RULES §1: rank A 2..9 T J Q K, suit S H D C, JK the joker."}
	for _, k := range api.MoveKinds() {
		s, err := moveKindSchema(k)
		if err != nil {
			return fmt.Errorf("%s: %w", k.Schema, err)
		}
		schemas[k.Schema] = &openapi3.SchemaRef{Value: s}
		ref := "#/components/schemas/" + k.Schema
		oneOf.OneOf = append(oneOf.OneOf, &openapi3.SchemaRef{Ref: ref})
	}
	schemas["MoveNotation"] = &openapi3.SchemaRef{Value: oneOf}
	for _, name := range []string{"MoveRequest", "RecordMove"} {
		ref := schemas[name]
		if ref == nil || ref.Value == nil {
			return fmt.Errorf("no %s schema", name)
		}
		rest := &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeObject}, Properties: openapi3.Schemas{}}
		for prop, p := range ref.Value.Properties {
			if !moveFields[prop] {
				rest.Properties[prop] = p
			}
		}
		for _, req := range ref.Value.Required {
			if !moveFields[req] {
				rest.Required = append(rest.Required, req)
			}
		}
		ref.Value = &openapi3.Schema{Description: ref.Value.Description,
			AllOf: openapi3.SchemaRefs{{Ref: "#/components/schemas/MoveNotation"}, {Value: rest}}}
	}
	return nil
}

// moveKindSchema is the schema of one move kind, from its Go type's fields
// (json name; omitempty for optional; doc and example tags).
func moveKindSchema(k api.MoveKindDoc) (*openapi3.Schema, error) {
	s := &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeObject}, Title: k.Kind, Description: k.Summary + " " + examplesText(k),
		Properties: openapi3.Schemas{}}
	if len(k.Examples) == 0 {
		return nil, fmt.Errorf("no example")
	}
	if err := json.Unmarshal([]byte(k.Examples[0].JSON), &s.Example); err != nil {
		return nil, fmt.Errorf("example: %w", err)
	}
	t := reflect.TypeOf(k.Type)
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		var p *openapi3.Schema
		if name == "move" {
			p = &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}, Enum: []any{k.Kind}}
		} else {
			var err error
			if p, err = fieldSchema(f.Type, f.Tag.Get("doc")); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		if ex := f.Tag.Get("example"); ex != "" && name != "move" {
			if err := json.Unmarshal([]byte(ex), &p.Example); err != nil {
				p.Example = ex // a bare string
			}
		}
		s.Properties[name] = &openapi3.SchemaRef{Value: p}
		if !slices.Contains(strings.Split(opts, ","), "omitempty") {
			s.Required = append(s.Required, name)
		}
	}
	return s, nil
}

// fieldSchema is the schema of a field of a move: a card (string), a list
// of cards, a list of card lists, an index or a flag.
func fieldSchema(t reflect.Type, doc string) (*openapi3.Schema, error) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	card := func() *openapi3.Schema {
		return &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}, Pattern: cardPattern}
	}
	var s *openapi3.Schema
	switch {
	case t.Kind() == reflect.String:
		s = card()
	case t.Kind() == reflect.Int:
		s = &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeInteger}, Min: openapi3.Ptr(0.0)}
	case t.Kind() == reflect.Bool:
		s = &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeBoolean}}
	case t == reflect.TypeOf([]string{}):
		s = &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeArray}, Items: &openapi3.SchemaRef{Value: card()}}
	case t == reflect.TypeOf([][]string{}):
		s = &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeArray}, Items: &openapi3.SchemaRef{Value: &openapi3.Schema{
			Type: &openapi3.Types{openapi3.TypeArray}, Items: &openapi3.SchemaRef{Value: card()}}}}
	default:
		return nil, fmt.Errorf("no schema for %s", t)
	}
	s.Description = doc
	return s, nil
}

// examplesText names the rule set of each example of a move kind (a move
// legal in one may be refused in another), the schema's own first.
func examplesText(k api.MoveKindDoc) string {
	parts := make([]string, len(k.Examples))
	for i, ex := range k.Examples {
		parts[i] = fmt.Sprintf("in %s, `%s`", ex.Rules, ex.JSON)
	}
	if len(parts) == 1 {
		return "The example is a move of " + k.Examples[0].Rules + "."
	}
	return "Examples: " + strings.Join(parts, "; ") + " (the first is the schema's example)."
}
