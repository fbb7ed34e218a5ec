package main

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// Examples of whole schemas, where the examples of their properties would
// combine into something the server refuses: options that do not apply to
// the example's rule set (fibur), a band table that does not cover every
// difference, a member named by both user_id and email. A schema's own
// example is what Swagger UI shows; TestEveryRequestExampleSucceeds (api)
// sends them.
var schemaExamples = map[string]any{
	// fibur's options (RULES §11): the others apply to other rule sets.
	"TableOptionsInput": map[string]any{"semi_clean": true, "semi_clean_set": "exactly8", "pot_penalty_if_neither": true,
		"closing_discard": "no_wild", "direction": "clockwise", "target": 2005, "vulnerability": false, "jokers": true, "joker_points": 30},
	"TableOptions": map[string]any{"semi_clean": true, "semi_clean_set": "exactly8", "pot_penalty_if_neither": true,
		"closing_discard": "no_wild", "direction": "clockwise", "target": 2005, "vulnerability": false, "jokers": true, "joker_points": 30},
	"MemberAddRequest": map[string]any{"user_id": 42, "role": "member"},
	// RULES §10's table for 3 deals: from 0, contiguous, the last open.
	"VPTable": map[string]any{"name": "3-deal", "sum": 20, "bands": []any{
		band(0, 50, 10), band(55, 150, 11), band(155, 250, 12), band(255, 350, 13), band(355, 500, 14), band(505, 650, 15),
		band(655, 800, 16), band(805, 1000, 17), band(1005, 1250, 18), band(1255, 1500, 19),
		map[string]any{"from": 1505, "winner": 20, "loser": 0}}},
	"TournamentForbiddenRequest": map[string]any{"pairs": []any{[]any{4, 9}}, "reason": "same family"},
	// One side closes (the example of TournamentParts alone shows a
	// closing: both sides would close).
	"TournamentDealInput":      map[string]any{"number": 1, "ns": closer, "ew": other},
	"TournamentDealCorrection": map[string]any{"number": 1, "ns": closer, "ew": other},
	// A late arrival forfeits deals; only a time_out carries a deal.
	"TournamentRulingRequest": map[string]any{"kind": "late_arrival", "entry": 5, "deals": 1,
		"reason": "arrived 20 minutes late", "version": 52},
	// A pairs event: ns and ew (n, s, e and w are an individual event's).
	"TournamentPairingTable": map[string]any{"number": 1, "ns": 3, "ew": 8},
	"TournamentPairingsRequest": map[string]any{"tables": []any{map[string]any{"number": 1, "ns": 3, "ew": 8},
		map[string]any{"number": 2, "ns": 1, "ew": 5}}, "reason": "pair 4 and 9 are family"},
}

var (
	closer = map[string]any{"cards": 345, "burraco": 300, "closing": 100, "hand": 0, "pot": 0, "total": 745}
	other  = map[string]any{"cards": 120, "burraco": 0, "closing": 0, "hand": 40, "pot": 0, "total": 80}
)

func band(from, to, winner int) map[string]any {
	return map[string]any{"from": from, "to": to, "winner": winner, "loser": 20 - winner}
}

// wholeExamples sets schemaExamples.
func wholeExamples(doc *openapi3.T) error {
	for name, ex := range schemaExamples {
		s := doc.Components.Schemas[name]
		if s == nil || s.Value == nil {
			return fmt.Errorf("schemaExamples: no schema %s", name)
		}
		s.Value.Example = ex
	}
	return nil
}
