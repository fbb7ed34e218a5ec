package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
)

// TestClocksTickOnlyOnTheirTablesOwner: with table leases each process
// ticks the clocks of the tables it owns (docs/SCALE-OUT.md §4.5), with
// its writes fenced, and takes over a clocked table whose owner is gone
// (its lease released or run out) without waiting for a request. Two
// processes over one PostgreSQL schema; a turn clock of 30 s at a table
// process A owns (the request adding the bot took the lease); each tick
// is given a time 31 s into the turn.
func TestClocksTickOnlyOnTheirTablesOwner(t *testing.T) {
	for _, c := range []struct {
		name string
		ttl  time.Duration
		// gone makes A's lease lapse without A knowing it: released by
		// the store (as a clean stop does, for A's manager a takeover it
		// has not renewed since), or run out (A killed: its lease simply
		// not renewed).
		gone func(t *testing.T, a *proc)
	}{
		{"OwnersLeaseReleased", time.Minute, func(t *testing.T, a *proc) {
			leases, err := a.db.Leases()
			if err == nil {
				err = leases.Release(t.Context(), a.leases.Self())
			}
			if err != nil {
				t.Fatal(err)
			}
		}},
		{"OwnersLeaseRunOut", 3 * time.Second, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps := newProcs(t, 2, c.ttl, 5*time.Second)
			a, b := ps[0], ps[1]
			tb, tok := clockTable(a.env, 30, 0)
			if !a.leases.Owns(tb.ID) || b.leases.Owns(tb.ID) {
				t.Fatalf("A owns %v, B owns %v; want A only", a.leases.Owns(tb.ID), b.leases.Owns(tb.ID))
			}
			st, _ := a.state(tok, tb.ID)
			turn := a.clock.Now()
			tick := func(p *proc, at time.Time) (int, error) {
				return p.svc.Tables.TickOwned(context.Background(), at, p.leases.Clock)
			}
			version := func() int64 { _, row := serverGame(t, a.db, tb.ID); return row.Version }

			// While A owns the table, B does not write it; A times it out.
			due := turn.Add(31 * time.Second)
			if n, err := tick(b, due); n != 0 || err != nil || version() != st.Version || b.leases.Owns(tb.ID) {
				t.Fatalf("B's tick of A's table: %d changed, err %v, version %d (was %d), B owns it: %v", n, err, version(), st.Version, b.leases.Owns(tb.ID))
			}
			if n, err := tick(a, due); n != 1 || err != nil || version() <= st.Version {
				t.Fatalf("A's tick of its table: %d changed, err %v, version %d (was %d)", n, err, version(), st.Version)
			}
			timedOut := version()

			// A's lease lapses; nothing is asked of the table; B's next
			// tick takes it over and times it out.
			due = due.Add(31 * time.Second) // the time-out restarted the turn at the last due
			if c.gone != nil {
				c.gone(t, a)
			}
			var n int
			var err error
			for wait := time.Now().Add(10 * time.Second); time.Now().Before(wait); time.Sleep(100 * time.Millisecond) {
				// Run out on the database's clock: B's tick takes nothing
				// until then (and writes nothing: the version is checked).
				if n, err = tick(b, due); n != 0 || err != nil || version() != timedOut {
					break
				}
			}
			if n != 1 || err != nil || !b.leases.Owns(tb.ID) || version() <= timedOut {
				t.Fatalf("B's tick after A's lease lapsed: %d changed, err %v, B owns it: %v, version %d (was %d)", n, err, b.leases.Owns(tb.ID), version(), timedOut)
			}

			// A, which has not heard that it lost the table, ticks it
			// again: its write is fenced out, nothing is written, and it
			// lets the table go.
			if c.gone == nil {
				return // A's own deadline has passed too: it does not think it owns the table
			}
			byB := version()
			due = due.Add(31 * time.Second)
			n, err = tick(a, due)
			if n != 0 || domain.ErrorCode(err) != domain.ETableOwnerMoved || version() != byB || a.leases.Owns(tb.ID) {
				t.Fatalf("the deposed A's tick: %d changed, err %v, version %d (was %d), A owns it: %v", n, err, version(), byB, a.leases.Owns(tb.ID))
			}
		})
	}
}
