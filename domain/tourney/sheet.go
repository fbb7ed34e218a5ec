package tourney

import "fmt"

// maxKnockoutDeals bounds a knockout table's sheet: far more deals than any
// target needs.
const maxKnockoutDeals = 40

// checkDeal lists the problems of one deal as entered (RULES §7a): every
// part a multiple of 5; cards and hand within the pack's value, burraco
// bonuses within the most a deal can bring and in 50s, closing and pot 0 or
// 100; the total the parts' sum (round_up_10: rounded up to 10); at most one
// side closing; no closing in a time-out deal; the cards of both sides no
// more than the pack.
func (s *State) checkDeal(ps *problems, path string, d DealInput) {
	rg := ruleRanges[s.setup.Rules]
	s.checkParts(ps, path+".ns", d.NS, rg, d.TimeOut)
	s.checkParts(ps, path+".ew", d.EW, rg, d.TimeOut)
	if d.NS.Closing > 0 && d.EW.Closing > 0 {
		ps.add(path+".ew.closing", PTwoClosings, "both sides close: at most one side closes a deal")
	}
	if cards := d.NS.Cards + d.NS.Hand + d.EW.Cards + d.EW.Hand; cards > rg.Deck {
		ps.add(path, PDealCards, "the cards of both sides add up to %d, more than the pack's %d", cards, rg.Deck)
	}
}

func (s *State) checkParts(ps *problems, path string, p Parts, rg rangeSet, timeOut bool) {
	for _, f := range []struct {
		name string
		v    int
	}{{"cards", p.Cards}, {"burraco", p.Burraco}, {"closing", p.Closing}, {"hand", p.Hand}, {"pot", p.Pot}, {"total", p.Total}} {
		if f.v%5 != 0 {
			ps.add(path+"."+f.name, PNotMultiple, "%d is not a multiple of 5", f.v)
		}
	}
	between := func(name string, v, hi int) {
		if v < 0 || v > hi {
			ps.add(path+"."+name, POutOfRange, "%d is not between 0 and %d", v, hi)
		}
	}
	between("cards", p.Cards, rg.Deck)
	between("hand", p.Hand, rg.Deck)
	between("burraco", p.Burraco, rg.Bonus)
	if p.Burraco%50 != 0 && p.Burraco%5 == 0 {
		ps.add(path+".burraco", POutOfRange, "%d: burraco bonuses come in 50s", p.Burraco)
	}
	if p.Closing != 0 && p.Closing != 100 {
		ps.add(path+".closing", POutOfRange, "closing is 100 or 0, not %d", p.Closing)
	}
	if p.Pot != 0 && p.Pot != 100 {
		ps.add(path+".pot", POutOfRange, "the pot penalty is 100 or 0, not %d", p.Pot)
	}
	if timeOut && p.Closing != 0 {
		ps.add(path+".closing", PTimeOutClose, "a deal ended by a time-out has no closing")
	}
	want := p.Cards + p.Burraco + p.Closing - p.Hand - p.Pot
	if s.setup.RoundUp10 {
		want = roundUp10(want)
	}
	if p.Total != want {
		ps.add(path+".total", PPartsSum, "the parts make %d, not %d", want, p.Total)
	}
}

// roundUp10 rounds towards +∞ to a multiple of 10 (485 → 490, −115 → −110).
func roundUp10(n int) int {
	if r := n % 10; r > 0 {
		return n + 10 - r
	} else if r < 0 {
		return n - r
	}
	return n
}

// checkEntered checks deals a score entry puts on a table's sheet: each deal
// valid, in order (the next deal, or one entered and not confirmed), within
// the deals the table plays, and none after a knockout table is decided.
func (s *State) checkEntered(t *table, deals []DealInput) error {
	var ps problems
	if len(deals) == 0 {
		ps.add("deals", PRequired, "no deals")
	}
	next, prev := len(t.deals)+1, 0
	for i, d := range deals {
		path := fmt.Sprintf("deals[%d]", i)
		s.checkDeal(&ps, path, d)
		if d.TimeOut {
			ps.add(path+".time_out", PNotAllowed, "a time-out is the referee's ruling")
		}
		switch {
		case d.Number < 1 || d.Number <= prev || d.Number > next:
			ps.add(path+".number", PDealOrder, "deal %d: deals go in order, and the next is %d", d.Number, next)
		case d.Number == next:
			next++
		}
		if lim := s.dealLimit(t); d.Number > lim {
			ps.add(path+".number", POutOfRange, "deal %d: the table plays %d deals", d.Number, lim)
		}
		prev = max(prev, d.Number)
	}
	if err := ps.err(CodeBadScore, "the score sheet has errors"); err != nil {
		return err
	}
	totals := dealTotals(t.deals)
	for _, d := range deals {
		if d.Number <= len(t.deals) {
			if t.deals[d.Number-1].Status == DealConfirmed {
				return conflict(CodeAlreadyConfirmed, "deal %d is confirmed: the referee corrects it", d.Number)
			}
			totals[d.Number-1] = [2]int{d.NS.Total, d.EW.Total}
		} else {
			totals = append(totals, [2]int{d.NS.Total, d.EW.Total})
		}
	}
	return s.checkKnockoutSheet(totals)
}

// dealLimit is the most deals a table's sheet holds.
func (s *State) dealLimit(t *table) int {
	if t.planned > 0 {
		return t.planned
	}
	return maxKnockoutDeals
}

// checkKnockoutSheet refuses deals after a knockout table was decided.
func (s *State) checkKnockoutSheet(totals [][2]int) error {
	if s.setup.Movement != Knockout {
		return nil
	}
	if at, _ := koScan(totals, s.setup.TargetScore); at > 0 && at < len(totals) {
		return conflict(CodeTableComplete, "the table was decided after deal %d: no deal follows", at)
	}
	return nil
}
