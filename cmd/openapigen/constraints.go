package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/internal/strictjson"
)

// The constraints every request shares, written here once rather than on
// each handler, as the api package enforces them once (pathID, pathInt,
// decodeObject). TestSchemaConstraintsAreEnforced (api) sends requests
// that break each one and requires the refusal.

// pathParameters declares every integer path parameter a positive integer
// (pathID and pathInt refuse 0, negatives and what does not fit), the ids
// among them (named …ID) 64-bit.
//
// Its maximum is what a client can count on (2^53-1, or 2^31-1 for an
// int32), as pathID and pathInt check.
func pathParameters(doc *openapi3.T) {
	one := 1.0
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				queryParameter(p.Value)
				headerParameter(p.Value)
				s := p.Value.Schema
				if p.Value.In != "path" || s == nil || s.Value == nil || !s.Value.Type.Is(openapi3.TypeInteger) {
					continue
				}
				s.Value.Min = &one
				hi := float64(maxSafeInteger)
				if strings.HasSuffix(p.Value.Name, "ID") {
					s.Value.Format = "int64"
				} else {
					s.Value.Format, hi = "int32", maxInt32
				}
				s.Value.Max = &hi
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
// MemberAddRequest.validate checks); a player is not both moved to a club
// and out of it (not); ids given in a body are positive.
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
	// A player's PATCH moves them to club_id or out of their club
	// (clear_club: true), not both: PlayerService.Update answers 422.
	player := doc.Components.Schemas["PlayerUpdateRequest"].Value
	player.Not = &openapi3.SchemaRef{Value: &openapi3.Schema{
		Required:   []string{"club_id", "clear_club"},
		Properties: openapi3.Schemas{"club_id": {Value: &openapi3.Schema{}}, "clear_club": {Value: &openapi3.Schema{Enum: []any{true}}}},
	}}
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
	case "since", "after", "wait": // wait: any number of seconds, capped
		s.Format = "int64"
	case "q":
		m := uint64(domain.MaxQueryLength)
		s.MaxLength, s.Pattern = &m, textPattern
	}
}

// Bounds of the integers a request may send where the Go type, not a
// validator, is the limit. maxSafeInteger (2^53-1) is the largest integer
// a JSON number holds exactly in every client (a JavaScript Number), and
// below what an int64 decodes; strictjson refuses a number past it (400
// malformed_json, out_of_range), where a schema without a maximum allowed
// numbers that the decoder then called of the wrong type (issue 29).
// maxInt32 bounds the int query parameters the server parses into an int
// it then counts with (offset, deal, round).
const (
	maxSafeInteger = strictjson.MaxInteger
	maxInt32       = 1<<31 - 1
)

// integerBounds gives every integer of a request body, at any depth, a
// minimum and a maximum where it has none (±maxSafeInteger), and every
// integer query parameter a maximum (maxSafeInteger for an int64, else
// maxInt32): a value the schema allows is then one the decoder takes, and
// the domain's own rules (multiples of 5, bands contiguous, …) decide the
// rest, with 422 and the field named.
func integerBounds(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var bound func(ref *openapi3.SchemaRef)
	bound = func(ref *openapi3.SchemaRef) {
		if ref != nil && strings.HasPrefix(ref.Ref, "#/components/schemas/") {
			// What the document will say: the component as it is now (the
			// conversion's references may hold a value replaced since, as
			// moveSchemas does, or none, as the references it makes).
			ref = doc.Components.Schemas[strings.TrimPrefix(ref.Ref, "#/components/schemas/")]
		}
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		for _, sub := range append(append(append([]*openapi3.SchemaRef{}, s.AllOf...), s.OneOf...), s.AnyOf...) {
			bound(sub)
		}
		bound(s.Items)
		for _, p := range s.Properties {
			bound(p)
		}
		if !s.Type.Is(openapi3.TypeInteger) || len(s.Enum) > 0 {
			return
		}
		if s.Max == nil {
			hi := float64(maxSafeInteger)
			s.Max = &hi
		}
		if s.Min == nil {
			lo := -float64(maxSafeInteger)
			s.Min = &lo
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				s := p.Value.Schema
				if p.Value.In != "query" || s == nil || s.Value == nil || !s.Value.Type.Is(openapi3.TypeInteger) || s.Value.Max != nil {
					continue
				}
				hi := float64(maxInt32)
				if s.Value.Format == "int64" {
					hi = maxSafeInteger
				}
				s.Value.Max = &hi
			}
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			for _, mt := range op.RequestBody.Value.Content {
				bound(mt.Schema)
			}
		}
	}
}

// headerValuePattern is what a header value may hold here: printable ASCII
// and spaces. Go's HTTP server refuses a control character in a header
// (other than a tab) with a bare 400 before any handler runs, so that a
// schema allowing one promised what no problem+json can answer (issue
// 29); a byte past ASCII would reach the server in an encoding the client
// chose.
const headerValuePattern = `^[\x20-\x7E]*$`

// headerParameter writes what a request header may hold: headerValuePattern,
// and for Idempotency-Key the length the server stores
// (domain.MaxIdempotencyKeyLength; a longer one is 422).
func headerParameter(p *openapi3.Parameter) {
	if p.In != "header" || p.Schema == nil || p.Schema.Value == nil || !p.Schema.Value.Type.Is(openapi3.TypeString) {
		return
	}
	s := p.Schema.Value
	s.Pattern = headerValuePattern
	if p.Name == "Idempotency-Key" {
		m := uint64(domain.MaxIdempotencyKeyLength)
		s.MaxLength = &m
	}
}
