package tourney

import (
	"slices"

	"github.com/burraco/burraco/domain/pairing"
)

// sheet is table t of round n, while the tournament runs and the round is
// played.
func (s *State) sheet(n, t int) (*round, *table, error) {
	r, err := s.roundIn(n, "scoring", RoundStatusPlaying)
	if err != nil {
		return nil, nil, err
	}
	tb, err := r.table(t)
	if err != nil {
		return nil, nil, err
	}
	return r, tb, nil
}

// sideOf is the side ("ns" or "ew") a player sits on at the table, or "".
func (s *State) sideOf(t *table, player int64) string {
	if s.setup.Kind == KindIndividual {
		for _, x := range []struct {
			id   int64
			side string
		}{{t.N, "ns"}, {t.S, "ns"}, {t.E, "ew"}, {t.W, "ew"}} {
			if x.id != 0 && slices.Contains(s.entries[x.id-1].Players, player) {
				return x.side
			}
		}
		return ""
	}
	if slices.Contains(s.pairPlayers(t.NS, t.Pair), player) {
		return "ns"
	}
	if slices.Contains(s.pairPlayers(t.EW, t.Pair), player) {
		return "ew"
	}
	return ""
}

// pairPlayers is the players of an entry who sit at a table: a pair's
// players, or a team's pair number pair.
func (s *State) pairPlayers(entry int64, pair int) []int64 {
	if entry < 1 || entry > int64(len(s.entries)) {
		return nil
	}
	ps := s.entries[entry-1].Players
	if s.setup.Kind != KindTeams {
		return ps
	}
	k := s.setup.PlayersPerTable / 2
	lo, hi := (pair-1)*k, pair*k
	if lo < 0 || hi > len(ps) {
		return nil
	}
	return ps[lo:hi]
}

// actorSide is the side the actor's player sits on, else "" for the staff;
// an actor neither at the table nor staff is refused. The seat comes
// first: a referee who plays at the table is a player there, whose entries
// wait for the other side and who may not confirm his own side's (issue 19).
func (s *State) actorSide(t *table, who Actor) (string, error) {
	for _, p := range who.Players {
		if side := s.sideOf(t, p); side != "" {
			return side, nil
		}
	}
	if who.staff() {
		return "", nil
	}
	return "", forbidden(CodeNotAtTable, "only the players of table %d or the staff score it", t.Number)
}

// notSeated refuses (own_side) a referee who plays at the table what only
// the staff does there (a correction, a ruling): he would decide his own
// result, which the own-side rule of the sheet forbids (issue 19).
func (s *State) notSeated(t *table, who Actor, what string) error {
	for _, p := range who.Players {
		if s.sideOf(t, p) != "" {
			return forbidden(CodeOwnSide, "%s: you play at table %d; another referee or a director does it", what, t.Number)
		}
	}
	return nil
}

// notOpponent refuses (own_side) a referee who plays in the tournament a
// penalty to an entry he sits with at a table of the round (of any round
// when round is 0), or to his own entry: he would decide a result of his
// own match, as a correction or a ruling would (issue 27).
func (s *State) notOpponent(entry int64, round int, who Actor, what string) error {
	if e, err := s.entry(entry); err == nil {
		for _, p := range who.Players {
			if slices.Contains(e.Players, p) {
				return forbidden(CodeOwnSide, "%s: entry %d is yours; another referee or a director does it", what, entry)
			}
		}
	}
	for i, r := range s.rounds {
		if round != 0 && i+1 != round {
			continue
		}
		for _, t := range r.tables {
			if !t.seated(entry) {
				continue
			}
			if err := s.notSeated(t, who, what); err != nil {
				return err
			}
		}
	}
	return nil
}

func staleSheet(t *table, saw int64) error {
	return conflict(CodeStaleSheet, "table %d's sheet is at version %d, not %d: read it again", t.Number, t.version, saw)
}

// scoreSheet is the sheet of a live table that who writes a score on
// (doing what), and who's side of it, at the version who saw.
func (s *State) scoreSheet(round, number int, version int64, who Actor, doing string) (*table, string, error) {
	if err := s.refuseOnline(doing); err != nil {
		return nil, "", err
	}
	_, t, err := s.sheet(round, number)
	if err != nil {
		return nil, "", err
	}
	side, err := s.actorSide(t, who)
	if err != nil {
		return nil, "", err
	}
	if version != t.version {
		return nil, "", staleSheet(t, version)
	}
	return t, side, nil
}

func (c EnterScore) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	_, side, err := s.scoreSheet(c.Round, c.Table, c.Version, who, "entering a score")
	if err != nil {
		return nil, "", err
	}
	return &ScoreEntered{Round: c.Round, Table: c.Table, Deals: append([]DealInput(nil), c.Deals...),
		Side: side, Confirmed: side == ""}, "", nil
}

func (p *ScoreEntered) check(s *State) error {
	_, t, err := s.sheet(p.Round, p.Table)
	if err != nil {
		return err
	}
	if t.decided != "" {
		return conflict(CodeTableDecided, "table %d was decided by a ruling (%s)", t.Number, t.decided)
	}
	if p.Side != "" && p.Side != "ns" && p.Side != "ew" || p.Confirmed != (p.Side == "") {
		return errf(KindInvalid, CodeBadEvent, "side %q, confirmed %v", p.Side, p.Confirmed)
	}
	return s.checkEntered(t, p.Deals)
}

func (p *ScoreEntered) apply(s *State, e Event) {
	t, _ := s.rounds[p.Round-1].table(p.Table)
	for _, in := range p.Deals {
		d := Deal{Number: in.Number, NS: in.NS, EW: in.EW, Status: DealEntered,
			EnteredBy: e.By, EnteredSide: p.Side, EnteredAt: e.At}
		if p.Confirmed {
			d.Status, d.ConfirmedBy, d.ConfirmedAt = DealConfirmed, e.By, timePtr(e.At)
		}
		if in.Number <= len(t.deals) {
			t.deals[in.Number-1] = d
		} else {
			t.deals = append(t.deals, d)
		}
	}
	s.markTieBreaks(t)
	t.version = e.Seq
}

func (c ConfirmScore) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	t, side, err := s.scoreSheet(c.Round, c.Table, c.Version, who, "confirming a score")
	if err != nil {
		return nil, "", err
	}
	nums := slices.Clone(c.Deals)
	if len(nums) == 0 {
		for _, d := range t.deals {
			if d.Status == DealEntered {
				nums = append(nums, d.Number)
			}
		}
	}
	slices.Sort(nums)
	nums = slices.Compact(nums)
	p := &ScoreConfirmed{Round: c.Round, Table: c.Table, Deals: nums}
	if err := p.check(s); err != nil {
		return nil, "", err
	}
	for _, n := range nums {
		if side != "" && t.deals[n-1].EnteredSide == side {
			return nil, "", forbidden(CodeOwnSide, "deal %d was entered by your side: an opponent or the referee confirms it", n)
		}
	}
	return p, "", nil
}

func (p *ScoreConfirmed) check(s *State) error {
	_, t, err := s.sheet(p.Round, p.Table)
	if err != nil {
		return err
	}
	if len(p.Deals) == 0 {
		return conflict(CodeNothingToConfirm, "table %d has no deal waiting for confirmation", t.Number)
	}
	for _, n := range p.Deals {
		if n < 1 || n > len(t.deals) {
			return notFound(CodeDealNotFound, "table %d has no deal %d", t.Number, n)
		}
		if t.deals[n-1].Status == DealConfirmed {
			return conflict(CodeAlreadyConfirmed, "deal %d is already confirmed", n)
		}
	}
	return nil
}

func (p *ScoreConfirmed) apply(s *State, e Event) {
	t, _ := s.rounds[p.Round-1].table(p.Table)
	for _, n := range p.Deals {
		d := &t.deals[n-1]
		d.Status, d.ConfirmedBy, d.ConfirmedAt = DealConfirmed, e.By, timePtr(e.At)
	}
	t.version = e.Seq
}

// correctable is table t of round n while corrections are taken: the
// tournament running, finished or published, the round played or closed.
// A mistake found after the results were published is still corrected
// (issue 28: a club's season follows it), by a referee with a reason, in
// the audit trail like any correction; the tournament stays published.
func (s *State) correctable(n, t int) (*round, *table, error) {
	if err := s.needStatus("correcting a score", StatusRunning, StatusFinished, StatusResultsPublished); err != nil {
		return nil, nil, err
	}
	r, err := s.round(n)
	if err != nil {
		return nil, nil, err
	}
	if r.status == RoundStatusPublished {
		return nil, nil, conflict(CodeRoundNotPlaying, "round %d is not being played", n)
	}
	tb, err := r.table(t)
	if err != nil {
		return nil, nil, err
	}
	return r, tb, nil
}

func (c CorrectScore) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "correcting a score"); err != nil {
		return nil, "", err
	}
	if err := needReason(c.Reason); err != nil {
		return nil, "", err
	}
	_, t, err := s.correctable(c.Round, c.Table)
	if err != nil {
		return nil, "", err
	}
	if err := s.notSeated(t, who, "correcting a score"); err != nil {
		return nil, "", err
	}
	if c.Version != t.version {
		return nil, "", staleSheet(t, c.Version)
	}
	if c.Deal.Number < 1 || c.Deal.Number > len(t.deals) {
		return nil, "", notFound(CodeDealNotFound, "table %d has no deal %d", t.Number, c.Deal.Number)
	}
	p := &ScoreCorrected{Round: c.Round, Table: c.Table, Deal: c.Deal, Before: t.deals[c.Deal.Number-1],
		RedrawnRounds: []int{}, KeptRounds: []int{}}
	if err := p.checkDeal(s); err != nil {
		return nil, "", err
	}
	if err := s.redraws(p); err != nil {
		return nil, "", err
	}
	return p, trimmed(c.Reason), nil
}

func (p *ScoreCorrected) check(s *State) error {
	if err := p.checkDeal(s); err != nil {
		return err
	}
	for _, rd := range p.Redraws {
		if r := s.latest(); rd.Round != r.number || r.status != RoundStatusPublished {
			return conflict(CodeRoundHasScores, "round %d cannot be drawn again", rd.Round)
		}
		if err := s.checkLayout(rd.Tables, rd.Byes); err != nil {
			return err
		}
	}
	return nil
}

// checkDeal checks the corrected deal: valid, a time-out only as the last
// deal, and a knockout table still decided where its round is closed, and
// not before its last deal.
func (p *ScoreCorrected) checkDeal(s *State) error {
	r, t, err := s.correctable(p.Round, p.Table)
	if err != nil {
		return err
	}
	n := p.Deal.Number
	if n < 1 || n > len(t.deals) {
		return notFound(CodeDealNotFound, "table %d has no deal %d", t.Number, n)
	}
	var ps problems
	s.checkDeal(&ps, "deal", p.Deal)
	if p.Deal.TimeOut && n != len(t.deals) {
		ps.add("deal.time_out", PNotAllowed, "only a table's last deal can be ended by a time-out")
	}
	if err := ps.err(CodeBadScore, "the deal has errors"); err != nil {
		return err
	}
	if s.setup.Movement != Knockout || t.decided != "" && t.decided != RulingTimeOut {
		return nil
	}
	totals := dealTotals(t.deals)
	totals[n-1] = [2]int{p.Deal.NS.Total, p.Deal.EW.Total}
	if err := s.checkKnockoutSheet(totals); err != nil {
		return err
	}
	at, _ := koScan(totals, s.setup.TargetScore)
	var ns, ew int
	for _, x := range totals {
		ns, ew = ns+x[0], ew+x[1]
	}
	undecided := at == 0 && (t.decided != RulingTimeOut || ns == ew)
	if r.status == RoundStatusClosed && undecided {
		return conflict(CodeKnockoutTied, "the correction leaves table %d without a winner in a closed round: reopen the round", t.Number)
	}
	return nil
}

func (p *ScoreCorrected) apply(s *State, e Event) {
	t, _ := s.rounds[p.Round-1].table(p.Table)
	d := &t.deals[p.Deal.Number-1]
	d.NS, d.EW, d.TimeOut = p.Deal.NS, p.Deal.EW, p.Deal.TimeOut
	d.Status, d.ConfirmedBy, d.ConfirmedAt = DealConfirmed, e.By, timePtr(e.At)
	d.Corrections++
	s.markTieBreaks(t)
	t.version = e.Seq
	for _, rd := range p.Redraws {
		r := s.rounds[rd.Round-1]
		r.tables = s.newTables(rd.Tables, e.Seq, rd.Round)
		r.byes = append([]int64(nil), rd.Byes...)
		r.bracket = append([]int64(nil), rd.Bracket...)
		r.draws++
		if rd.Rule != "" {
			r.rule = rd.Rule
		}
		r.redraw = &Redraw{At: e.At, Reason: e.Reason, Round: p.Round, Table: p.Table}
	}
}

// redraws fills a correction's consequences for later rounds. In a Danish
// (pure or modified) every round after the corrected one depends on its
// result: the latest, when its pairings are published and not yet played,
// is drawn again on the corrected standings; those being played or closed,
// and a round the referee set by hand, keep their pairings (KeptRounds). In a knockout a correction that changes
// a table's winner redraws the next round when it is only published, and is
// refused once that round is played.
func (s *State) redraws(p *ScoreCorrected) error {
	latest := s.latest()
	ko := s.setup.Movement == Knockout
	m := s.movementOf(latest.number)
	if latest.number <= p.Round || (!ko && m != Danish && m != ModifiedDanish) {
		return nil
	}
	cl := s.clone()
	p.apply(cl, Event{Seq: s.seq + 1})
	if ko {
		r, t := s.rounds[p.Round-1], mustTable(s.rounds[p.Round-1], p.Table)
		cr, ct := cl.rounds[p.Round-1], mustTable(cl.rounds[p.Round-1], p.Table)
		if s.result(r, t).Winner == cl.result(cr, ct).Winner {
			return nil
		}
		if latest.number != p.Round+1 || latest.status != RoundStatusPublished {
			return conflict(CodeKnockoutLocked, "the correction changes the winner of table %d, and round %d is already being played", p.Table, latest.number)
		}
	}
	for k := p.Round + 1; k < latest.number; k++ {
		p.KeptRounds = append(p.KeptRounds, k)
	}
	// A phase's first round keeps its groups and pairings: its seeding
	// may have been the director's hand, which a redraw cannot repeat.
	if latest.status != RoundStatusPublished || latest.overridden || s.seeds(latest.number) {
		p.KeptRounds = append(p.KeptRounds, latest.number)
		return nil
	}
	cl.rounds = cl.rounds[:len(cl.rounds)-1]
	cl.cache = new(standingsCache)
	rd, err := cl.draw(latest.number, nil)
	if err != nil {
		if ko {
			return err
		}
		p.KeptRounds = append(p.KeptRounds, latest.number)
		return nil
	}
	p.Redraws = []RoundDrawn{*rd}
	p.RedrawnRounds = []int{latest.number}
	return nil
}

func mustTable(r *round, n int) *table {
	t, _ := r.table(n)
	return t
}
