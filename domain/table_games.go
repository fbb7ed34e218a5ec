package domain

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/burraco/burraco/engine"
)

// maxCachedGames bounds the running games a process keeps parsed: past it
// the cache starts over (a miss only costs a parse).
const maxCachedGames = 10_000

// maxClosedGames bounds the entries of finished and cancelled tables among
// them (keepRead): the oldest goes first.
const maxClosedGames = 1024

// gameCache keeps, per playing table, the running deal as the last move
// this process committed (or the last state read) left it: the parsed
// engine.Game, the deal row and the finished deals' scores. A move or a
// state read then skips reading the deals, parsing the stored position and
// replaying the moves logged after it. An entry is only used when the
// table's version, read in the caller's own transaction (under the row lock
// for a move), is the version the entry was stored at: any change by
// another path or another process bumps the version, so a stale entry is
// never played on nor shown.
//
// State reads share an entry (view): the polls one move wakes, a seat's
// each, make their views from the same parsed game. A move takes the entry
// for itself (take) and puts back the game it moved on.
type gameCache struct {
	mu sync.Mutex
	m  map[int64]*cachedGame
	// closed is a ring of the tables whose entries are a closed table's
	// (keepRead), next its oldest.
	closed [maxClosedGames]int64
	next   int
}

type cachedGame struct {
	version int64
	p       playing // p.t is nil: the table is read under the lock each time
	// readers is held for reading while a view is made from p, and for
	// writing by take, who marks the entry taken: from then on p is the
	// taker's to change, and no view reads it.
	readers sync.RWMutex
	taken   bool
	// claimed is set (under the cache's mu) while a move played in
	// memory on a copy holds the entry (claim): a second such move of the
	// table goes through InTx. Views go on reading the entry meanwhile.
	claimed bool
	// closedTable: the entry is a finished or cancelled table's last deal
	// (keepRead), dropped when maxClosedGames newer ones are kept.
	closedTable bool
}

func newGameCache() *gameCache { return &gameCache{m: make(map[int64]*cachedGame)} }

// view returns what seat sees of table t from the entry stored at t's
// version and deal, and false when there is none.
func (c *gameCache) view(t Table, seat int) (TableState, bool) {
	c.mu.Lock()
	e := c.m[t.ID]
	c.mu.Unlock()
	if e == nil || e.version != t.Version || e.p.deal.Number != t.DealNumber {
		return TableState{}, false
	}
	e.readers.RLock()
	defer e.readers.RUnlock()
	if e.taken {
		return TableState{}, false
	}
	return playedState(t, seat, &e.p), true
}

// version returns the version the entry of table id was stored at.
func (c *gameCache) version(id int64) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[id]
	if e == nil {
		return 0, false
	}
	return e.version, true
}

// take removes and returns the entry of table t if it was stored at t's
// version, or at an older version of the same deal (behind is then true:
// moves made since, by another process or another path, are to be caught
// up); taken, it belongs to the caller alone (a concurrent move of the same
// table parses its own), who puts it back after a commit.
func (c *gameCache) take(t *Table) (p *playing, behind, ok bool) {
	c.mu.Lock()
	e := c.m[t.ID]
	if e != nil {
		delete(c.m, t.ID)
	}
	c.mu.Unlock()
	if e == nil {
		return nil, false, false
	}
	e.readers.Lock() // wait for the views being made from it
	e.taken = true
	e.readers.Unlock()
	if e.version > t.Version || e.p.deal.Number != t.DealNumber {
		return nil, false, false
	}
	p = &e.p
	p.t = t
	return p, e.version < t.Version, true
}

// running returns the running deal of table t as of t.Version, read in tx:
// the cached one when it is at that version; the cached one caught up with
// the moves logged since, when it is behind in the same deal; else read
// from the rows.
func (s *tableMatch) running(tx Tx, t *Table) (*playing, error) {
	p, behind, ok := s.games.take(t)
	if !ok {
		return load(tx, t)
	}
	if behind {
		if caught, err := p.catchUpFrom(tx); err != nil || !caught {
			return load(tx, t)
		}
	}
	return p, nil
}

// catchUpFrom brings a cached deal up to date with the moves logged after
// it, instead of parsing the stored position and replaying from there (a
// table moved by another server process, issue 19). It reports false when
// the deal changed otherwise (a time-out called, the position stored past
// what the log holds): the caller reads the rows.
func (p *playing) catchUpFrom(tx Tx) (bool, error) {
	d, moves, err := tx.Tables().DealFrom(p.t.ID, p.deal.Number, p.deal.Moves)
	if err != nil {
		return false, err
	}
	if !sameTimeOut(d.TimeOutAt, p.deal.TimeOutAt) || d.EndedAt != nil || d.Moves < p.saved {
		return false, nil
	}
	played := p.deal.Moves
	for _, m := range moves {
		if m.Index != played {
			return false, nil
		}
		var mv engine.Move
		if err := json.Unmarshal(m.Move, &mv); err != nil {
			return false, nil
		}
		if err := p.game.Apply(m.Seat, mv); err != nil {
			return false, nil
		}
		played++
		p.last = &LastMove{Seat: m.Seat, Move: m.Move, Auto: m.Auto, By: m.By, At: m.At}
	}
	if played < d.Moves {
		return false, nil // the stored position holds moves the log does not: read it
	}
	p.saved = d.Moves // the stored position's count
	d.Moves = played
	p.deal = d
	return true, nil
}

func sameTimeOut(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// put stores p, the running deal of table t as committed at t.Version (by
// the caller's transaction, or read in it), unless the cache holds a newer
// version already; a table no longer playing is not stored (keepRead
// stores a closed table's last deal too).
func (c *gameCache) put(t Table, p *playing) {
	if t.Status == TablePlaying {
		c.store(t, p)
	}
}

// keepRead stores p, table t's deal at t.Version as a state read it from
// the rows or a move through a transaction committed it: as put for a
// playing table; a finished or cancelled table's last deal too, among the
// last maxClosedGames such. A match's end wakes each seat's poll at once,
// and the finished table's state is read again after (the match's result,
// a rematch's offer): each read made from the rows read the deal and
// replayed its moves (a transaction of five round trips on PostgreSQL),
// when a hundred matches of a load run end within a second.
func (c *gameCache) keepRead(t Table, p *playing) {
	if t.Status == TablePlaying || t.Status.Closed() {
		c.store(t, p)
	}
}

// store is put's and keepRead's; a closed table's entry takes the ring's
// next slot, dropping the closed entry maxClosedGames before it.
func (c *gameCache) store(t Table, p *playing) {
	if p == nil || p.deal.Number != t.DealNumber {
		return
	}
	e := &cachedGame{version: t.Version, p: *p, closedTable: t.Status.Closed()}
	e.p.t = nil
	// The stored position (kilobytes of JSON) served to build the game; the
	// game is what is kept. savePosition marshals a new one when it
	// stores, and catchUpFrom reads the log, not the position.
	e.p.deal.Position = nil
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[t.ID]; ok && old.version > t.Version {
		return
	}
	if len(c.m) >= maxCachedGames {
		clear(c.m)
	}
	c.m[t.ID] = e
	if !e.closedTable {
		return
	}
	if old := c.closed[c.next]; old != 0 {
		if e := c.m[old]; e != nil && e.closedTable && old != t.ID {
			delete(c.m, old)
		}
	}
	c.closed[c.next] = t.ID
	c.next = (c.next + 1) % len(c.closed)
}

// drop removes the entry of table id: a move or a view reads the table's
// deal from the rows again.
func (c *gameCache) drop(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

// stored is a time as the store keeps it (UTC, microseconds), so that an
// answer built in memory says what a later read of the rows says.
func stored(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// finished returns the deals of ds but number, without their positions
// (the cache keeps only what the answer shows of them).
func finished(ds []TableDeal, number int) []TableDeal {
	out := make([]TableDeal, 0, len(ds))
	for _, d := range ds {
		if d.Number != number {
			d.Position = nil
			out = append(out, d)
		}
	}
	return out
}

// playedState builds what seat sees of table t after a move, from the
// running deal in hand: the same answer stateOf reads from the rows.
func playedState(t Table, seat int, p *playing) TableState {
	st := TableState{Table: t, Seat: seat}
	deals := append(p.done[:len(p.done):len(p.done)], p.deal)
	for _, d := range deals {
		if d.Score != nil {
			st.Deals = append(st.Deals, dealScore(d))
		}
	}
	cur := dealScore(p.deal)
	st.Deal = &cur
	v := p.game.View(seat)
	st.View = &v
	if p.deal.Moves > 0 && p.last != nil {
		last := *p.last
		st.LastMove = &last
	}
	st.Totals = engine.RunningTotals(scoresOf(deals))
	if st.Totals == nil {
		st.Totals = make([]int, len(st.View.Totals))
	}
	return st
}
