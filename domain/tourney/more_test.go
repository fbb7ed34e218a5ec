package tourney

import (
	"slices"
	"testing"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/vp"
)

func TestKnockoutCorrectionThatChangesTheWinner(t *testing.T) {
	h := newHarness(t, pairsSetup(Knockout, 0, 3))
	h.register(4)
	h.do(Start{}, referee)
	h.playKnockoutRound(1)
	h.do(DrawRound{Round: 2}, referee)
	final := mustRound(t, h, 2).Tables[0]
	first := mustView(t, h, 1, 1)
	if first.Result.Winner != first.NS || !(final.NS == first.NS || final.EW == first.NS) {
		t.Fatalf("round 1 winner %d, final %d–%d", first.Result.Winner, final.NS, final.EW)
	}
	// EW of table 1 really won the deal 2100–100: the final is drawn again
	// with EW in it.
	flip := deal(1, 100, 2100)
	flip.NS, flip.EW = sideParts(100, false), sideParts(2100, true)
	e := h.do(CorrectScore{Round: 1, Table: 1, Version: first.Sheet.Version, Deal: flip, Reason: "sides swapped on the sheet"}, referee)
	p, _ := DecodeEvent(e)
	if c := p.(*ScoreCorrected); !slices.Equal(c.RedrawnRounds, []int{2}) {
		t.Fatalf("redrawn %v", c.RedrawnRounds)
	}
	final = mustRound(t, h, 2).Tables[0]
	if !(final.NS == first.EW || final.EW == first.EW) || final.NS == first.NS || final.EW == first.NS {
		t.Fatalf("the final %d–%d does not hold the corrected winner %d", final.NS, final.EW, first.EW)
	}
	// Once the final is played, a correction that changes a winner is refused;
	// one that keeps it is taken.
	h.do(StartRound{Round: 2}, referee)
	h.refuse(CorrectScore{Round: 1, Table: 1, Version: h.version(1, 1), Deal: deal(1, 2100, 100), Reason: "again"}, referee, CodeKnockoutLocked)
	keep := flip
	keep.NS = sideParts(200, false)
	h.do(CorrectScore{Round: 1, Table: 1, Version: h.version(1, 1), Deal: keep, Reason: "NS had 200"}, referee)
	// A correction may not leave a closed knockout table without a winner.
	h.refuse(CorrectScore{Round: 1, Table: 2, Version: h.version(1, 2), Deal: deal(1, 1000, 1000), Reason: "tie"}, referee, CodeKnockoutTied)
	h.checkReplay()
}

func TestKnockoutRulingsDecideTheWinner(t *testing.T) {
	h := newHarness(t, pairsSetup(Knockout, 0, 3))
	h.register(4)
	h.do(Start{}, referee)
	h.do(DrawRound{Round: 1}, referee)
	h.do(StartRound{Round: 1}, referee)
	t1, t2 := mustView(t, h, 1, 1), mustView(t, h, 1, 2)
	h.playDeal(1, 1, deal(1, 500, 500))
	h.refuse(Ruling{Round: 1, Table: 1, Kind: RulingTimeOut}, referee, CodeKnockoutTied)
	h.do(Ruling{Round: 1, Table: 1, Kind: RulingAbandonment, Entry: t1.NS, Reason: "left"}, referee)
	h.do(Withdraw{Entry: t2.EW, Reason: "train"}, referee)
	if w1, w2 := mustView(t, h, 1, 1).Result.Winner, mustView(t, h, 1, 2).Result.Winner; w1 != t1.EW || w2 != t2.NS {
		t.Fatalf("winners %d %d, want %d %d", w1, w2, t1.EW, t2.NS)
	}
	h.do(CloseRound{Round: 1}, referee)
	h.do(DrawRound{Round: 2}, referee)
	if f := mustRound(t, h, 2).Tables; len(f) != 1 || !(f[0].NS == t1.EW && f[0].EW == t2.NS || f[0].NS == t2.NS && f[0].EW == t1.EW) {
		t.Fatalf("final %+v", f)
	}
	h.checkReplay()
}

func TestMitchellWithdrawalGivesTheOpponentsByes(t *testing.T) {
	h := newHarness(t, pairsSetup(Mitchell, 3, 3))
	h.register(6)
	h.do(Start{}, referee)
	h.playRound(1, varied)
	h.do(Withdraw{Entry: 2, Reason: "left"}, referee)
	rv := h.playRound(2, varied)
	if len(rv.Tables) != 2 || len(rv.Byes) != 1 {
		t.Fatalf("round 2: %d tables, byes %v", len(rv.Tables), rv.Byes)
	}
	// The NS line stays where it was.
	r1 := mustRound(t, h, 1)
	for _, tv := range rv.Tables {
		if r1.Tables[tv.Number-1].NS != tv.NS {
			t.Fatalf("table %d: NS %d, was %d", tv.Number, tv.NS, r1.Tables[tv.Number-1].NS)
		}
	}
	checkEveryEntryOncePerRound(t, h)
	h.checkReplay()
}

func TestTeamAbandonmentDecidesTheWholeMatch(t *testing.T) {
	team := vp.ThreeDeal()
	su := pairsSetup(ModifiedDanish, 2, 3)
	su.Kind, su.VPTable, su.TeamPairs = KindTeams, &team, DefaultTeamPairs
	h := newHarness(t, su)
	h.register(2)
	h.do(Start{}, referee)
	h.do(DrawRound{Round: 1}, referee)
	h.do(StartRound{Round: 1}, referee)
	h.playDeal(1, 1, deal(1, 300, 100))
	tv := mustView(t, h, 1, 1)
	h.do(Ruling{Round: 1, Table: 2, Kind: RulingAbandonment, Entry: tv.NS, Reason: "the team left"}, referee)
	for _, n := range []int{1, 2} {
		if r := mustView(t, h, 1, n).Result; r.DecidedBy != RulingAbandonment || r.Left != tv.NS {
			t.Fatalf("table %d: %+v", n, r)
		}
	}
	h.do(CloseRound{Round: 1}, referee)
	if l := row(t, h.standings(), tv.NS).Lines[0]; !l.Left || l.VPFor != 6 {
		t.Fatalf("the team that left: %+v", l)
	}
	h.checkReplay()
}

func TestIndividualWithdrawalCapsOnlyTheLeaver(t *testing.T) {
	su := pairsSetup(Random, 2, 3)
	su.Kind = KindIndividual
	h := newHarness(t, su)
	h.register(4)
	h.do(Start{}, referee)
	h.do(DrawRound{Round: 1}, referee)
	h.do(StartRound{Round: 1}, referee)
	tv := mustView(t, h, 1, 1)
	h.playDeal(1, 1, deal(1, 1600, 100)) // N–S lead by 1500: 19–1
	h.do(Withdraw{Entry: tv.N, Reason: "unwell"}, referee)
	h.do(CloseRound{Round: 1}, referee)
	st := h.standings()
	if n, s, e := row(t, st, tv.N).VP, row(t, st, tv.S).VP, row(t, st, tv.E).VP; n != 6 || s != 19 || e != 1 {
		t.Fatalf("N %d S %d E %d VP, want 6 19 1", n, s, e)
	}
	h.refuse(DrawRound{Round: 2}, referee, CodeNotEnoughEntries)
	h.checkReplay()
}

func TestForbiddenPairsNeverMeetInADanish(t *testing.T) {
	h := newHarness(t, pairsSetup(Danish, 4, 3))
	h.register(6)
	h.refuse(SetForbidden{Pairs: [][2]int64{{1, 1}}}, referee, CodeInvalidCommand)
	h.refuse(SetForbidden{Pairs: [][2]int64{{1, 2}}}, player(101), CodeRefereeOnly)
	h.do(SetForbidden{Pairs: [][2]int64{{1, 2}, {3, 4}}, Reason: "spouses"}, referee)
	h.do(Start{}, referee)
	for n := 1; n <= 4; n++ {
		h.playRound(n, varied)
	}
	if met(h, 1, 2)+met(h, 3, 4) != 0 {
		t.Fatal("a forbidden pair met")
	}
	if !slices.Equal(h.s.Forbidden(), [][2]int64{{1, 2}, {3, 4}}) {
		t.Fatalf("forbidden %v", h.s.Forbidden())
	}
	h.checkReplay()
}

func TestHistoryIsTheEntrysLines(t *testing.T) {
	h := newHarness(t, pairsSetup(RoundRobin, 3, 3))
	h.register(4)
	h.do(Start{}, referee)
	for n := 1; n <= 3; n++ {
		h.playRound(n, varied)
	}
	lines, err := h.s.History(2)
	if err != nil || len(lines) != 3 {
		t.Fatalf("history %v %v", lines, err)
	}
	for i, l := range lines {
		tv := mustRound(t, h, i+1).Tables
		for _, x := range tv {
			if x.NS == 2 && (l.Opponent != x.EW || l.MPFor != x.Result.MPNS || l.VPFor != x.Result.VPNS) ||
				x.EW == 2 && (l.Opponent != x.NS || l.MPFor != x.Result.MPEW || l.VPFor != x.Result.VPEW) {
				t.Fatalf("round %d line %+v, table %+v", i+1, l, x)
			}
		}
	}
	if _, err := h.s.History(99); err == nil {
		t.Fatal("history of an unknown entry")
	}
}

func TestCorrectionKeepsARoundSetByHand(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 3, 3))
	h.register(4)
	h.do(Start{}, referee)
	h.playRound(1, varied)
	r1 := mustRound(t, h, 1).Tables
	h.do(OverridePairings{Round: 2, Reason: "by hand", Tables: []pairing.Table{{Number: 1, NS: r1[0].NS, EW: r1[1].NS}, {Number: 2, NS: r1[0].EW, EW: r1[1].EW}}}, referee)
	e := h.do(CorrectScore{Round: 1, Table: 1, Version: h.version(1, 1), Deal: deal(1, 5, 1500), Reason: "misread"}, referee)
	p, _ := DecodeEvent(e)
	if c := p.(*ScoreCorrected); !slices.Equal(c.KeptRounds, []int{2}) || len(c.RedrawnRounds) != 0 {
		t.Fatalf("kept %v redrawn %v", c.KeptRounds, c.RedrawnRounds)
	}
}

// Reads and Decide run side by side (go test -race).
func TestConcurrentReads(t *testing.T) {
	h := playing(t)
	h.s.cache = new(standingsCache)
	done := make(chan error, 8)
	for i := range 8 {
		go func() {
			var err error
			switch i % 4 {
			case 0:
				_, err = h.s.Standings()
			case 1:
				_, err = h.s.Snapshot()
			case 2:
				_, err = h.s.Decide(EnterScore{Round: 1, Table: 1, Version: h.s.rounds[0].tables[0].version, Deals: []DealInput{deal(1, 300, 100)}}, referee, h.clock, nil)
			case 3:
				_, err = h.s.History(1)
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

func TestFullRoundRobinCannotKeepAForbiddenPairApart(t *testing.T) {
	h := newHarness(t, pairsSetup(RoundRobin, 3, 3))
	h.register(4)
	h.do(SetForbidden{Pairs: [][2]int64{{1, 2}}}, referee)
	h.do(Start{}, referee)
	for n := 1; n <= 3; n++ {
		if _, err := h.try(DrawRound{Round: n}, referee); err != nil {
			if e := err.(*Error); e.Code != CodeUnpairable || e.Kind != KindConflict {
				t.Fatalf("round %d: %v", n, err)
			}
			// The referee seats the round by hand instead.
			return
		}
		h.do(StartRound{Round: n}, referee)
		for _, tv := range mustRound(t, h, n).Tables {
			for d := 1; d <= 3; d++ {
				h.playDeal(n, tv.Number, varied(n, tv, d))
			}
		}
		h.do(CloseRound{Round: n}, referee)
	}
	t.Fatal("every round drawn: entries 1 and 2 met")
}

func TestCustomVPTableProblemsListedByBand(t *testing.T) {
	to := 30
	bad := vp.Table{Bands: []vp.Band{{From: 0, To: &to, Winner: 10, Loser: 10}, {From: 40, Winner: 15, Loser: 6}}}
	su := pairsSetup(ModifiedDanish, 2, 2)
	su.VPTable = &bad
	_, err := New(su)
	var fields []string
	for _, p := range err.(*Error).Problems {
		fields = append(fields, p.Field+" "+p.Code)
	}
	if !slices.Equal(fields, []string{"vp_table.bands[1] gap", "vp_table.bands[1] sides"}) {
		t.Fatalf("problems %q", fields)
	}
	two := vp.Table{Bands: []vp.Band{{From: 0, To: &to, Winner: 10, Loser: 10}, {From: 35, Winner: 14, Loser: 6}}}
	su.VPTable = &two
	s, err := New(su)
	if err != nil {
		t.Fatal(err)
	}
	// The state holds its own copy of the table.
	two.Bands[1].Winner = 20
	if got := s.Config(); got.VPTable.Bands[1].Winner != 14 || got.RestVP != 14 || got.RestMP != 355 || got.MitchellStep != 1 {
		t.Fatalf("setup %+v", got)
	}
}
