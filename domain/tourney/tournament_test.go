package tourney

import (
	"fmt"
	"slices"
	"testing"

	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/vp"
)

func row(t *testing.T, st Standings, entry int64) standings.Row {
	t.Helper()
	for _, r := range st.Rows {
		if r.Entry == entry {
			return r
		}
	}
	t.Fatalf("entry %d not in the standings", entry)
	return standings.Row{}
}

// checkEveryEntryOncePerRound: in every round each entry still in plays
// once or has a bye, and no withdrawn entry is placed.
func checkEveryEntryOncePerRound(t *testing.T, h *harness) {
	t.Helper()
	for _, r := range h.s.Rounds() {
		seen := map[int64]int{}
		for _, tv := range r.Tables {
			if tv.Pair > 1 {
				continue
			}
			for _, id := range []int64{tv.NS, tv.EW, tv.N, tv.S, tv.E, tv.W} {
				if id != 0 {
					seen[id]++
				}
			}
		}
		for _, id := range r.Byes {
			seen[id]++
		}
		for _, e := range h.s.Entries() {
			// A withdrawn entry plays the rounds drawn before it left; a
			// late one from its first round.
			inRound := (!e.Withdrawn || e.WithdrawnAfter >= r.Number) && e.FirstRound <= r.Number
			if want := map[bool]int{true: 1, false: 0}[inRound]; seen[e.ID] != want {
				t.Fatalf("round %d: entry %d placed %d times, want %d", r.Number, e.ID, seen[e.ID], want)
			}
		}
	}
}

// roundOneAndTwo plays the first round of the 16-pair Danish (every NS wins
// 900 to 300: 15–5) and the second with table 1 scored by hand.
func danishRound1(_ int, tv TableView, d int) DealInput {
	return deal(d, []int{400, 300, 200}[d-1], 100)
}

var table1Round2 = []DealInput{deal(1, 600, 200), deal(2, 400, 300), deal(3, 250, 350)}

func TestSixteenPairModifiedDanishWithACorrectionInRoundTwo(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 4, 3))
	h.register(16)
	h.do(Start{}, referee)

	r1 := h.playRound(1, danishRound1)
	for _, tv := range r1.Tables {
		if tv.Result.VPNS != 15 || tv.Result.VPEW != 5 || tv.Result.MPNS != 900 || tv.Result.MPEW != 300 {
			t.Fatalf("round 1 table %d: %+v, want 900–300, 15–5", tv.Number, tv.Result)
		}
		for _, d := range tv.Sheet.Deals {
			if d.Status != DealConfirmed || d.EnteredSide != "ns" || d.ConfirmedBy != h.sideAt(1, tv.Number, "ew").UserID {
				t.Fatalf("round 1 table %d deal %d: %+v, want entered by NS and confirmed by EW", tv.Number, d.Number, d)
			}
		}
	}

	// Round 2: table 1 by hand, the others varied.
	h.do(DrawRound{Round: 2}, referee)
	h.do(StartRound{Round: 2}, referee)
	rv, _ := h.s.Round(2)
	a, b := rv.Tables[0].NS, rv.Tables[0].EW
	if ra, rb := row(t, h.standings(), a), row(t, h.standings(), b); ra.VP != 15 || rb.VP != 15 {
		t.Fatalf("Danish table 1 of round 2 seats %d (%d VP) and %d (%d VP), want two round-1 winners", a, ra.VP, b, rb.VP)
	}
	// Provisional standings move as soon as a deal is entered, before it is
	// confirmed.
	h.do(EnterScore{Round: 2, Table: 1, Version: h.version(2, 1), Deals: table1Round2[:1]}, h.sideAt(2, 1, "ns"))
	if st := h.standings(); !st.Provisional || row(t, st, a).MPFor != 900+600 {
		t.Fatalf("an entered deal does not count provisionally: %+v", row(t, st, a))
	}
	h.do(ConfirmScore{Round: 2, Table: 1, Version: h.version(2, 1)}, h.sideAt(2, 1, "ew"))
	for _, d := range table1Round2[1:] {
		h.playDeal(2, 1, d)
	}
	for _, tv := range rv.Tables[1:] {
		for d := 1; d <= 3; d++ {
			h.playDeal(2, tv.Number, varied(2, tv, d))
		}
	}
	h.do(CloseRound{Round: 2}, referee)

	// By hand: 600+400+250 = 1250 against 200+300+350 = 850, a difference of
	// 400: 355–500 gives 14–6. After round 1's 15 VP and +600: 29 and 21 VP,
	// +1000 and +200 MP.
	tv, _ := h.s.Table(2, 1)
	if tv.Result.MPNS != 1250 || tv.Result.MPEW != 850 || tv.Result.VPNS != 14 || tv.Result.VPEW != 6 {
		t.Fatalf("round 2 table 1: %+v, want 1250–850, 14–6", tv.Result)
	}
	st := h.standings()
	if ra, rb := row(t, st, a), row(t, st, b); ra.VP != 29 || ra.MPDiff != 1000 || rb.VP != 21 || rb.MPDiff != 200 {
		t.Fatalf("after round 2: %d has %d VP %+d MP, %d has %d VP %+d MP; want 29 +1000, 21 +200", a, ra.VP, ra.MPDiff, b, rb.VP, rb.MPDiff)
	}

	// Round 3 is drawn; before it starts the referee corrects deal 2 of
	// round 2 table 1: EW scored 700, not 300. 1250 to 1250: 10–10, so both
	// have 25 VP; MP +600 and +600.
	h.do(DrawRound{Round: 3}, referee)
	before, _ := h.s.Round(3)
	fix := deal(2, 400, 700)
	e := h.do(CorrectScore{Round: 2, Table: 1, Version: h.version(2, 1), Deal: fix, Reason: "EW's burraco was not counted"}, referee)
	p, err := DecodeEvent(e)
	if err != nil {
		t.Fatal(err)
	}
	cor := p.(*ScoreCorrected)
	if cor.Before.EW.Total != 300 || cor.Before.Status != DealConfirmed || cor.Deal.EW.Total != 700 || e.Reason == "" {
		t.Fatalf("the correction's event does not carry before and after: %+v", cor)
	}
	if !slices.Equal(cor.RedrawnRounds, []int{3}) || len(cor.KeptRounds) != 0 {
		t.Fatalf("redrawn %v kept %v, want round 3 redrawn", cor.RedrawnRounds, cor.KeptRounds)
	}
	tv, _ = h.s.Table(2, 1)
	if tv.Result.VPNS != 10 || tv.Result.VPEW != 10 || tv.Sheet.Deals[1].Corrections != 1 || tv.Sheet.Deals[1].ConfirmedBy != referee.UserID {
		t.Fatalf("corrected table: %+v, deal %+v", tv.Result, tv.Sheet.Deals[1])
	}
	st = h.standings()
	if ra, rb := row(t, st, a), row(t, st, b); ra.VP != 25 || ra.MPDiff != 600 || rb.VP != 25 || rb.MPDiff != 600 {
		t.Fatalf("after the correction: %d VP %+d, %d VP %+d; want 25 +600 each", ra.VP, ra.MPDiff, rb.VP, rb.MPDiff)
	}
	after, _ := h.s.Round(3)
	if after.Draws != 2 || after.Tables[0].Sheet.Version != e.Seq || before.Draws != 1 {
		t.Fatalf("round 3 not redrawn: draws %d → %d, version %d", before.Draws, after.Draws, after.Tables[0].Sheet.Version)
	}
	// The redraw is the Danish of the corrected standings: the leaders meet.
	top := st.Rows[:2]
	if t1 := after.Tables[0]; !(t1.NS == top[0].Entry && t1.EW == top[1].Entry || t1.NS == top[1].Entry && t1.EW == top[0].Entry) {
		if met(h, top[0].Entry, top[1].Entry) == 0 {
			t.Fatalf("round 3 table 1 is %d–%d; the leaders are %d and %d", t1.NS, t1.EW, top[0].Entry, top[1].Entry)
		}
	}

	h.do(StartRound{Round: 3}, referee)
	for _, tv := range after.Tables {
		for d := 1; d <= 3; d++ {
			h.playDeal(3, tv.Number, varied(3, tv, d))
		}
	}
	h.do(CloseRound{Round: 3}, referee)
	h.playRound(4, varied)
	h.do(Finish{}, director)
	h.do(PublishResults{}, director)

	checkEveryEntryOncePerRound(t, h)
	checkNoRematchOfPreviousRound(t, h)
	final := h.standings()
	if final.Provisional || final.AfterRound != 4 || len(final.Rows) != 16 {
		t.Fatalf("final standings: provisional %v after %d rows %d", final.Provisional, final.AfterRound, len(final.Rows))
	}
	for i, r := range final.Rows {
		sum := 0
		for _, l := range r.Lines {
			sum += l.VPFor
		}
		if sum != r.VP || len(r.Lines) != 4 {
			t.Fatalf("row %d: %d VP but lines sum to %d (%d lines)", i, r.VP, sum, len(r.Lines))
		}
		if i > 0 && final.Rows[i-1].VP < r.VP {
			t.Fatalf("standings not by VP at row %d", i)
		}
	}
	// A mistake found after publishing is still corrected: the standings
	// follow and the tournament stays published.
	h.do(CorrectScore{Round: 2, Table: 1, Version: h.version(2, 1), Deal: fix, Reason: "late"}, referee)
	if h.s.status != StatusResultsPublished {
		t.Fatalf("after a correction of published results the tournament is %s", h.s.status)
	}
	h.checkReplay()
}

func met(h *harness, a, b int64) int {
	n := 0
	for _, r := range h.s.Rounds() {
		for _, tv := range r.Tables {
			if tv.NS == a && tv.EW == b || tv.NS == b && tv.EW == a {
				n++
			}
		}
	}
	return n
}

func checkNoRematchOfPreviousRound(t *testing.T, h *harness) {
	t.Helper()
	rounds := h.s.Rounds()
	for i := 1; i < len(rounds)-1; i++ { // the last round may rematch
		for _, tv := range rounds[i].Tables {
			for _, pv := range rounds[i-1].Tables {
				if tv.NS == pv.NS && tv.EW == pv.EW || tv.NS == pv.EW && tv.EW == pv.NS {
					t.Fatalf("round %d rematches %d–%d of round %d", i+1, tv.NS, tv.EW, i)
				}
			}
		}
	}
}

func TestCorrectionKeepsPairingsOfARoundBeingPlayed(t *testing.T) {
	h := newHarness(t, pairsSetup(Danish, 3, 3))
	h.register(6)
	h.do(Start{}, referee)
	h.playRound(1, varied)
	h.do(DrawRound{Round: 2}, referee)
	h.do(StartRound{Round: 2}, referee)
	before, _ := h.s.Round(2)
	e := h.do(CorrectScore{Round: 1, Table: 2, Version: h.version(1, 2), Deal: deal(1, 1500, 0), Reason: "misread"}, referee)
	p, _ := DecodeEvent(e)
	if c := p.(*ScoreCorrected); !slices.Equal(c.KeptRounds, []int{2}) || len(c.RedrawnRounds) != 0 {
		t.Fatalf("kept %v redrawn %v, want round 2 kept", c.KeptRounds, c.RedrawnRounds)
	}
	after, _ := h.s.Round(2)
	if after.Draws != 1 || fmt.Sprint(after.Tables) != fmt.Sprint(before.Tables) {
		t.Fatal("the pairings of a round being played changed")
	}
	h.checkReplay()
}

func TestCorrectionInAMitchellRedrawsNothing(t *testing.T) {
	h := newHarness(t, pairsSetup(Mitchell, 2, 3))
	h.register(4)
	h.do(Start{}, referee)
	h.playRound(1, varied)
	h.do(DrawRound{Round: 2}, referee)
	e := h.do(CorrectScore{Round: 1, Table: 1, Version: h.version(1, 1), Deal: deal(3, 0, 0), Reason: "misread"}, referee)
	p, _ := DecodeEvent(e)
	if c := p.(*ScoreCorrected); len(c.KeptRounds) != 0 || len(c.RedrawnRounds) != 0 {
		t.Fatalf("a Mitchell does not depend on results: kept %v redrawn %v", c.KeptRounds, c.RedrawnRounds)
	}
}

func TestMitchellOfTwelvePairs(t *testing.T) {
	h := newHarness(t, pairsSetup(Mitchell, 6, 3))
	h.register(12)
	h.do(Start{}, referee)
	ns := map[int]int64{}
	meets := map[[2]int64]int{}
	for n := 1; n <= 6; n++ {
		rv := h.playRound(n, varied)
		if len(rv.Tables) != 6 || len(rv.Byes) != 0 {
			t.Fatalf("round %d: %d tables, byes %v", n, len(rv.Tables), rv.Byes)
		}
		for _, tv := range rv.Tables {
			if prev, ok := ns[tv.Number]; ok && prev != tv.NS {
				t.Fatalf("round %d: NS of table %d moved from %d to %d", n, tv.Number, prev, tv.NS)
			}
			ns[tv.Number] = tv.NS
			meets[[2]int64{tv.NS, tv.EW}]++
		}
	}
	if len(meets) != 36 {
		t.Fatalf("%d distinct NS–EW meetings in 6 rounds, want all 36", len(meets))
	}
	h.do(Finish{}, director)
	checkEveryEntryOncePerRound(t, h)
	h.checkReplay()
}

func TestRoundRobinOfSixPairs(t *testing.T) {
	h := newHarness(t, pairsSetup(RoundRobin, 5, 3))
	h.register(6)
	h.do(Start{}, referee)
	for n := 1; n <= 5; n++ {
		h.playRound(n, varied)
	}
	h.refuse(DrawRound{Round: 6}, referee, CodeNoMoreRounds)
	h.do(Finish{}, director)
	for a := int64(1); a <= 6; a++ {
		for b := a + 1; b <= 6; b++ {
			if m := met(h, a, b); m != 1 {
				t.Fatalf("%d and %d met %d times", a, b, m)
			}
		}
	}
	st := h.standings()
	total := 0
	for _, r := range st.Rows {
		total += r.VP
		if r.Played != 5 {
			t.Fatalf("entry %d played %d", r.Entry, r.Played)
		}
	}
	if total != 15*20 {
		t.Fatalf("15 matches hand out 300 VP, not %d", total)
	}
	h.checkReplay()
}

func TestIndividualEvent(t *testing.T) {
	su := pairsSetup(Random, 3, 3)
	su.Kind = KindIndividual
	h := newHarness(t, su)
	h.register(9) // 9 players: two tables and a bye each round
	h.do(Start{}, referee)
	partners := map[[2]int64]int{}
	for n := 1; n <= 3; n++ {
		rv := h.playRound(n, varied)
		if len(rv.Tables) != 2 || len(rv.Byes) != 1 {
			t.Fatalf("round %d: %d tables, byes %v", n, len(rv.Tables), rv.Byes)
		}
		for _, tv := range rv.Tables {
			partners[[2]int64{min(tv.N, tv.S), max(tv.N, tv.S)}]++
			partners[[2]int64{min(tv.E, tv.W), max(tv.E, tv.W)}]++
		}
	}
	for p, n := range partners {
		if n > 1 {
			t.Fatalf("players %v partnered %d times", p, n)
		}
	}
	h.do(Finish{}, director)
	// Each player scores their partnership's result.
	st := h.standings()
	for _, rv := range h.s.Rounds() {
		for _, tv := range rv.Tables {
			for _, x := range []struct {
				id     int64
				vp, mp int
			}{{tv.N, tv.Result.VPNS, tv.Result.MPNS}, {tv.S, tv.Result.VPNS, tv.Result.MPNS}, {tv.E, tv.Result.VPEW, tv.Result.MPEW}, {tv.W, tv.Result.VPEW, tv.Result.MPEW}} {
				l := row(t, st, x.id).Lines[rv.Number-1]
				if l.VPFor != x.vp || l.MPFor != x.mp {
					t.Fatalf("round %d: player %d scored %d VP %d MP, the partnership %d VP %d MP", rv.Number, x.id, l.VPFor, l.MPFor, x.vp, x.mp)
				}
			}
		}
	}
	checkEveryEntryOncePerRound(t, h)
	h.checkReplay()
}

func TestKnockoutDecidedByATieBreakDeal(t *testing.T) {
	h := newHarness(t, pairsSetup(Knockout, 0, 3))
	h.register(8)
	h.do(Start{}, referee)
	if h.s.PlannedRounds() != 3 {
		t.Fatalf("8 pairs play %d knockout rounds, want 3", h.s.PlannedRounds())
	}
	for n := 1; n <= 3; n++ {
		h.do(DrawRound{Round: n}, referee)
		h.do(StartRound{Round: n}, referee)
		rv, _ := h.s.Round(n)
		for i, tv := range rv.Tables {
			if n == 1 && i == 0 {
				// 1000–1000, then 1005–1005: tied at 2005, past the target;
				// the third deal is a tie-break and decides it for EW.
				h.playDeal(n, tv.Number, deal(1, 1000, 1000))
				h.playDeal(n, tv.Number, deal(2, 1005, 1005))
				if r := mustView(t, h, n, tv.Number).Result; r.Complete {
					t.Fatalf("a tied table past the target is decided: %+v", r)
				}
				h.refuse(CloseRound{Round: n}, referee, CodeTableIncomplete)
				h.playDeal(n, tv.Number, deal(3, 100, 300))
				got := mustView(t, h, n, tv.Number)
				if !got.Sheet.Deals[2].TieBreak || got.Sheet.Deals[1].TieBreak || got.Result.Winner != tv.EW {
					t.Fatalf("tie-break deal: %+v, result %+v", got.Sheet.Deals, got.Result)
				}
				h.refuse(EnterScore{Round: n, Table: tv.Number, Version: got.Sheet.Version, Deals: []DealInput{deal(4, 5, 0)}}, referee, CodeTableComplete)
				continue
			}
			h.playDeal(n, tv.Number, deal(1, 1200, 300))
			h.playDeal(n, tv.Number, deal(2, 900, 200))
		}
		h.do(CloseRound{Round: n}, referee)
	}
	h.refuse(DrawRound{Round: 4}, referee, CodeNoMoreRounds)
	first, _ := h.s.Round(1)
	loser := first.Tables[0].NS
	final, _ := h.s.Round(3)
	if len(final.Tables) != 1 {
		t.Fatalf("the final has %d tables", len(final.Tables))
	}
	champion := final.Tables[0].Result.Winner
	h.do(Finish{}, director)
	st := h.standings()
	if st.Rows[0].Entry != champion || st.Rows[0].VP != 3 || row(t, st, loser).VP != 0 {
		t.Fatalf("standings: first %d (%d VP), champion %d; loser %d has %d VP", st.Rows[0].Entry, st.Rows[0].VP, champion, loser, row(t, st, loser).VP)
	}
	h.checkReplay()
}

func mustView(t *testing.T, h *harness, n, tbl int) TableView {
	t.Helper()
	tv, err := h.s.Table(n, tbl)
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

func TestOddFieldGetsRotatingByes(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 5, 3))
	h.register(7)
	h.do(Start{}, referee)
	byes := map[int64]int{}
	for n := 1; n <= 5; n++ {
		rv := h.playRound(n, varied)
		if len(rv.Byes) != 1 || len(rv.Tables) != 3 {
			t.Fatalf("round %d: byes %v, %d tables", n, rv.Byes, len(rv.Tables))
		}
		byes[rv.Byes[0]]++
	}
	for id, n := range byes {
		if n > 1 {
			t.Fatalf("entry %d had %d byes in 5 rounds of 7 entries", id, n)
		}
	}
	h.do(Finish{}, director)
	st := h.standings()
	for id := range byes {
		r := row(t, st, id)
		if r.Byes != 1 {
			t.Fatalf("entry %d: %d byes counted", id, r.Byes)
		}
		for _, l := range r.Lines {
			if l.Bye && (l.VPFor != DefaultRestVP || l.MPFor != DefaultRestMP) {
				t.Fatalf("a bye scored %d VP %d MP, want the rest score 14 / 355", l.VPFor, l.MPFor)
			}
		}
	}
	checkEveryEntryOncePerRound(t, h)
	h.checkReplay()
}

func TestWithdrawalForfeitsTheTableAndLeavesTheField(t *testing.T) {
	h := newHarness(t, pairsSetup(ModifiedDanish, 3, 3))
	h.register(8)
	h.do(Start{}, referee)
	h.playRound(1, varied)
	h.do(DrawRound{Round: 2}, referee)
	h.do(StartRound{Round: 2}, referee)
	rv, _ := h.s.Round(2)
	tv := rv.Tables[0]
	gone, stays := tv.NS, tv.EW
	// The leaving pair won the first deal by 1500: its table's VP would be
	// 19–1, but it keeps at most 6.
	h.playDeal(2, tv.Number, deal(1, 1600, 100))
	h.refuse(Withdraw{Entry: gone}, player(h.s.entries[gone-1].Players[0]), CodeNotYours)
	e := h.do(Withdraw{Entry: gone, Reason: "unwell"}, referee)
	p, _ := DecodeEvent(e)
	if w := p.(*Withdrawn); w.Round != 2 || !slices.Equal(w.Forfeits, []int{tv.Number}) || w.AfterRound != 2 {
		t.Fatalf("withdrawal: %+v", w)
	}
	got := mustView(t, h, 2, tv.Number)
	if got.Result.DecidedBy != "withdrawal" || got.Result.Left != gone || !got.Result.Final {
		t.Fatalf("forfeited table: %+v", got.Result)
	}
	h.refuse(EnterScore{Round: 2, Table: tv.Number, Version: got.Sheet.Version, Deals: []DealInput{deal(2, 100, 100)}}, referee, CodeTableDecided)
	for _, other := range rv.Tables[1:] {
		for d := 1; d <= 3; d++ {
			h.playDeal(2, other.Number, varied(2, other, d))
		}
	}
	h.do(CloseRound{Round: 2}, referee)
	st := h.standings()
	l, ls := row(t, st, gone).Lines[1], row(t, st, stays).Lines[1]
	if !l.Left || l.VPFor != 6 || !ls.Deserted || ls.VPFor != 1 || ls.MPFor != 100 {
		t.Fatalf("abandonment lines: left %+v, stayed %+v", l, ls)
	}
	r3 := h.playRound(3, varied)
	if len(r3.Tables) != 3 || len(r3.Byes) != 1 {
		t.Fatalf("round 3 of 7 entries: %d tables, byes %v", len(r3.Tables), r3.Byes)
	}
	for _, tv := range r3.Tables {
		if tv.NS == gone || tv.EW == gone {
			t.Fatal("a withdrawn entry was paired")
		}
	}
	h.do(Finish{}, director)
	if len(row(t, h.standings(), gone).Lines) != 2 {
		t.Fatal("the withdrawn entry has lines after its withdrawal")
	}
	checkEveryEntryOncePerRound(t, h)
	h.checkReplay()
}

func TestRemainingPairGetsTheRestScoreWhenTheEventSaysSo(t *testing.T) {
	su := pairsSetup(ModifiedDanish, 2, 3)
	su.RemainingGetsRest = true
	h := newHarness(t, su)
	h.register(4)
	h.do(Start{}, referee)
	h.do(DrawRound{Round: 1}, referee)
	h.do(StartRound{Round: 1}, referee)
	tv := mustView(t, h, 1, 1)
	h.playDeal(1, 1, deal(1, 900, 100))
	h.do(Ruling{Round: 1, Table: 1, Kind: RulingAbandonment, Entry: tv.EW, Reason: "left"}, referee)
	l := row(t, h.standings(), tv.NS).Lines[0]
	if !l.Deserted || l.VPFor != DefaultRestVP || l.MPFor != DefaultRestMP {
		t.Fatalf("the remaining pair's line: %+v", l)
	}
	h.checkReplay()
}

func TestTeamsMatchConvertsTheTeamTotal(t *testing.T) {
	team := vp.ThreeDeal() // stands in for the organiser's team table
	su := pairsSetup(RoundRobin, 3, 3)
	su.Kind, su.VPTable, su.TeamPairs = KindTeams, &team, DefaultTeamPairs
	h := newHarness(t, su)
	h.register(4)
	h.do(Start{}, referee)
	h.do(DrawRound{Round: 1}, referee)
	h.do(StartRound{Round: 1}, referee)
	rv, _ := h.s.Round(1)
	if len(rv.Tables) != 4 || len(rv.Matches) != 2 {
		t.Fatalf("4 teams of 2 pairs: %d tables, %d matches", len(rv.Tables), len(rv.Matches))
	}
	// Match 1: table 1 NS wins 900–400, table 2 EW wins 500–300: team A
	// 1200–900, +300 over the match, 255–350: 13–7.
	for d, sc := range [][4]int{{400, 200, 100, 300}, {300, 100, 100, 100}, {200, 100, 100, 100}} {
		h.playDeal(1, 1, deal(d+1, sc[0], sc[1]))
		h.playDeal(1, 2, deal(d+1, sc[2], sc[3]))
	}
	// A player of team A's first pair does not sit at table 2.
	first := player(h.s.entries[rv.Tables[0].NS-1].Players[0])
	h.refuse(EnterScore{Round: 1, Table: 2, Version: h.version(1, 2), Deals: []DealInput{deal(3, 5, 5)}}, first, CodeNotAtTable)
	m := mustRound(t, h, 1).Matches[0]
	if m.MPA != 1200 || m.MPB != 900 || m.VPA != 13 || m.VPB != 7 {
		t.Fatalf("match 1: %+v, want 1200–900, 13–7", m)
	}
	for _, tv := range rv.Tables[2:] {
		for d := 1; d <= 3; d++ {
			h.playDeal(1, tv.Number, varied(1, tv, d))
		}
	}
	h.do(CloseRound{Round: 1}, referee)
	h.playRound(2, varied)
	h.playRound(3, varied)
	h.do(Finish{}, director)
	if r := row(t, h.standings(), m.A); r.Lines[0].VPFor != 13 || r.Played != 3 {
		t.Fatalf("team %d: %+v", m.A, r)
	}
	checkEveryEntryOncePerRound(t, h)
	h.checkReplay()
}

func mustRound(t *testing.T, h *harness, n int) RoundView {
	t.Helper()
	rv, err := h.s.Round(n)
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

func TestCompleteRoundRobinPlaysAsManyRoundsAsTheFieldNeeds(t *testing.T) {
	for _, tt := range []struct {
		entries, rounds int
	}{
		{entries: 4, rounds: 3},
		{entries: 5, rounds: 5}, // odd: everyone rests once
	} {
		h := newHarness(t, pairsSetup(RoundRobin, 0, 3))
		h.register(tt.entries)
		h.do(Start{}, referee)
		if got := h.s.PlannedRounds(); got != tt.rounds {
			t.Fatalf("%d entries: planned %d rounds, want %d", tt.entries, got, tt.rounds)
		}
		for n := 1; n <= tt.rounds; n++ {
			h.playRound(n, varied)
		}
		h.refuse(DrawRound{Round: tt.rounds + 1}, referee, CodeNoMoreRounds)
		for a := int64(1); a <= int64(tt.entries); a++ {
			for b := a + 1; b <= int64(tt.entries); b++ {
				if m := met(h, a, b); m != 1 {
					t.Fatalf("%d entries: %d and %d met %d times", tt.entries, a, b, m)
				}
			}
		}
		h.checkReplay()
	}
}
