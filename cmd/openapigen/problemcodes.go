package main

import (
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/api"
)

// problemCodes appends to the description of Problem.code every code a
// problem may carry, by HTTP status, from the server's own tables
// (api.ProblemCodes): the document cannot list a code the server does not
// know, nor miss one it sends, the engine's rule codes among them.
func problemCodes(doc *openapi3.T) error {
	schema := doc.Components.Schemas["Problem"]
	if schema == nil || schema.Value == nil || schema.Value.Properties["code"] == nil || schema.Value.Properties["code"].Value == nil {
		return fmt.Errorf("the Problem schema has no code property")
	}
	code := schema.Value.Properties["code"].Value
	code.Description = strings.TrimSpace(code.Description) + "\n\n" + problemCodeList(api.ProblemCodes())
	return nil
}

// problemCodeList writes the codes as a Markdown list, one item per status
// (the engine's rule codes an item of their own).
func problemCodeList(codes []api.ProblemCode) string {
	type group struct {
		status int
		rule   bool
	}
	var order []group
	byGroup := map[group][]string{}
	for _, c := range codes {
		g := group{c.Status, c.Rule}
		if byGroup[g] == nil {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], c.Code)
	}
	var b strings.Builder
	b.WriteString("Codes by HTTP status:\n")
	for _, g := range order {
		label := fmt.Sprint(g.status)
		if g.rule {
			label += " (the engine's rule codes: a move the rules refuse)"
		}
		fmt.Fprintf(&b, "\n- %s: %s", label, strings.Join(byGroup[g], ", "))
	}
	return b.String()
}
