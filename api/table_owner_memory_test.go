package api_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
)

// Without a notice per move of an owned table (docs/SCALE-OUT.md §7),
// what a process kept of a table from an earlier time it served it, and
// the polls it holds when it loses it, are kept right by the lease's
// coming and going (the table service's Forget) and by the owners' list
// of versions sent once a second.

// moveOn plays the turn's player's move on p (which must own the table:
// it is served there), and returns the version after it.
func moveOn(t *testing.T, p *proc, id int64, tokens [2]string, seed uint64) int64 {
	t.Helper()
	g, _ := serverGame(t, p.db, id)
	st, _ := p.state(tokens[0], id)
	var after api.TableState
	p.must(200, req{Method: "POST", Path: tablePath(id, "moves"), Token: tokens[g.Turn()],
		Body: moveBody(t, chooser{rand.New(rand.NewPCG(seed, seed+1))}.choose(g, g.Turn()), st.Version)}, &after)
	return after.Version
}

// TestATakeoverServesTheMovesMadeSinceTheProcessLastOwnedTheTable: A
// served a table, lost it (its local deadline passed), B moved it and let
// it go; A takes it again and at once (before any list of versions could
// tell it) answers the version B made, not the one it kept.
func TestATakeoverServesTheMovesMadeSinceTheProcessLastOwnedTheTable(t *testing.T) {
	const ttl = 1500 * time.Millisecond
	ps := newProcs(t, 2, ttl, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	kept, _ := a.state(tokens[0], tb.ID) // A keeps the table's state in memory
	for a.leases.Owns(tb.ID) {           // no renewal in these tests: A's deadline passes
		time.Sleep(20 * time.Millisecond)
	}
	leases := leaseStore(t, a.db)
	if err := leases.Release(t.Context(), a.leases.Self()); err != nil { // as its expiry would
		t.Fatal(err)
	}
	if ok, err := b.leases.Acquire(t.Context(), tb.ID); err != nil || !ok {
		t.Fatalf("B's takeover: %v %v", ok, err)
	}
	moved := moveOn(t, b, tb.ID, tokens, 21)
	if err := leases.Release(t.Context(), b.leases.Self()); err != nil {
		t.Fatal(err)
	}
	st, _ := a.state(tokens[0], tb.ID) // A takes the free lease and serves the table itself
	if !a.leases.Owns(tb.ID) || a.stats.Local.Load() == 0 {
		t.Fatalf("A did not take the table back: owns %v, local %d", a.leases.Owns(tb.ID), a.stats.Local.Load())
	}
	if st.Version != moved || moved <= kept.Version {
		t.Errorf("A, owner again, answered version %d; B moved it to %d (A had kept %d)", st.Version, moved, kept.Version)
	}
	// A move on A plays at B's version, from B's game.
	if v := moveOn(t, a, tb.ID, tokens, 23); v != moved+1 {
		t.Errorf("A's move after the takeover made version %d, want %d", v, moved+1)
	}
}

// TestADeposedOwnersHeldPollIsAnsweredTheNewOwnersMove: a long poll waits
// on A; A loses the table to B; B's move sends no notice of its own, yet
// the poll held at A is answered B's version within its list's second,
// not at the end of its wait.
func TestADeposedOwnersHeldPollIsAnsweredTheNewOwnersMove(t *testing.T) {
	ps := newProcs(t, 2, time.Minute, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	st, _ := a.state(tokens[0], tb.ID)
	answered := make(chan response, 1)
	go func() {
		answered <- a.do(req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=30", tablePath(tb.ID, "state"), st.Version), Token: tokens[0]})
	}()
	time.Sleep(200 * time.Millisecond) // the poll waits at A
	leases := leaseStore(t, a.db)
	if err := leases.Release(t.Context(), a.leases.Self()); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.leases.Acquire(t.Context(), tb.ID); err != nil || !ok {
		t.Fatalf("B's takeover: %v %v", ok, err)
	}
	if err := a.leases.Renew(t.Context()); err != nil { // A learns it lost the table
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the poll, woken, read the table again and waits on
	moved := moveOn(t, b, tb.ID, tokens, 31)
	start := time.Now()
	select {
	case res := <-answered:
		var got api.TableState
		if res.Status != http.StatusOK || json.Unmarshal(res.Body, &got) != nil || got.Version != moved {
			t.Errorf("the poll held at A: %d, version %d; want 200 at B's version %d", res.Status, got.Version, moved)
		}
		t.Logf("answered %v after B's move", time.Since(start))
	case <-time.After(5 * time.Second):
		t.Fatal("the poll held at A not answered 5 s after B's move")
	}
}
