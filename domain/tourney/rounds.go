package tourney

import (
	"fmt"
	"slices"
	"strings"

	"github.com/burraco/burraco/domain/pairing"
)

func (c DrawRound) decide(s *State, who Actor, rnd pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "drawing a round"); err != nil {
		return nil, "", err
	}
	if err := s.canDraw(c.Round); err != nil {
		return nil, "", err
	}
	var p *RoundDrawn
	var err error
	switch {
	case s.phased():
		p, err = s.drawPhase(c.Round, c.Groups, rnd)
	case c.Groups != nil:
		err = groupsProblem("groups", PNotAllowed, "the tournament is not set up in phases with groups")
	default:
		p, err = s.draw(c.Round, rnd)
	}
	if err != nil {
		return nil, "", err
	}
	return p, "", nil
}

func (p *RoundDrawn) check(s *State) error {
	if err := s.canDraw(p.Round); err != nil {
		return err
	}
	if err := s.checkLayout(p.Tables, p.Byes); err != nil {
		return err
	}
	return s.checkSeating(p.Round, p.Groups, p.Tables)
}

func (p *RoundDrawn) apply(s *State, e Event) {
	s.seed(p.Round, p.Groups)
	s.rounds = append(s.rounds, &round{number: p.Round, status: RoundStatusPublished,
		tables: s.newTables(p.Tables, e.Seq, p.Round), byes: append([]int64(nil), p.Byes...),
		bracket: append([]int64(nil), p.Bracket...), draws: 1, rule: p.Rule, phase: s.phaseOf(p.Round)})
}

// seed records a phase's groups, given by the draw of its first round.
func (s *State) seed(n int, groups []Group) {
	if len(groups) > 0 {
		s.seatings[s.phaseOf(n)] = cloneGroups(groups)
	}
}

func (c OverridePairings) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "overriding pairings"); err != nil {
		return nil, "", err
	}
	if err := needReason(c.Reason); err != nil {
		return nil, "", err
	}
	replaced := c.Round == len(s.rounds)
	if err := s.canOverride(c.Round, replaced); err != nil {
		return nil, "", err
	}
	var layout []TableLayout
	if s.setup.Kind == KindIndividual {
		r := pairing.IndividualRound{Tables: c.Foursomes, Byes: c.Byes}
		if ps := pairing.ValidateIndividualRound(s.individualField(c.Round), r); ps != nil {
			return nil, "", overrideProblems(ps, "foursomes", func(i int) int { return c.Foursomes[i].Number }, len(c.Foursomes))
		}
		layout = foursomeLayout(c.Foursomes)
	} else {
		r := pairing.Round{Tables: c.Tables, Byes: c.Byes}
		if ps := pairing.ValidateRound(s.searchField(c.Round), r); ps != nil {
			return nil, "", overrideProblems(ps, "tables", func(i int) int { return c.Tables[i].Number }, len(c.Tables))
		}
		layout = s.layout(r)
	}
	p := &PairingsOverridden{Round: c.Round, Tables: layout, Byes: append([]int64(nil), c.Byes...), Replaced: replaced}
	groups, err := s.overrideGroups(c, replaced)
	if err != nil {
		return nil, "", err
	}
	p.Groups = groups
	if err := s.checkSeating(c.Round, groups, layout); err != nil {
		return nil, "", err
	}
	return p, trimmed(c.Reason), nil
}

// overrideProblems turns the pairing package's problems into field
// problems: tables[i] (or foursomes[i]) by table number, else byes.
func overrideProblems(ps pairing.Problems, field string, numberAt func(int) int, n int) error {
	index := func(number int) int {
		for i := range n {
			if numberAt(i) == number {
				return i
			}
		}
		return -1
	}
	var out problems
	for _, p := range ps {
		f := "byes"
		if p.Table != 0 {
			f = fmt.Sprintf("%s[%d]", field, index(p.Table))
		} else if p.Code == pairing.ProblemMissing {
			f = field
		}
		out.add(f, p.Code, "%s", p.Message)
	}
	return out.err(CodeBadPairings, "the pairings are not valid")
}

// canOverride: the next round (instead of a draw), or the current one while
// its pairings are published and no score is in.
func (s *State) canOverride(n int, replaced bool) error {
	if s.setup.Movement == Knockout {
		return conflict(CodeOverrideKnockout, "a knockout's tables follow its bracket")
	}
	if !replaced {
		return s.canDraw(n)
	}
	if err := s.needStatus("overriding pairings", StatusRunning); err != nil {
		return err
	}
	r := s.latest()
	if r == nil || r.status != RoundStatusPublished {
		return conflict(CodeRoundHasScores, "round %d is being played: its pairings stay", n)
	}
	return nil
}

func (p *PairingsOverridden) check(s *State) error {
	if err := s.canOverride(p.Round, p.Replaced); err != nil {
		return err
	}
	if err := s.checkLayout(p.Tables, p.Byes); err != nil {
		return err
	}
	return s.checkSeating(p.Round, p.Groups, p.Tables)
}

func (p *PairingsOverridden) apply(s *State, e Event) {
	s.seed(p.Round, p.Groups)
	tables := s.newTables(p.Tables, e.Seq, p.Round)
	if p.Replaced {
		r := s.rounds[p.Round-1]
		r.tables, r.byes, r.overridden, r.rule = tables, append([]int64(nil), p.Byes...), true, RuleManual
		return
	}
	s.rounds = append(s.rounds, &round{number: p.Round, status: RoundStatusPublished, tables: tables,
		byes: append([]int64(nil), p.Byes...), draws: 1, overridden: true, rule: RuleManual, phase: s.phaseOf(p.Round)})
}

// roundIn is round n when the tournament is running and the round in one of
// the statuses.
func (s *State) roundIn(n int, what string, statuses ...string) (*round, error) {
	if err := s.needStatus(what, StatusRunning); err != nil {
		return nil, err
	}
	r, err := s.round(n)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(statuses, r.status) {
		return nil, conflict(CodeRoundNotPlaying, "%s: round %d is %s", what, n, r.status)
	}
	return r, nil
}

func (c StartRound) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "starting a round"); err != nil {
		return nil, "", err
	}
	return &RoundStarted{Round: c.Round}, "", nil
}

func (p *RoundStarted) check(s *State) error {
	_, err := s.roundIn(p.Round, "starting a round", RoundStatusPublished)
	return err
}

func (p *RoundStarted) apply(s *State, e Event) {
	r := s.rounds[p.Round-1]
	r.status, r.startedAt = RoundStatusPlaying, e.At
}

func (c CloseRound) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "closing a round"); err != nil {
		return nil, "", err
	}
	return &RoundClosed{Round: c.Round}, "", nil
}

func (p *RoundClosed) check(s *State) error {
	r, err := s.roundIn(p.Round, "closing a round", RoundStatusPlaying)
	if err != nil {
		return err
	}
	var missing []string
	for _, t := range r.tables {
		if !s.result(r, t).Final {
			missing = append(missing, fmt.Sprint(t.Number))
		}
	}
	if missing != nil {
		return conflict(CodeTableIncomplete, "round %d: tables %s lack a confirmed result or a ruling", p.Round, strings.Join(missing, ", "))
	}
	return nil
}

func (p *RoundClosed) apply(s *State, _ Event) { s.rounds[p.Round-1].status = RoundStatusClosed }

func (c ReopenRound) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "reopening a round"); err != nil {
		return nil, "", err
	}
	if err := needReason(c.Reason); err != nil {
		return nil, "", err
	}
	return &RoundReopened{Round: c.Round}, trimmed(c.Reason), nil
}

func (p *RoundReopened) check(s *State) error {
	if _, err := s.roundIn(p.Round, "reopening a round", RoundStatusClosed); err != nil {
		return err
	}
	if p.Round != len(s.rounds) {
		return conflict(CodeNotLatestRound, "round %d is followed by round %d: only the latest round reopens", p.Round, len(s.rounds))
	}
	return nil
}

func (p *RoundReopened) apply(s *State, _ Event) {
	r := s.rounds[p.Round-1]
	r.status = RoundStatusPlaying
	r.reopened++
}
