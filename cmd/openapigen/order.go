package main

import (
	"slices"

	"gopkg.in/yaml.v3"
)

// The order of the keys of each kind of OpenAPI object, as the
// specification lists them and readers expect: a document opens with
// openapi and info, not with components; an operation with its tags and
// summary, not its description. Keys not listed follow in alphabetical
// order, as do the keys of maps (paths, responses, schemas, properties),
// so that the output is deterministic and diffs stay small.
var (
	rootOrder      = []string{"openapi", "info", "servers", "tags", "security", "paths", "components", "externalDocs"}
	infoOrder      = []string{"title", "description", "termsOfService", "contact", "license", "version"}
	serverOrder    = []string{"url", "description", "variables"}
	tagOrder       = []string{"name", "description", "externalDocs"}
	pathItemOrder  = []string{"summary", "description", "servers", "parameters", "get", "post", "put", "patch", "delete", "options", "head", "trace"}
	operationOrder = []string{"tags", "summary", "description", "operationId", "parameters", "requestBody", "responses", "callbacks", "deprecated", "security", "servers"}
	parameterOrder = []string{"name", "in", "description", "required", "deprecated", "schema", "example", "examples"}
	bodyOrder      = []string{"description", "required", "content"}
	responseOrder  = []string{"description", "headers", "content", "links"}
	headerOrder    = []string{"description", "required", "schema"}
	mediaTypeOrder = []string{"schema", "example", "examples", "encoding"}
	schemaOrder    = []string{"$ref", "type", "format", "title", "description"}
	httpMethods    = []string{"get", "post", "put", "patch", "delete", "options", "head", "trace"}
)

// orderDocument puts the keys of an OpenAPI 3 document, whose mappings
// are sorted, in the conventional order.
func orderDocument(doc *yaml.Node) {
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	orderKeys(root, rootOrder)
	orderKeys(field(root, "info"), infoOrder)
	eachItem(field(root, "servers"), func(n *yaml.Node) { orderKeys(n, serverOrder) })
	eachItem(field(root, "tags"), func(n *yaml.Node) { orderKeys(n, tagOrder) })
	eachValue(field(root, "paths"), nil, orderPathItem)
	components := field(root, "components")
	eachValue(field(components, "schemas"), nil, orderSchema)
	eachValue(field(components, "parameters"), nil, orderParameter)
	eachValue(field(components, "requestBodies"), nil, orderBody)
	eachValue(field(components, "responses"), nil, orderResponse)
	eachValue(field(components, "headers"), nil, orderHeader)
}

func orderPathItem(item *yaml.Node) {
	orderKeys(item, pathItemOrder)
	eachItem(field(item, "parameters"), orderParameter)
	eachValue(item, httpMethods, orderOperation)
}

func orderOperation(op *yaml.Node) {
	orderKeys(op, operationOrder)
	eachItem(field(op, "parameters"), orderParameter)
	orderBody(field(op, "requestBody"))
	eachValue(field(op, "responses"), nil, orderResponse)
}

func orderParameter(p *yaml.Node) {
	orderKeys(p, parameterOrder)
	orderSchema(field(p, "schema"))
}

func orderBody(b *yaml.Node) {
	orderKeys(b, bodyOrder)
	eachValue(field(b, "content"), nil, orderMediaType)
}

func orderResponse(r *yaml.Node) {
	orderKeys(r, responseOrder)
	eachValue(field(r, "headers"), nil, orderHeader)
	eachValue(field(r, "content"), nil, orderMediaType)
}

func orderHeader(h *yaml.Node) {
	orderKeys(h, headerOrder)
	orderSchema(field(h, "schema"))
}

func orderMediaType(m *yaml.Node) {
	orderKeys(m, mediaTypeOrder)
	orderSchema(field(m, "schema"))
}

// orderSchema orders a schema and the schemas inside it.
func orderSchema(s *yaml.Node) {
	if s == nil {
		return
	}
	orderKeys(s, schemaOrder)
	eachValue(field(s, "properties"), nil, orderSchema)
	orderSchema(field(s, "items"))
	orderSchema(field(s, "additionalProperties"))
	orderSchema(field(s, "not"))
	for _, k := range []string{"allOf", "oneOf", "anyOf"} {
		eachItem(field(s, k), orderSchema)
	}
}

// orderKeys moves the keys of mapping m named in order to its front, in
// that order; the others keep their relative order. A nil or non-mapping
// node is left alone.
func orderKeys(m *yaml.Node, order []string) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	rank := func(key string) int {
		if i := slices.Index(order, key); i >= 0 {
			return i
		}
		return len(order)
	}
	pairs := make([][2]*yaml.Node, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		pairs = append(pairs, [2]*yaml.Node{m.Content[i], m.Content[i+1]})
	}
	slices.SortStableFunc(pairs, func(a, b [2]*yaml.Node) int { return rank(a[0].Value) - rank(b[0].Value) })
	for i, p := range pairs {
		m.Content[2*i], m.Content[2*i+1] = p[0], p[1]
	}
}

// field is the value of key in mapping m, or nil.
func field(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// eachValue calls f on the values of mapping m: all of them, or those of
// the keys listed in only.
func eachValue(m *yaml.Node, only []string, f func(*yaml.Node)) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if only == nil || slices.Contains(only, m.Content[i].Value) {
			f(m.Content[i+1])
		}
	}
}

// eachItem calls f on the items of sequence s.
func eachItem(s *yaml.Node, f func(*yaml.Node)) {
	if s == nil || s.Kind != yaml.SequenceNode {
		return
	}
	for _, n := range s.Content {
		f(n)
	}
}
