package tourney

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/burraco/burraco/domain/pairing"
)

func trimmed(s string) string { return strings.TrimSpace(s) }

// MaxNameLength bounds an entry's name and club, in characters (as
// JSON Schema's maxLength counts them).
const MaxNameLength = 200

// playersPerEntry is how many players an entry fields: a pair at a 4-player
// table is two, at a 2-player table one; a team is TeamPairs of those; an
// individual entry is its player.
func (s *State) playersPerEntry() int {
	side := s.setup.PlayersPerTable / 2
	switch s.setup.Kind {
	case KindTeams:
		return s.setup.TeamPairs * side
	case KindIndividual:
		return 1
	}
	return side
}

// fixedSchedule reports whether the movement is fixed at the start (no late
// entries; a withdrawn entry's opponents get byes).
func (s *State) fixedSchedule() bool {
	switch s.setup.Movement {
	case Mitchell, RoundRobin, Knockout:
		return true
	}
	return false
}

func (c AddEntry) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if !who.staff() {
		if s.status != StatusRegistrationOpen {
			return nil, "", conflict(CodeBadTransition, "registration is not open")
		}
		if !slices.ContainsFunc(c.Players, func(p int64) bool { return slices.Contains(who.Players, p) }) {
			return nil, "", forbidden(CodeNotYours, "a player may enter only an entry they play in")
		}
		if err := c.staffFields(); err != nil {
			return nil, "", err
		}
	}
	e := Entry{ID: int64(len(s.entries) + 1), Number: c.Number, Seed: c.Seed, Name: trimmed(c.Name),
		Club: trimmed(c.Club), Players: append([]int64(nil), c.Players...), FeePaid: c.FeePaid}
	if e.Number == 0 {
		for _, x := range s.entries {
			e.Number = max(e.Number, x.Number)
		}
		e.Number++
	}
	if s.status == StatusRunning {
		e.FirstRound = len(s.rounds) + 1
		e.CheckedIn = true
	}
	return &EntryAdded{Entry: e}, "", nil
}

// staffFields refuses, from a player entering themself, the fields only
// the staff may set (as they alone may change them later): the fee paid,
// the seed and the number. Each is named in the refusal (issue 19).
func (c AddEntry) staffFields() error {
	var ps problems
	if c.FeePaid {
		ps.add("fee_paid", PNotAllowed, "whether the fee is paid is for the tournament's referees to say")
	}
	if c.Seed != 0 {
		ps.add("seed", PNotAllowed, "seeds are given by the tournament's referees")
	}
	if c.Number != 0 {
		ps.add("number", PNotAllowed, "numbers are given by the tournament's referees (absent: the next free one)")
	}
	return ps.err(CodeInvalidCommand, "a player entering themself may not set these fields")
}

func (p *EntryAdded) check(s *State) error {
	e := p.Entry
	switch s.status {
	case StatusDraft, StatusRegistrationOpen, StatusRegistrationClosed:
	case StatusRunning:
		if s.fixedSchedule() {
			return conflict(CodeLateEntryClosed, "a %s is fixed at the start: no late entries", s.setup.Movement)
		}
		if next := len(s.rounds) + 1; next > s.setup.LateEntryRound {
			return conflict(CodeLateEntryClosed, "entries close before round %d", next)
		}
	default:
		return conflict(CodeBadTransition, "no entries while the tournament is %s", s.status)
	}
	var ps problems
	s.checkEntryFields(&ps, e.Name, e.Club, e.Number, e.Seed)
	if e.ID != int64(len(s.entries)+1) {
		ps.add("id", POutOfRange, "the next entry is %d, not %d", len(s.entries)+1, e.ID)
	}
	if len(e.Players) != s.playersPerEntry() {
		ps.add("players", PBadCount, "an entry of this event has %d players, not %d", s.playersPerEntry(), len(e.Players))
	}
	seen := map[int64]bool{}
	for i, id := range e.Players {
		if id <= 0 || seen[id] {
			ps.add(fmt.Sprintf("players[%d]", i), PDuplicate, "player %d is not a player id, or is listed twice", id)
		}
		seen[id] = true
	}
	if err := ps.err(CodeInvalidCommand, "the entry is not valid"); err != nil {
		return err
	}
	for _, id := range e.Players {
		if other, ok := s.playerEntry[id]; ok {
			return conflict(CodeAlreadyEntered, "player %d already plays in entry %d", id, other)
		}
	}
	return s.uniqueNumber(e.Number, 0)
}

func (s *State) checkEntryFields(ps *problems, name, club string, number, seed int) {
	if utf8.RuneCountInString(name) > MaxNameLength {
		ps.add("name", POutOfRange, "a name is at most %d characters", MaxNameLength)
	}
	if utf8.RuneCountInString(club) > MaxNameLength {
		ps.add("club", POutOfRange, "a club is at most %d characters", MaxNameLength)
	}
	if number < 1 {
		ps.add("number", POutOfRange, "an entry's number is 1 or more")
	}
	if seed < 0 {
		ps.add("seed", POutOfRange, "a seed is 0 (unseeded) or more")
	}
}

// uniqueNumber refuses a number another entry (not self) holds.
func (s *State) uniqueNumber(n int, self int64) error {
	for _, x := range s.entries {
		if x.ID != self && x.Number == n {
			return conflict(CodeDuplicateNumber, "number %d is entry %d's", n, x.ID)
		}
	}
	return nil
}

func (p *EntryAdded) apply(s *State, _ Event) {
	e := p.Entry
	e.Players = append([]int64(nil), e.Players...)
	s.entries = append(s.entries, &e)
	for _, id := range e.Players {
		s.playerEntry[id] = e.ID
	}
}

func (c UpdateEntry) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "changing an entry"); err != nil {
		return nil, "", err
	}
	p := EntryUpdated(c)
	if p.Name != nil {
		n := trimmed(*p.Name)
		p.Name = &n
	}
	if p.Club != nil {
		n := trimmed(*p.Club)
		p.Club = &n
	}
	return &p, "", nil
}

func (p *EntryUpdated) check(s *State) error {
	if err := s.needStatus("changing an entry", StatusDraft, StatusRegistrationOpen, StatusRegistrationClosed, StatusRunning); err != nil {
		return err
	}
	e, err := s.entry(p.Entry)
	if err != nil {
		return err
	}
	var ps problems
	s.checkEntryFields(&ps, deref(p.Name, e.Name), deref(p.Club, e.Club), deref(p.Number, e.Number), deref(p.Seed, e.Seed))
	if err := ps.err(CodeInvalidCommand, "the entry is not valid"); err != nil {
		return err
	}
	if p.Number != nil {
		return s.uniqueNumber(*p.Number, e.ID)
	}
	return nil
}

func deref[T any](p *T, or T) T {
	if p == nil {
		return or
	}
	return *p
}

func (p *EntryUpdated) apply(s *State, _ Event) {
	e := s.entries[p.Entry-1]
	e.Name, e.Club = deref(p.Name, e.Name), deref(p.Club, e.Club)
	e.Number, e.Seed = deref(p.Number, e.Number), deref(p.Seed, e.Seed)
	e.FeePaid = deref(p.FeePaid, e.FeePaid)
}

// playsIn reports whether the actor is one of the entry's players.
func (who Actor) playsIn(e *Entry) bool {
	return slices.ContainsFunc(e.Players, func(p int64) bool { return slices.Contains(who.Players, p) })
}

func (c CheckIn) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	e, err := s.entry(c.Entry)
	if err != nil {
		return nil, "", err
	}
	if !who.staff() && !who.playsIn(e) {
		return nil, "", forbidden(CodeNotYours, "only the entry's players or the staff check it in")
	}
	return &CheckedIn{Entry: c.Entry, CheckedIn: !c.Undo}, "", nil
}

func (p *CheckedIn) check(s *State) error {
	if err := s.needStatus("checking in", StatusRegistrationOpen, StatusRegistrationClosed); err != nil {
		return err
	}
	e, err := s.entry(p.Entry)
	if err != nil {
		return err
	}
	if e.Withdrawn {
		return conflict(CodeWithdrawn, "entry %d has withdrawn", e.ID)
	}
	return nil
}

func (p *CheckedIn) apply(s *State, _ Event) { s.entries[p.Entry-1].CheckedIn = p.CheckedIn }

func (c Withdraw) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	e, err := s.entry(c.Entry)
	if err != nil {
		return nil, "", err
	}
	if !who.staff() && (s.status == StatusRunning || !who.playsIn(e)) {
		return nil, "", forbidden(CodeNotYours, "an entry withdraws through its players before the start, through the staff after")
	}
	p := &Withdrawn{Entry: e.ID, AfterRound: len(s.rounds)}
	if r := s.latest(); s.status == StatusRunning && r != nil && r.status != RoundStatusClosed {
		for _, t := range r.tables {
			if s.seated(t, e.ID) && t.decided == "" && !s.result(r, t).Complete {
				p.Round = r.number
				p.Forfeits = append(p.Forfeits, t.Number)
			}
		}
	}
	return p, trimmed(c.Reason), nil
}

func (p *Withdrawn) check(s *State) error {
	if err := s.needStatus("withdrawing", StatusDraft, StatusRegistrationOpen, StatusRegistrationClosed, StatusRunning); err != nil {
		return err
	}
	e, err := s.entry(p.Entry)
	if err != nil {
		return err
	}
	if e.Withdrawn {
		return conflict(CodeWithdrawn, "entry %d has already withdrawn", e.ID)
	}
	if p.AfterRound != len(s.rounds) {
		return conflict(CodeBadTransition, "withdrawal after round %d recorded when %d rounds are drawn", p.AfterRound, len(s.rounds))
	}
	if len(p.Forfeits) == 0 {
		return nil
	}
	r, err := s.round(p.Round)
	if err != nil {
		return err
	}
	for _, n := range p.Forfeits {
		t, err := r.table(n)
		if err != nil {
			return err
		}
		if !s.seated(t, e.ID) || t.decided != "" {
			return conflict(CodeTableDecided, "table %d cannot be forfeited by entry %d", n, e.ID)
		}
	}
	return nil
}

func (p *Withdrawn) apply(s *State, e Event) {
	s.withdraw(s.entries[p.Entry-1])
	if len(p.Forfeits) == 0 {
		return
	}
	r := s.rounds[p.Round-1]
	for _, n := range p.Forfeits {
		t, _ := r.table(n)
		t.decided, t.left, t.version = rulingWithdrawal, p.Entry, e.Seq
		t.rulings = append(t.rulings, RulingRecord{Seq: e.Seq, At: e.At, By: e.By, Kind: rulingWithdrawal, Entry: p.Entry, Reason: e.Reason})
	}
}

// withdraw marks an entry withdrawn after the rounds drawn so far and frees
// its players.
func (s *State) withdraw(e *Entry) {
	e.Withdrawn, e.WithdrawnAfter = true, len(s.rounds)
	for _, id := range e.Players {
		if s.playerEntry[id] == e.ID {
			delete(s.playerEntry, id)
		}
	}
}

// MaxForbiddenPairs bounds the pairs kept apart, in a command and in the
// list: a club keeps a few families apart, and every draw checks each
// pair. Within it, the list holds at most n(n-1)/2 pairs of n entries,
// as it holds each pair once and only pairs of entries.
const MaxForbiddenPairs = 500

// decide checks the pairs as given (the problems name their places in the
// command), then records what changes: a pair {a,b} is {b,a}, and a pair
// given twice is given once.
func (c SetForbidden) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needStaff(who, "setting forbidden pairs"); err != nil {
		return nil, "", err
	}
	if len(c.Pairs) > MaxForbiddenPairs {
		return nil, "", problems{{Field: "pairs", Code: PBadCount,
			Message: fmt.Sprintf("at most %d pairs", MaxForbiddenPairs)}}.err(CodeInvalidCommand, "too many forbidden pairs")
	}
	var ps problems
	for i, pr := range c.Pairs {
		for j, id := range pr {
			if _, err := s.entry(id); err != nil {
				ps.add(fmt.Sprintf("pairs[%d][%d]", i, j), PUnknown, "%d is not an entry", id)
			}
		}
		if pr[0] == pr[1] {
			ps.add(fmt.Sprintf("pairs[%d]", i), PDuplicate, "an entry cannot be kept apart from itself")
		}
	}
	if err := ps.err(CodeInvalidCommand, "the forbidden pairs are not valid"); err != nil {
		return nil, "", err
	}
	return forbiddenChange(s.forbidden, normalPairs(c.Pairs)), trimmed(c.Reason), nil
}

// normalPairs is the set of pairs given: each as {low, high}, once, in
// the order first given.
func normalPairs(pairs [][2]int64) [][2]int64 {
	out := make([][2]int64, 0, len(pairs))
	seen := make(map[[2]int64]bool, len(pairs))
	for _, p := range pairs {
		p = normalPair(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func normalPair(p [2]int64) [2]int64 {
	if p[0] > p[1] {
		p[0], p[1] = p[1], p[0]
	}
	return p
}

// forbiddenChange is the event from the list old to the list next: the
// pairs added and removed, so that the audit trail says what changed
// rather than repeating the list.
func forbiddenChange(old, next [][2]int64) *ForbiddenSet {
	p := &ForbiddenSet{Added: [][2]int64{}, Removed: [][2]int64{}}
	for _, q := range next {
		if !slices.Contains(old, q) {
			p.Added = append(p.Added, q)
		}
	}
	for _, q := range old {
		if !slices.Contains(next, q) {
			p.Removed = append(p.Removed, q)
		}
	}
	return p
}

func (p *ForbiddenSet) check(s *State) error {
	if err := s.needStatus("setting forbidden pairs", StatusDraft, StatusRegistrationOpen, StatusRegistrationClosed, StatusRunning); err != nil {
		return err
	}
	if p.Pairs != nil {
		return p.checkList(s)
	}
	var ps problems
	for i, pr := range p.Added {
		for j, id := range pr {
			if _, err := s.entry(id); err != nil {
				ps.add(fmt.Sprintf("added[%d][%d]", i, j), PUnknown, "%d is not an entry", id)
			}
		}
		if pr[0] >= pr[1] || slices.Contains(s.forbidden, pr) || slices.Contains(p.Added[:i], pr) {
			ps.add(fmt.Sprintf("added[%d]", i), PDuplicate, "not a new pair, low id first")
		}
	}
	for i, pr := range p.Removed {
		if !slices.Contains(s.forbidden, pr) || slices.Contains(p.Removed[:i], pr) {
			ps.add(fmt.Sprintf("removed[%d]", i), PUnknown, "not a pair of the list")
		}
	}
	if len(s.forbidden)+len(p.Added)-len(p.Removed) > MaxForbiddenPairs {
		ps.add("added", PBadCount, "the list would hold more than %d pairs", MaxForbiddenPairs)
	}
	return ps.err(CodeInvalidCommand, "the forbidden pairs are not valid")
}

// checkList checks an event of the first form, which gave the whole list
// (possibly with repeats, which apply drops).
func (p *ForbiddenSet) checkList(s *State) error {
	var ps problems
	for i, pr := range p.Pairs {
		for j, id := range pr {
			if _, err := s.entry(id); err != nil {
				ps.add(fmt.Sprintf("pairs[%d][%d]", i, j), PUnknown, "%d is not an entry", id)
			}
		}
		if pr[0] == pr[1] {
			ps.add(fmt.Sprintf("pairs[%d]", i), PDuplicate, "an entry cannot be kept apart from itself")
		}
	}
	return ps.err(CodeInvalidCommand, "the forbidden pairs are not valid")
}

func (p *ForbiddenSet) apply(s *State, _ Event) {
	if p.Pairs != nil {
		s.forbidden = normalPairs(p.Pairs)
		return
	}
	next := make([][2]int64, 0, len(s.forbidden)+len(p.Added))
	for _, q := range s.forbidden {
		if !slices.Contains(p.Removed, q) {
			next = append(next, q)
		}
	}
	s.forbidden = append(next, p.Added...)
}
