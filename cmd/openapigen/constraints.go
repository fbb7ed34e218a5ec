package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// The constraints every request shares, written here once rather than on
// each handler, as the api package enforces them once (pathID, pathInt,
// decodeObject). TestSchemaConstraintsAreEnforced (api) sends requests
// that break each one and requires the refusal.

// pathParameters declares every integer path parameter a positive integer
// (pathID and pathInt refuse 0, negatives and what does not fit), the ids
// among them (named …ID) 64-bit.
func pathParameters(doc *openapi3.T) {
	one := 1.0
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				queryParameter(p.Value)
				s := p.Value.Schema
				if p.Value.In != "path" || s == nil || s.Value == nil || !s.Value.Type.Is(openapi3.TypeInteger) {
					continue
				}
				s.Value.Min = &one
				if strings.HasSuffix(p.Value.Name, "ID") {
					s.Value.Format = "int64"
				} else {
					s.Value.Format = "int32"
				}
			}
		}
	}
}

// closedBodies declares that request bodies take no other fields
// (additionalProperties: false), nested objects included: decodeObject
// refuses unknown fields at every depth. A schema combined with others
// (MoveRequest: allOf the move and its version) cannot say so in OpenAPI
// 3.0 and says it in its description instead.
func closedBodies(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var closeSchema func(ref *openapi3.SchemaRef)
	closeSchema = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		for _, sub := range append(append(append([]*openapi3.SchemaRef{}, s.AllOf...), s.OneOf...), s.AnyOf...) {
			closeSchema(sub)
		}
		if s.Items != nil {
			closeSchema(s.Items)
		}
		if !s.Type.Is(openapi3.TypeObject) || len(s.Properties) == 0 {
			return
		}
		for _, p := range s.Properties {
			closeSchema(p)
		}
		if !combinesProperties(s) && s.AdditionalProperties.Schema == nil {
			no := false
			s.AdditionalProperties.Has = &no
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			for _, mt := range op.RequestBody.Value.Content {
				closeSchema(mt.Schema)
			}
		}
	}
}

// deprecatedProperties marks the properties whose description starts with
// "Deprecated:" (a field kept under its old name for one release).
func deprecatedProperties(doc *openapi3.T) {
	names := make([]string, 0, len(doc.Components.Schemas))
	for name := range doc.Components.Schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := doc.Components.Schemas[name].Value
		if s == nil {
			continue
		}
		for _, p := range s.Properties {
			if p.Value != nil && strings.HasPrefix(p.Value.Description, "Deprecated:") {
				p.Value.Deprecated = true
			}
		}
	}
}

// shapes writes the constraints of particular requests that their Go
// types cannot carry into swag: a forbidden pair is two entry ids, and a
// request holds at most tourney.MaxForbiddenPairs of them; a
// member is added by exactly one of user_id and email (oneOf, as
// MemberAddRequest.validate checks); ids given in a body are positive.
func shapes(doc *openapi3.T) error {
	prop := func(schema, name string) (*openapi3.Schema, error) {
		s := doc.Components.Schemas[schema]
		if s == nil || s.Value == nil || s.Value.Properties[name] == nil || s.Value.Properties[name].Value == nil {
			return nil, fmt.Errorf("shapes: no property %s.%s", schema, name)
		}
		return s.Value.Properties[name].Value, nil
	}
	pairs, err := prop("TournamentForbiddenRequest", "pairs")
	if err != nil {
		return err
	}
	pairs.Items.Value.MinItems = 2
	two := uint64(2)
	pairs.Items.Value.MaxItems = &two
	most := uint64(tourney.MaxForbiddenPairs)
	pairs.MaxItems = &most
	one := 1.0
	for _, p := range []string{"MemberAddRequest.user_id", "PlayerCreateRequest.user_id", "PlayerCreateRequest.club_id", "PlayerUpdateRequest.club_id"} {
		schema, name, _ := strings.Cut(p, ".")
		s, err := prop(schema, name)
		if err != nil {
			return err
		}
		s.Min = &one
		s.Format = "int64"
	}
	member := doc.Components.Schemas["MemberAddRequest"].Value
	member.OneOf = openapi3.SchemaRefs{
		{Value: &openapi3.Schema{Required: []string{"user_id"}}},
		{Value: &openapi3.Schema{Required: []string{"email"}}},
	}
	return nil
}

// combinesProperties reports whether s takes properties from the schemas
// it combines (allOf, or a oneOf or anyOf of objects), which a closed s
// would refuse; a oneOf that only says which fields are required (MemberAddRequest)
// does not.
func combinesProperties(s *openapi3.Schema) bool {
	if len(s.AllOf) > 0 {
		return true
	}
	for _, sub := range append(append(openapi3.SchemaRefs{}, s.OneOf...), s.AnyOf...) {
		if sub.Ref != "" || sub.Value == nil || len(sub.Value.Properties) > 0 {
			return true
		}
	}
	return false
}

// queryParameter writes what the query helpers check: ids (club_id, by
// query.int64) positive and 64-bit, versions and cursors (since, after)
// 64-bit, and the search text q as domain.checkText takes it.
func queryParameter(p *openapi3.Parameter) {
	if p.In != "query" || p.Schema == nil || p.Schema.Value == nil {
		return
	}
	s := p.Schema.Value
	switch p.Name {
	case "club_id":
		one := 1.0
		s.Min, s.Format = &one, "int64"
	case "since", "after":
		s.Format = "int64"
	case "q":
		m := uint64(domain.MaxQueryLength)
		s.MaxLength, s.Pattern = &m, textPattern
	}
}
