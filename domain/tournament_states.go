package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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

	// snap is the readable state at snapSeq, shared by readers; names
	// names its players.
	snap    *tourney.Snapshot
	snapSeq int64
	names   playerNames
	// tournament is the tournament's row as it was at snapSeq (ID 0 when
	// not known): with a stamp kept in memory that has its version and
	// last update, a read of a public tournament needs no query (readKept).
	tournament Tournament
	// tent is the state after this process's latest command, which may
	// not have committed yet (see tentative).
	tent *tentative
}

// tentative is a command's state, kept from the end of its transaction,
// before its commit, with the events it folded since base (a state of the
// cell: committed). On SQLite the commands that queue for the writer share
// one transaction (store: batch.go), and each, forking the cell's state
// (which only committed events reach), would otherwise fold again from the
// log those of the commands before it. A fork starts from it only when the
// log it reads after base holds exactly these events: a command rolled
// back left none, another's under the same numbers differ, so that it is
// always the fold of the log the fork reads. Its state is never changed:
// forks clone it (under the cell's mutex, as they clone the cell's).
type tentative struct {
	setup string
	base  int64
	recs  []TournamentEventRecord
	state *tourney.State
}

func (c *tournamentCell) reset() {
	c.setup, c.state, c.snap, c.snapSeq, c.names, c.tournament, c.tent = "", nil, nil, -1, playerNames{}, Tournament{}, nil
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
		c.setup, c.state, c.snap, c.snapSeq, c.tournament = setup, st, nil, -1, Tournament{}
	}
	if c.tent != nil && c.tent.state == c.state && c.state.Seq() < t.Version {
		c.tent = nil // its state, published, is about to change in place
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
// version. t is the tournament's row as tx read it: kept for readKept when
// it is the row of the state's version.
func (c *tournamentCell) read(tx Tx, t Tournament) (TournamentRead, error) {
	if c.snap == nil || c.snapSeq != c.state.Seq() {
		names, err := c.names.of(tx, c.state)
		if err != nil {
			return TournamentRead{}, err
		}
		snap, err := c.state.Snapshot()
		if err != nil {
			return TournamentRead{}, fmt.Errorf("tournament %d: its state: %w", t.ID, err)
		}
		c.snap, c.snapSeq, c.names, c.tournament = &snap, c.state.Seq(), names, Tournament{}
	}
	if t.Version == c.snapSeq {
		c.tournament = t
	}
	t.Version = c.snapSeq
	return TournamentRead{Tournament: t, Snapshot: c.snap, Players: c.names.names}, nil
}

// readKept is the tournament's readable state when the stamp st (kept in
// memory while the feed is heard, public: see tournamentStamps) proves it
// current: the row kept with the state has st's version and last update
// (every change of the row moves one of them). Without a proof it reports
// false, for a read from the database.
func (c *tournamentCell) readKept(st TournamentStamp) (TournamentRead, bool) {
	t := c.tournament
	if c.snap == nil || c.snapSeq != st.Version || t.ID != st.ID || t.Version != st.Version ||
		t.UpdatedAt.UnixMicro() != st.UpdatedAt.UnixMicro() || !st.Public {
		return TournamentRead{}, false
	}
	return TournamentRead{Tournament: t, Snapshot: c.snap, Players: c.names.names}, true
}

// playerNames are the names of a tournament's players, read once a round:
// a read or a command of the same players in the same round reuses them
// (the statement names every player of the tournament: it cost a score
// entry a sixth of its time). A player renamed while a round is played is
// named anew from the next round drawn, or the next change of the entries.
type playerNames struct {
	players []int64 // tourney.State.Players when read
	round   int     // the round current when read
	names   map[int64]string
}

// of is the names of st's players: these, or read in tx when the players
// or the round changed.
func (n playerNames) of(tx Tx, st *tourney.State) (playerNames, error) {
	players := st.Players()
	if n.names != nil && n.round == st.CurrentRound() && slices.Equal(n.players, players) {
		return n, nil
	}
	names, err := tx.Players().Names(players)
	if err != nil {
		return playerNames{}, err
	}
	return playerNames{players: players, round: st.CurrentRound(), names: names}, nil
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
	setup string
	state *tourney.State
	// base and recs: state is the fold of the cell's state at base (0:
	// none) and recs, for a tentative; recs nil with keep false when not
	// known.
	base  int64
	recs  []TournamentEventRecord
	known bool
	snap  *tourney.Snapshot
	names playerNames
	// tournament is the tournament's row after the command (ID 0 when not
	// known), for the cell to keep with the state.
	tournament Tournament
}

// fork copies the cell's state (which holds committed events only), or
// the tentative state of a command before it in tx, and catches the copy
// up inside tx, with what tx sees.
func (c *tournamentCell) fork(tx Tx, t Tournament) (*forked, error) {
	setup, err := setupKey(t)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	base := int64(0)
	if c.state != nil && c.setup == setup && c.state.Seq() <= t.Version {
		base = c.state.Seq()
	}
	c.mu.Unlock()
	var recs []TournamentEventRecord // the log after base, read outside the mutex
	if base < t.Version {
		if recs, err = tx.TournamentEvents().After(t.ID, base); err != nil {
			return nil, err
		}
	}
	f := &forked{setup: setup}
	c.mu.Lock()
	rest := c.start(f, t, base, recs)
	c.mu.Unlock()
	if f.state == nil { // the cell moved to another set-up meanwhile
		if f.state, err = newState(t); err != nil {
			return nil, err
		}
		f.known = true
		if recs, err = tx.TournamentEvents().After(t.ID, 0); err != nil {
			return nil, err
		}
		rest = recs
	}
	for _, r := range rest {
		if err := f.state.Apply(eventOf(r)); err != nil {
			return nil, fmt.Errorf("tournament %d: replaying its log: %w", t.ID, err)
		}
	}
	f.recs = append(f.recs, rest...)
	return f, nil
}

// start gives f a copy of the tentative state, when recs (the log after
// base) holds its events, else of the cell's state, and returns the events
// of recs the copy has still to fold; f.state is nil when neither will do
// (c.mu held).
func (c *tournamentCell) start(f *forked, t Tournament, base int64, recs []TournamentEventRecord) []TournamentEventRecord {
	if tent := c.tent; tent != nil && tent.setup == f.setup && tent.base >= base && tent.state.Seq() <= t.Version {
		if from := tent.base - base; from+int64(len(tent.recs)) <= int64(len(recs)) &&
			sameEvents(recs[from:from+int64(len(tent.recs))], tent.recs) {
			f.state, f.names, f.base, f.known = tent.state.Clone(), c.names, tent.base, true
			f.recs = slices.Clone(tent.recs)
			return recs[from+int64(len(tent.recs)):]
		}
	}
	if c.state == nil || c.setup != f.setup || c.state.Seq() < base || c.state.Seq() > t.Version {
		return nil
	}
	f.state, f.names, f.base, f.known = c.state.Clone(), c.names, c.state.Seq(), true
	i := 0
	for i < len(recs) && recs[i].Seq <= f.base {
		i++
	}
	return recs[i:]
}

// sameEvents reports whether two runs of a log's events are the same.
func sameEvents(a, b []TournamentEventRecord) bool {
	return slices.EqualFunc(a, b, func(x, y TournamentEventRecord) bool {
		return x.Seq == y.Seq && x.At.Equal(y.At) && x.By == y.By && x.Kind == y.Kind &&
			x.Reason == y.Reason && bytes.Equal(x.Data, y.Data)
	})
}

// keep makes f, the state of a command about to commit whose events are
// f.recs' last ones, the cell's tentative state.
func (c *tournamentCell) keep(f *forked) {
	if !f.known {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tent = &tentative{setup: f.setup, base: f.base, recs: f.recs, state: f.state}
}

// name reads, in tx, the names of the fork's players that it does not
// have yet: what read needs of the database.
func (f *forked) name(tx Tx) error {
	var err error
	f.names, err = f.names.of(tx, f.state)
	return err
}

// read is the tournament t, as it is after the fork's events, with the
// fork's readable state (named by name first). It needs no transaction:
// a command computes it after its commit, not while it holds the writer.
func (f *forked) read(t Tournament) (TournamentRead, error) {
	snap, err := f.state.Snapshot()
	if err != nil {
		return TournamentRead{}, fmt.Errorf("tournament %d: its state: %w", t.ID, err)
	}
	t.Version = f.state.Seq()
	f.snap, f.tournament = &snap, t
	return TournamentRead{Tournament: t, Snapshot: f.snap, Players: f.names.names}, nil
}

// publish makes a committed fork the cell's state, unless the cell has
// moved past it meanwhile.
func (c *tournamentCell) publish(f *forked) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != nil && c.setup == f.setup && c.state.Seq() >= f.state.Seq() {
		return
	}
	c.setup, c.state, c.names = f.setup, f.state, f.names
	c.snap, c.snapSeq, c.tournament = f.snap, f.state.Seq(), f.tournament
	if c.snap == nil {
		c.snapSeq, c.tournament = -1, Tournament{}
	}
}

// readIn is tournament t's readable state as tx sees it, computed once per
// version (the seasons' rankings read their tournaments' standings so).
func (s *tournamentPlayService) readIn(tx Tx, t Tournament) (TournamentRead, error) {
	t.Options = storedOptions(t.Rules, t.Options) // as Read and Act keep it
	cell := s.states.cell(t.ID)
	cell.mu.Lock()
	defer cell.mu.Unlock()
	if err := cell.catchUp(tx, t); err != nil {
		return TournamentRead{}, err
	}
	return cell.read(tx, t)
}
