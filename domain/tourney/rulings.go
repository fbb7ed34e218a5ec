package tourney

import (
	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/standings"
)

func (c Ruling) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "ruling"); err != nil {
		return nil, "", err
	}
	_, t, err := s.sheet(c.Round, c.Table)
	if err != nil {
		return nil, "", err
	}
	if err := s.notSeated(t, who, "ruling"); err != nil {
		return nil, "", err
	}
	if c.Version != 0 && c.Version != t.version {
		return nil, "", staleSheet(t, c.Version)
	}
	p := &RulingMade{Round: c.Round, Table: c.Table, Kind: c.Kind, Entry: c.Entry, Deals: c.Deals}
	if c.Deal != nil {
		d := *c.Deal
		d.TimeOut = true
		p.Deal = &d
	}
	return p, trimmed(c.Reason), nil
}

// ruled is the tables a ruling decides: at a team match an abandonment or a
// no-show is the team's, at every table of the match; else the one table.
func (s *State) ruled(r *round, t *table, kind string) []*table {
	if s.setup.Kind != KindTeams || (kind != RulingAbandonment && kind != RulingBye) {
		return []*table{t}
	}
	var out []*table
	for _, x := range r.tables {
		if x.Match == t.Match {
			out = append(out, x)
		}
	}
	return out
}

func (p *RulingMade) check(s *State) error {
	r, t, err := s.sheet(p.Round, p.Table)
	if err != nil {
		return err
	}
	var ps problems
	switch p.Kind {
	case RulingTimeOut:
		if p.Entry != 0 {
			ps.add("entry", PNotAllowed, "a time-out concerns the table, not an entry")
		}
	case RulingAbandonment, RulingBye, RulingLateArrival:
		if p.Deal != nil {
			ps.add("deal", PNotAllowed, "only a time-out scores a deal as it stands")
		}
		if !t.seated(p.Entry) {
			ps.add("entry", PUnknown, "entry %d does not sit at table %d", p.Entry, t.Number)
		}
	default:
		ps.add("kind", PUnknown, "ruling %q is not time_out, abandonment, bye or late_arrival", p.Kind)
	}
	if err := ps.err(CodeInvalidCommand, "the ruling is not valid"); err != nil {
		return err
	}
	for _, x := range s.ruled(r, t, p.Kind) {
		if x.decided != "" {
			return conflict(CodeTableDecided, "table %d was already decided (%s)", x.Number, x.decided)
		}
		if p.Kind != RulingLateArrival && !s.allConfirmed(x) {
			return conflict(CodeUnconfirmedDeals, "table %d has deals waiting for confirmation", x.Number)
		}
		if p.Kind == RulingBye && len(x.deals) > 0 {
			return conflict(CodeRoundHasScores, "table %d has played: rule an abandonment", x.Number)
		}
	}
	switch p.Kind {
	case RulingTimeOut:
		return s.checkTimeOut(r, t, p.Deal)
	case RulingLateArrival:
		return s.checkLateArrival(t, p.Deals)
	}
	return nil
}

func (s *State) allConfirmed(t *table) bool {
	for _, d := range t.deals {
		if d.Status != DealConfirmed {
			return false
		}
	}
	return true
}

// checkTimeOut: the table is still in play; the deal as it stands, if any,
// is valid and the next one; a knockout table then has a winner.
func (s *State) checkTimeOut(r *round, t *table, d *DealInput) error {
	if s.result(r, t).Complete {
		return conflict(CodeTableComplete, "table %d has finished its deals", t.Number)
	}
	totals := dealTotals(t.deals)
	if d != nil {
		var ps problems
		s.checkDeal(&ps, "deal", *d)
		if d.Number != len(t.deals)+1 {
			ps.add("deal.number", PDealOrder, "the deal in play is %d", len(t.deals)+1)
		}
		if err := ps.err(CodeBadScore, "the deal has errors"); err != nil {
			return err
		}
		totals = append(totals, [2]int{d.NS.Total, d.EW.Total})
	}
	if s.setup.Movement == Knockout {
		var ns, ew int
		for _, x := range totals {
			ns, ew = ns+x[0], ew+x[1]
		}
		if ns == ew {
			return conflict(CodeKnockoutTied, "table %d is tied: a knockout needs a winner, play a tie-break deal", t.Number)
		}
	}
	return nil
}

func (s *State) checkLateArrival(t *table, deals int) error {
	var ps problems
	switch {
	case s.setup.Movement == Knockout:
		ps.add("kind", PNotAllowed, "a knockout table plays to its target")
	case deals < max(1, len(t.deals)) || deals > t.planned:
		ps.add("deals", POutOfRange, "the table can play %d to %d deals", max(1, len(t.deals)), t.planned)
	}
	return ps.err(CodeInvalidCommand, "the ruling is not valid")
}

func (p *RulingMade) apply(s *State, e Event) {
	r := s.rounds[p.Round-1]
	t, _ := r.table(p.Table)
	rec := RulingRecord{Seq: e.Seq, At: e.At, By: e.By, Kind: p.Kind, Entry: p.Entry, Deals: p.Deals, Reason: e.Reason}
	for _, x := range s.ruled(r, t, p.Kind) {
		switch p.Kind {
		case RulingTimeOut:
			if p.Deal != nil {
				x.deals = append(x.deals, Deal{Number: p.Deal.Number, NS: p.Deal.NS, EW: p.Deal.EW, TimeOut: true,
					Status: DealConfirmed, EnteredBy: e.By, EnteredAt: e.At, ConfirmedBy: e.By, ConfirmedAt: timePtr(e.At)})
				s.markTieBreaks(x)
			}
			x.decided = RulingTimeOut
		case RulingAbandonment:
			x.decided, x.left = RulingAbandonment, p.Entry
		case RulingBye:
			x.decided, x.absent = RulingBye, p.Entry
		case RulingLateArrival:
			x.planned = p.Deals
		}
		x.rulings = append(x.rulings, rec)
		x.version = e.Seq
	}
}

func (c Penalty) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "a penalty"); err != nil {
		return nil, "", err
	}
	if err := needReason(c.Reason); err != nil {
		return nil, "", err
	}
	if err := s.notOpponent(c.Entry, c.Round, who, "a penalty"); err != nil {
		return nil, "", err
	}
	return &PenaltyGiven{Round: c.Round, Entry: c.Entry, VP: c.VP, MP: c.MP}, trimmed(c.Reason), nil
}

func (p *PenaltyGiven) check(s *State) error {
	if err := s.needStatus("a penalty", StatusRunning, StatusFinished); err != nil {
		return err
	}
	if _, err := s.entry(p.Entry); err != nil {
		return err
	}
	var ps problems
	if p.Round < 0 || p.Round > len(s.rounds) {
		ps.add("round", PUnknown, "round %d is not drawn", p.Round)
	}
	if p.VP < 0 {
		ps.add("vp", POutOfRange, "a penalty is a positive amount")
	}
	if p.MP < 0 || p.MP%5 != 0 {
		ps.add("mp", PNotMultiple, "an MP penalty is a positive multiple of 5")
	}
	if p.VP == 0 && p.MP == 0 {
		ps.add("vp", PRequired, "a penalty takes VP or MP")
	}
	return ps.err(CodeInvalidCommand, "the penalty is not valid")
}

func (p *PenaltyGiven) apply(s *State, e Event) {
	s.penalties = append(s.penalties, standings.Penalty{Round: p.Round, Entry: p.Entry, VP: p.VP, MP: p.MP, Reason: e.Reason})
}
