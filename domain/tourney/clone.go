package tourney

import (
	"maps"
	"slices"
)

// clone is a deep copy, for trying a command's consequences (a correction's
// redraw) without touching the state.
func (s *State) clone() *State {
	c := &State{setup: s.setup, seq: s.seq, status: s.status, cancelReason: s.cancelReason,
		playerEntry: maps.Clone(s.playerEntry), forbidden: slices.Clone(s.forbidden),
		schedForbidden: slices.Clone(s.schedForbidden), order: slices.Clone(s.order),
		penalties: slices.Clone(s.penalties), seatings: maps.Clone(s.seatings), cache: new(standingsCache)}
	c.entries = make([]*Entry, len(s.entries))
	for i, e := range s.entries {
		x := copyEntry(e)
		c.entries[i] = &x
	}
	c.rounds = make([]*round, len(s.rounds))
	for i, r := range s.rounds {
		x := *r
		x.byes, x.bracket = slices.Clone(r.byes), slices.Clone(r.bracket)
		x.tables = make([]*table, len(r.tables))
		for j, t := range r.tables {
			y := *t
			y.deals, y.rulings = slices.Clone(t.deals), slices.Clone(t.rulings)
			x.tables[j] = &y
		}
		c.rounds[i] = &x
	}
	return c
}

// Clone is a deep copy of the state: events applied to it leave s as it
// was. The service decides and applies a command on a clone inside its
// transaction and shares the clone with readers only once the transaction
// has committed, so that no reader sees an event that could still roll
// back. The set-up is shared: nothing changes it after New.
func (s *State) Clone() *State { return s.clone() }
