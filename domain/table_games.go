package domain

import (
	"sync"
	"time"

	"github.com/burraco/burraco/engine"
)

// maxCachedGames bounds the running games a process keeps parsed: past it
// the cache starts over (a miss only costs a parse).
const maxCachedGames = 10_000

// gameCache keeps, per playing table, the running deal as the last move
// this process committed (or the last state read) left it: the parsed
// engine.Game, the deal row and the finished deals' scores. A move or a
// state read then skips reading the deals, parsing the stored position and
// replaying the moves logged after it. An entry is only used when the
// table's version, read in the caller's own transaction (under the row lock
// for a move), is the version the entry was stored at: any change by
// another path or another process bumps the version, so a stale entry is
// never played on nor shown.
type gameCache struct {
	mu sync.Mutex
	m  map[int64]cachedGame
}

type cachedGame struct {
	version int64
	p       playing // p.t is nil: the table is read under the lock each time
}

func newGameCache() *gameCache { return &gameCache{m: make(map[int64]cachedGame)} }

// take removes and returns the entry of table t if it was stored at t's
// version and deal; taken, it belongs to the caller alone (a concurrent
// move of the same table parses its own), who puts it back after a commit.
func (c *gameCache) take(t *Table) (*playing, bool) {
	c.mu.Lock()
	e, ok := c.m[t.ID]
	if ok {
		delete(c.m, t.ID)
	}
	c.mu.Unlock()
	if !ok || e.version != t.Version || e.p.deal.Number != t.DealNumber {
		return nil, false
	}
	p := e.p
	p.t = t
	return &p, true
}

// put stores p, the running deal of table t as committed at t.Version (by
// the caller's transaction, or read in it), unless the cache holds a newer
// version already; a table no longer playing is dropped.
func (c *gameCache) put(t Table, p *playing) {
	if p == nil || t.Status != TablePlaying || p.deal.Number != t.DealNumber {
		return
	}
	e := cachedGame{version: t.Version, p: *p}
	e.p.t = nil
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[t.ID]; ok && old.version > t.Version {
		return
	}
	if len(c.m) >= maxCachedGames {
		clear(c.m)
	}
	c.m[t.ID] = e
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
