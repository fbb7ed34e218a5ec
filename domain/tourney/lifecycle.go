package tourney

import (
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/burraco/burraco/domain/pairing"
)

// needStatus refuses (bad_transition) unless the tournament is in one of
// the statuses.
func (s *State) needStatus(what string, allowed ...string) error {
	if slices.Contains(allowed, s.status) {
		return nil
	}
	return conflict(CodeBadTransition, "%s: not while the tournament is %s", what, s.status)
}

func needDirector(who Actor, what string) error {
	if !who.Director {
		return forbidden(CodeForbidden, "%s: only the club's admins", what)
	}
	return nil
}

func needStaff(who Actor, what string) error {
	if !who.staff() {
		return forbidden(CodeRefereeOnly, "%s: only the tournament's referees and the club's admins", what)
	}
	return nil
}

func (OpenRegistration) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needDirector(who, "opening registration"); err != nil {
		return nil, "", err
	}
	return &RegistrationOpened{}, "", nil
}

func (*RegistrationOpened) check(s *State) error {
	return s.needStatus("opening registration", StatusDraft, StatusRegistrationClosed)
}

func (*RegistrationOpened) apply(s *State, _ Event) { s.status = StatusRegistrationOpen }

func (CloseRegistration) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needDirector(who, "closing registration"); err != nil {
		return nil, "", err
	}
	return &RegistrationClosed{}, "", nil
}

func (*RegistrationClosed) check(s *State) error {
	return s.needStatus("closing registration", StatusRegistrationOpen)
}

func (*RegistrationClosed) apply(s *State, _ Event) { s.status = StatusRegistrationClosed }

// minEntries is the smallest field the event can start with.
func (s *State) minEntries() int {
	if s.setup.Kind == KindIndividual {
		return 4
	}
	return 2
}

func (Start) decide(s *State, who Actor, rnd pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "starting the tournament"); err != nil {
		return nil, "", err
	}
	if err := s.needStatus("starting", StatusRegistrationClosed); err != nil {
		return nil, "", err
	}
	p := &Started{Forbidden: s.Forbidden()}
	checkIn := slices.ContainsFunc(s.entries, func(e *Entry) bool { return !e.Withdrawn && e.CheckedIn })
	var playing []*Entry
	for _, e := range s.byNumber() {
		switch {
		case e.Withdrawn:
		case checkIn && !e.CheckedIn:
			p.Absent = append(p.Absent, e.ID)
		default:
			playing = append(playing, e)
		}
	}
	if len(playing) < s.minEntries() {
		return nil, "", conflict(CodeNotEnoughEntries, "%d entries to play; at least %d are needed", len(playing), s.minEntries())
	}
	order, err := s.scheduleOrder(playing, rnd)
	if err != nil {
		return nil, "", err
	}
	p.Order = order
	return p, "", nil
}

// scheduleOrder is the order of the fixed schedules: entries by number,
// and for a partial round robin with pairs to keep apart, the seating that
// keeps them apart in the rounds planned (when one is found).
func (s *State) scheduleOrder(playing []*Entry, rnd pairing.Rand) ([]int64, error) {
	if s.setup.Movement != Mitchell && s.setup.Movement != RoundRobin {
		return nil, nil
	}
	f := pairing.Field{Forbidden: s.forbidden, ForbidSameClub: s.setup.ForbidSameClub}
	for _, e := range playing {
		f.Entries = append(f.Entries, pairing.Entry{ID: e.ID, Club: e.Club, Seed: e.Seed})
	}
	if s.setup.Movement == Mitchell {
		tables := (len(playing) + 1) / 2
		if gcd(s.setup.MitchellStep, tables) != 1 {
			ps := problems{}
			ps.add("mitchell_step", POutOfRange, "a step of %d shares a factor with the %d tables: EW would not meet every NS pair", s.setup.MitchellStep, tables)
			return nil, ps.err(CodeInvalidSetup, "the Mitchell cannot be played with this field")
		}
	}
	rounds := s.setup.Rounds
	if rounds == 0 {
		rounds = roundRobinRounds(len(playing))
	}
	if s.setup.Movement == RoundRobin && (len(s.forbidden) > 0 || s.setup.ForbidSameClub) && rounds < len(playing)-1 {
		if seated, err := pairing.SeatRoundRobin(f, rounds, rnd); err == nil {
			f.Entries = seated
		}
	}
	order := make([]int64, len(f.Entries))
	for i, e := range f.Entries {
		order[i] = e.ID
	}
	return order, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (p *Started) check(s *State) error {
	if err := s.needStatus("starting", StatusRegistrationClosed); err != nil {
		return err
	}
	for _, id := range append(append([]int64(nil), p.Absent...), p.Order...) {
		if _, err := s.entry(id); err != nil {
			return err
		}
	}
	return nil
}

func (p *Started) apply(s *State, _ Event) {
	s.status = StatusRunning
	for _, id := range p.Absent {
		s.withdraw(s.entries[id-1])
	}
	s.order = p.Order
	s.schedForbidden = p.Forbidden
}

// byNumber is every entry in order of number (then id).
func (s *State) byNumber() []*Entry {
	out := append([]*Entry(nil), s.entries...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

func (Finish) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "finishing the tournament"); err != nil {
		return nil, "", err
	}
	return &Finished{}, "", nil
}

func (*Finished) check(s *State) error {
	if err := s.needStatus("finishing", StatusRunning); err != nil {
		return err
	}
	if len(s.rounds) == 0 {
		return conflict(CodeRoundOpen, "no round has been played")
	}
	for _, r := range s.rounds {
		if r.status != RoundStatusClosed {
			return conflict(CodeRoundOpen, "round %d is %s: close it first", r.number, r.status)
		}
	}
	return nil
}

func (*Finished) apply(s *State, _ Event) { s.status = StatusFinished }

func (PublishResults) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needDirector(who, "publishing the results"); err != nil {
		return nil, "", err
	}
	return &ResultsPublished{}, "", nil
}

func (*ResultsPublished) check(s *State) error {
	return s.needStatus("publishing the results", StatusFinished)
}

func (*ResultsPublished) apply(s *State, _ Event) { s.status = StatusResultsPublished }

func (c Cancel) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needDirector(who, "cancelling"); err != nil {
		return nil, "", err
	}
	if err := needReason(c.Reason); err != nil {
		return nil, "", err
	}
	return &Cancelled{}, c.Reason, nil
}

func (*Cancelled) check(s *State) error {
	return s.needStatus("cancelling", StatusDraft, StatusRegistrationOpen, StatusRegistrationClosed, StatusRunning)
}

func (*Cancelled) apply(s *State, e Event) {
	s.status = StatusCancelled
	s.cancelReason = e.Reason
}

// MaxReasonLength bounds a reason, in characters (as JSON Schema's
// maxLength counts them).
const MaxReasonLength = 1000

func needReason(reason string) error {
	var ps problems
	switch {
	case len(trimmed(reason)) == 0:
		ps.add("reason", PRequired, "a reason is required")
	case utf8.RuneCountInString(reason) > MaxReasonLength:
		ps.add("reason", POutOfRange, "a reason is at most %d characters", MaxReasonLength)
	}
	if len(ps) > 0 {
		return &Error{Kind: KindInvalid, Code: CodeReasonRequired, Message: "a reason is required", Problems: ps}
	}
	return nil
}
