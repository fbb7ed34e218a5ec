package tourney

import (
	"encoding/json"
	"testing"
)

func TestCloneLeavesTheOriginalAsItWas(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 2, 3))
	h.register(8)
	h.do(Start{}, referee)
	h.playRound(1, varied)
	before, err := json.Marshal(h.s)
	if err != nil {
		t.Fatal(err)
	}
	orig := h.s
	h.s = orig.Clone()
	h.playRound(2, varied) // entries, confirmations, a close: every kind of change
	h.do(Finish{}, director)
	after, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Fatal("playing on the clone changed the original")
	}
	if orig.Seq() == h.s.Seq() || h.s.Status() != StatusFinished {
		t.Fatalf("clone at %d (%s), original at %d", h.s.Seq(), h.s.Status(), orig.Seq())
	}
}
