package engine_test

import (
	"encoding/json"
	"fmt"

	"github.com/burraco/burraco/engine"
)

// A short end of a fibur deal: team 0 has its pot; seat 0 attaches a king
// and a joker (making a semi-clean burraco), seat 1 tries to play out of
// turn (refused, nothing changes), then seat 0 closes on 9D.
func Example() {
	g, err := engine.ParsePosition([]byte(`{
	  "rules": "fibur", "players": 4, "turn": 0, "phase": "play",
	  "hands": [["KS","JK","9D"], ["AS","2D"], ["3D","8S"], ["5H"]],
	  "stock": ["8C","7C","TS"], "discard": ["4H"],
	  "pots": [["KD","KH","QS"]], "pot_taken": [true, false],
	  "melds": [[["4C","5C","6C","7C","8C","9C","TC"], ["KS","KH","KC"]], [["QD","QC","QH"]]]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Apply(0, engine.AttachMove(1, engine.MustParseCard("KS"))))
	fmt.Println(g.Apply(0, engine.AttachMove(0, engine.MustParseCard("JK"))))
	err = g.Apply(1, engine.DiscardMove(engine.MustParseCard("AS")))
	fmt.Println(engine.ErrorCode(err))
	err = g.Apply(0, engine.DiscardMove(engine.MustParseCard("9D")))
	fmt.Println(err, g.Over(), g.EndReason())
	for team, s := range g.Score() {
		b, _ := json.Marshal(s)
		fmt.Println(team, string(b))
	}
	// Output:
	// <nil>
	// <nil>
	// not_your_turn
	// <nil> true closed
	// 0 {"cards":120,"bonus":150,"closing":100,"hand":-15,"pot":0,"total":355}
	// 1 {"cards":30,"bonus":0,"closing":0,"hand":-40,"pot":-100,"total":-110}
}

// Moves are read and written in the notation of the conformance cases.
func ExampleParseMove() {
	m, err := engine.ParseMove(`{"move":"attach","meld":0,"cards":["7C","TC"]}`)
	fmt.Println(m.Kind, m.Meld, engine.FormatCards(m.Cards), err)
	// Output: attach 0 [7C TC] <nil>
}
