package tourney

import (
	"testing"

	"github.com/burraco/burraco/domain/vp"
)

// TestAbandonedTeamMatchShowsTheCappedVPOnEveryTable: a team that leaves a
// match it leads 2400–0 (20–0 by the table) keeps RULES §10's 6 VP; the
// match, both its tables' results and the standings all say 6–0.
func TestAbandonedTeamMatchShowsTheCappedVPOnEveryTable(t *testing.T) {
	team := vp.ThreeDeal() // stands in for the organiser's team table
	su := pairsSetup(RoundRobin, 3, 3)
	su.Kind, su.VPTable, su.TeamPairs = KindTeams, &team, DefaultTeamPairs
	h := newHarness(t, su)
	h.register(4)
	h.do(Start{}, referee)
	h.do(DrawRound{Round: 1}, referee)
	h.do(StartRound{Round: 1}, referee)
	rv := mustRound(t, h, 1)
	for d := 1; d <= 2; d++ {
		h.playDeal(1, 1, deal(d, 600, 0))
		h.playDeal(1, 2, deal(d, 600, 0))
	}
	leaver := rv.Tables[0].NS
	h.do(Ruling{Round: 1, Table: 1, Version: h.version(1, 1), Kind: RulingAbandonment, Entry: leaver, Reason: "left"}, referee)
	rv = mustRound(t, h, 1)
	if m := rv.Matches[0]; m.A != leaver || m.VPA != 6 || m.VPB != 0 || m.Left != leaver {
		t.Fatalf("match 1: %+v, want the leaver %d at 6–0", m, leaver)
	}
	for _, tv := range rv.Tables[:2] {
		if tv.Result.VPNS != 6 || tv.Result.VPEW != 0 {
			t.Errorf("table %d: %+v, want 6–0", tv.Number, tv.Result)
		}
	}
	if l := row(t, h.standings(), leaver).Lines[0]; l.VPFor != 6 || !l.Left {
		t.Errorf("the leaver's line: %+v", l)
	}
	h.checkReplay()
}
