package domain

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/burraco/burraco/domain/tourney"
)

// tournamentStates keeps the fold of each tournament's log in memory, so
// that a command or a read replays only the events it has not seen (those
// another process appended). A state is rebuilt from the whole log when the
// tournament's set-up changed (while it is not yet running, PATCH may
// change it) or after a failed commit.
type tournamentStates struct {
	mu sync.Mutex
	m  map[int64]*tournamentCell
}

func newTournamentStates() *tournamentStates {
	return &tournamentStates{m: make(map[int64]*tournamentCell)}
}

// cell returns the tournament's cell, creating it.
func (c *tournamentStates) cell(id int64) *tournamentCell {
	c.mu.Lock()
	defer c.mu.Unlock()
	cell, ok := c.m[id]
	if !ok {
		cell = &tournamentCell{id: id}
		c.m[id] = cell
	}
	return cell
}

// tournamentCell is one tournament's state. Its mutex guards everything:
// the tourney.State is not safe for concurrent use.
type tournamentCell struct {
	mu    sync.Mutex
	id    int64
	setup string // the JSON of the set-up the state was built with
	state *tourney.State

	// snap and players are the readable state at snapSeq, shared by readers.
	snap    *tourney.Snapshot
	snapSeq int64
	players map[int64]string
}

func (c *tournamentCell) reset() {
	c.setup, c.state, c.snap, c.snapSeq, c.players = "", nil, nil, -1, nil
}

// catchUp brings the state up to the tournament's version, rebuilding it
// when the set-up changed.
func (c *tournamentCell) catchUp(tx Tx, t Tournament) error {
	setup, err := setupKey(t)
	if err != nil {
		return err
	}
	if c.state == nil || c.setup != setup {
		st, err := newState(t)
		if err != nil {
			return err
		}
		c.setup, c.state, c.snap, c.snapSeq = setup, st, nil, -1
	}
	if err := applyLog(tx, t, c.state); err != nil {
		c.reset()
		return err
	}
	return nil
}

// setupKey identifies the set-up a state is built with: the JSON of the
// tourney package's Setup.
func setupKey(t Tournament) (string, error) {
	b, err := json.Marshal(tourneyConfig(t))
	return string(b), err
}

// newState is the state of the tournament before its first event.
func newState(t Tournament) (*tourney.State, error) {
	st, err := tourney.New(tourneyConfig(t))
	if err != nil {
		return nil, fmt.Errorf("tournament %d: its stored set-up: %w", t.ID, err)
	}
	return st, nil
}

// applyLog applies to st the events of t's log after st's, as tx sees
// them, up to t.Version.
func applyLog(tx Tx, t Tournament, st *tourney.State) error {
	if st.Seq() >= t.Version {
		return nil
	}
	recs, err := tx.TournamentEvents().After(t.ID, st.Seq())
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := st.Apply(eventOf(r)); err != nil {
			return fmt.Errorf("tournament %d: replaying its log: %w", t.ID, err)
		}
	}
	return nil
}

// read is the tournament with its readable state, computed once per
// version.
func (c *tournamentCell) read(tx Tx, t Tournament) (TournamentRead, error) {
	if c.snap == nil || c.snapSeq != c.state.Seq() {
		snap, err := c.state.Snapshot()
		if err != nil {
			return TournamentRead{}, fmt.Errorf("tournament %d: its state: %w", t.ID, err)
		}
		names, err := tx.Players().Names(playersOf(snap.Entries))
		if err != nil {
			return TournamentRead{}, err
		}
		c.snap, c.snapSeq, c.players = &snap, c.state.Seq(), names
	}
	t.Version = c.snapSeq
	return TournamentRead{Tournament: t, Snapshot: c.snap, Players: c.players}, nil
}

func playersOf(entries []tourney.Entry) []int64 {
	var ids []int64
	for _, e := range entries {
		ids = append(ids, e.Players...)
	}
	return ids
}

// tourneyConfig is what the tournament's log is folded under: its frame
// and its set-up, as stored.
func tourneyConfig(t Tournament) tourney.Config {
	return tourney.Config{Kind: string(t.Kind), PlayersPerTable: t.PlayersPerTable, DealsPerRound: t.DealsPerRound,
		Rules: string(t.Rules), RoundUp10: roundsUpTo10(t), LotsSeed: t.LotsSeed,
		Online: t.PlayedOnline(), Setup: t.Setup}
}

// roundsUpTo10 reports whether the tournament's options round a side's
// deal total up to a multiple of 10 (the Brazilian round_up_10).
func roundsUpTo10(t Tournament) bool {
	var o struct {
		RoundUp10 bool `json:"round_up_10"`
	}
	_ = json.Unmarshal(t.Options, &o)
	return o.RoundUp10
}

// forked is a private copy of a tournament's state, for a command to be
// decided and applied on inside its transaction, and its readable state.
type forked struct {
	setup   string
	state   *tourney.State
	snap    *tourney.Snapshot
	players map[int64]string
}

// fork copies the cell's state (which holds committed events only) and
// catches the copy up inside tx, with what tx sees.
func (c *tournamentCell) fork(tx Tx, t Tournament) (*forked, error) {
	setup, err := setupKey(t)
	if err != nil {
		return nil, err
	}
	f := &forked{setup: setup}
	c.mu.Lock()
	if c.state != nil && c.setup == f.setup && c.state.Seq() <= t.Version {
		f.state = c.state.Clone()
	}
	c.mu.Unlock()
	if f.state == nil {
		if f.state, err = newState(t); err != nil {
			return nil, err
		}
	}
	return f, applyLog(tx, t, f.state)
}

// read is the tournament with the fork's readable state.
func (f *forked) read(tx Tx, t Tournament) (TournamentRead, error) {
	snap, err := f.state.Snapshot()
	if err != nil {
		return TournamentRead{}, fmt.Errorf("tournament %d: its state: %w", t.ID, err)
	}
	names, err := tx.Players().Names(playersOf(snap.Entries))
	if err != nil {
		return TournamentRead{}, err
	}
	f.snap, f.players = &snap, names
	t.Version = f.state.Seq()
	return TournamentRead{Tournament: t, Snapshot: f.snap, Players: f.players}, nil
}

// publish makes a committed fork the cell's state, unless the cell has
// moved past it meanwhile.
func (c *tournamentCell) publish(f *forked) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != nil && c.setup == f.setup && c.state.Seq() >= f.state.Seq() {
		return
	}
	c.setup, c.state = f.setup, f.state
	c.snap, c.snapSeq, c.players = f.snap, f.state.Seq(), f.players
	if c.snap == nil {
		c.snapSeq = -1
	}
}
