package tourney

import (
	"testing"
)

// lowerWins is a score function in which the entry with the lower id wins
// every table, by more each round, so that the standings are known: after
// rounds 1–2, 3–4 and 1–3, 2–4 they are 1, 2, 3, 4.
func lowerWins(round int, tv TableView, d int) DealInput {
	win, lose := 200+100*round, 100
	if tv.NS > tv.EW {
		win, lose = lose, win
	}
	return deal(d, win, lose)
}

// rematches counts the tables of round n whose entries met before.
func rematches(h *harness, n int) int {
	c := 0
	for _, tv := range mustRound(h.t.(*testing.T), h, n).Tables {
		for _, r := range h.s.Rounds()[:n-1] {
			for _, old := range r.Tables {
				if old.NS == tv.NS && old.EW == tv.EW || old.NS == tv.EW && old.EW == tv.NS {
					c++
				}
			}
		}
	}
	return c
}

// TestModifiedDanishAvoidRepeatOpponentsSettingDecidesRematches: four
// entries, the lower id winning every table. Round 1 is 1–2, 3–4; round 2 cannot
// repeat it; round 3 then has only rematches or fresh opponents. By RULES
// §10 (the default) round 3 pairs by standings, an older rematch included,
// and the last round is pure Danish; with avoid_repeat_opponents it takes
// the fresh opponents. Each round says which rule drew it.
func TestModifiedDanishAvoidRepeatOpponentsSettingDecidesRematches(t *testing.T) {
	tests := []struct {
		name      string
		rounds    int
		avoid     bool
		rematches int
		rules     []string
	}{
		{"RulesOlderRematchAllowed", 4, false, 2, []string{RuleModified, RuleModified, RuleModified}},
		{"RulesLastRoundPureDanish", 3, false, 2, []string{RuleModified, RuleModified, RuleModifiedLast}},
		{"AvoidRepeatsFreshOpponents", 4, true, 0, []string{RuleModifiedAvoid, RuleModifiedAvoid, RuleModifiedAvoid}},
		{"AvoidRepeatsInTheLastRound", 3, true, 0, []string{RuleModifiedAvoid, RuleModifiedAvoid, RuleModifiedAvoid}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			su := pairsSetup(ModifiedDanish, tc.rounds, 3)
			su.AvoidRepeatOpponents = tc.avoid
			h := newHarness(t, su)
			h.register(4)
			h.do(Start{}, director)
			h.playRound(1, lowerWins)
			h.playRound(2, lowerWins)
			h.do(DrawRound{Round: 3}, referee)
			if got := rematches(h, 3); got != tc.rematches {
				t.Fatalf("round 3 has %d rematches, want %d: %+v", got, tc.rematches, mustRound(t, h, 3).Tables)
			}
			for i, want := range tc.rules {
				if got := mustRound(t, h, i+1).Rule; got != want {
					t.Fatalf("round %d drawn by %q, want %q", i+1, got, want)
				}
			}
			h.checkReplay()
		})
	}
}

// TestCorrectionRedrawShowsInTheRoundView: a correction that draws the
// published next round again says so in that round's view (when, why,
// which table's correction), not only in the audit trail; a round never
// redrawn says nothing.
func TestCorrectionRedrawShowsInTheRoundView(t *testing.T) {
	h := newHarness(t, pairsSetup(Danish, 3, 3))
	h.register(4)
	h.do(Start{}, director)
	h.playRound(1, lowerWins)
	h.do(DrawRound{Round: 2}, referee)
	if rv := mustRound(t, h, 2); rv.Redraw != nil || rv.Draws != 1 || rv.Rule != RuleDanish {
		t.Fatalf("a round drawn once: redraw %+v draws %d rule %q", rv.Redraw, rv.Draws, rv.Rule)
	}
	e := h.do(CorrectScore{Round: 1, Table: 1, Version: h.version(1, 1), Deal: deal(1, 100, 900), Reason: "sides swapped"}, referee)
	rv := mustRound(t, h, 2)
	want := Redraw{At: e.At, Reason: "sides swapped", Round: 1, Table: 1}
	if rv.Draws != 2 || rv.Redraw == nil || *rv.Redraw != want || rv.Rule != RuleDanish {
		t.Fatalf("redrawn round: draws %d redraw %+v rule %q; want 2 %+v", rv.Draws, rv.Redraw, rv.Rule, want)
	}
	h.checkReplay()
}
