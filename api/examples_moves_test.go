package api_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/engine/conformance"
)

// moveExampleStarts is, for each move example of openapi.yaml (by kind and
// rule set), a position of that rule set where seat 0 may play it, in the
// conformance cases' notation, and the moves seat 0 plays first.
var moveExampleStarts = map[string]struct{ start, before string }{
	"draw fibur": {start: `{"turn":0,"phase":"take","hands":[["KS","4C"],["3H","5S"]],"stock":["8C","7S","TS","JS","QS"],
		"discard":["9D"],"pots":[["4H","5S"],["TC","TH"]],"pot_taken":[false,false],"melds":[[],[]]}`},
	"pickup fibur": {start: `{"turn":0,"phase":"take","hands":[["KS","4C"],["3H","5S"]],"stock":["8C","7S","TS","JS","QS"],
		"discard":["3C","JS"],"pots":[["4H","5S"],["TC","TH"]],"pot_taken":[false,false],"melds":[[],[]]}`},
	"pickup fechado": {start: `{"turn":0,"phase":"take","hands":[["7H","8H","KS","4C"],["3H","5S"]],"stock":["8C","7S","TS","JS","QS"],
		"discard":["3C","9H"],"pots":[["4H","5S"],["TC","TH"]],"pot_taken":[false,false],"melds":[[],[]]}`},
	"meld fibur": {start: `{"turn":0,"phase":"play","hands":[["5H","6H","JK","KS","4C"],["3H","5S"]],"stock":["8C","7S","TS","JS","QS"],
		"discard":["9D"],"pots":[["4H","5S"],["TC","TH"]],"pot_taken":[false,false],"melds":[[],[]]}`},
	"attach fibur": {start: `{"turn":0,"phase":"play","hands":[["8H","KS","4C"],["3H","5S"]],"stock":["8C","7S","TS","JS","QS"],
		"discard":["9D"],"pots":[["4H","5S"],["TC","TH"]],"pot_taken":[false,false],"melds":[[["5H","6H","7H"]],[]]}`},
	"discard fibur": {start: `{"turn":0,"phase":"play","hands":[["KS","4C"],["3H","5S"]],"stock":["8C","7S","TS","JS","QS"],
		"discard":["9D"],"pots":[["4H","5S"],["TC","TH"]],"pot_taken":[false,false],"melds":[[],[]]}`},
	"redraw aberto": {start: `{"turn":0,"phase":"take","first_turn":true,"hands":[["5C","6C","KD"],["4S","8H"]],
		"stock":["QH","7D","AS"],"discard":[],"pots":[["4H","5S"],["TC","TH"]],"pot_taken":[false,false],"melds":[[],[]]}`,
		before: `{"seat":0,"move":"draw"}`},
}

// TestEveryMoveExampleIsLegalInItsRuleSet (issue 29): each example of
// each move kind in openapi.yaml names its rule set, and the engine
// accepts it there, from a position of that rule set (a fechado pickup
// example shown as a move of every rule set was not_allowed in the
// others); an example without such a position fails, so that a new one
// is played too.
func TestEveryMoveExampleIsLegalInItsRuleSet(t *testing.T) {
	t.Parallel()
	played := map[string]bool{}
	for _, k := range api.MoveKinds() {
		if len(k.Examples) == 0 {
			t.Errorf("%s has no example", k.Kind)
		}
		for _, ex := range k.Examples {
			key := k.Kind + " " + ex.Rules
			t.Run(key, func(t *testing.T) {
				s, ok := moveExampleStarts[key]
				if !ok {
					t.Fatalf("no position of %s to play the %s example %s from: add one to moveExampleStarts", ex.Rules, k.Kind, ex.JSON)
				}
				played[key] = true
				var move map[string]any
				if err := json.Unmarshal([]byte(ex.JSON), &move); err != nil || move["move"] != k.Kind {
					t.Fatalf("the example %s is not a %s move", ex.JSON, k.Kind)
				}
				move["seat"] = 0
				step, _ := json.Marshal(move)
				steps := string(step)
				if s.before != "" {
					steps = s.before + "," + steps
				}
				c, err := conformance.Parse(fmt.Appendf(nil, `{"name":%q,"rules":%q,"options":{"direction":"clockwise"},"players":2,
					"start":%s,"steps":[%s],"expect":{}}`, key, ex.Rules, s.start, steps))
				if err != nil {
					t.Fatal(err)
				}
				if err := conformance.Run(c); err != nil {
					t.Errorf("the %s example %s, in %s: %v", k.Kind, ex.JSON, ex.Rules, err)
				}
			})
		}
	}
	for key := range moveExampleStarts {
		if !played[key] {
			t.Errorf("moveExampleStarts has %q, which is no example", key)
		}
	}
}
