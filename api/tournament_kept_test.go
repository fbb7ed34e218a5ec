package api_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// printedWith reports whether the printed standings of id show an
// anonymous reader name, right after a poll of its standings (which keeps
// its stamp).
func printedWith(e *env, id int64, name string) bool {
	e.t.Helper()
	e.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "standings")}, nil)
	res := e.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "print/standings")}, nil)
	return bytes.Contains(res.Body, []byte(name))
}

// sheetDeals is how many deals table n of round 1 of id shows e in the
// round list (read through the tournament's state, uncached).
func sheetDeals(e *env, id int64, n int) int {
	e.t.Helper()
	var l api.TournamentRoundList
	e.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "rounds")}, &l)
	for _, tb := range l.Items[0].Tables {
		if tb.Number == n {
			return len(tb.Deals)
		}
	}
	e.t.Fatalf("round 1 has no table %d", n)
	return 0
}

// TestAnonymousReadComesFromKeptState: once a public tournament's stamp
// is kept, an anonymous read of its state is answered from memory: a
// change made behind the server's back (by SQL, moving no stamp) is not
// seen; scores entered through the server are, at once, with the row
// read again.
func TestAnonymousReadComesFromKeptState(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id, r, _ := runningTournament(te)
		if db.Dialect() == store.Postgres {
			waitTournamentListeners(t, db, 1)
		}
		if _, err := db.SQL().Exec("UPDATE tournaments SET name = 'Renamed behind its back' WHERE id = $1", id); err != nil {
			t.Fatal(err)
		}
		// On PostgreSQL the set-up's own notifications may still drop
		// the stamp (the row is then read again): tried until they have
		// arrived.
		for try := 1; printedWith(te.env, id, "Renamed behind its back"); try++ {
			if try == 20 {
				t.Fatal("a read with a kept stamp went to the database")
			}
			time.Sleep(50 * time.Millisecond)
		}
		n := r.Tables[0].Number
		before := sheetDeals(te.env, id, n)
		te.scores(id, 1, n, te.referee, randomDeals(newRand(), 3)...)
		if got := sheetDeals(te.env, id, n); got != before+3 {
			t.Errorf("after 3 deals entered: %d deals, want %d", got, before+3)
		}
		if !printedWith(te.env, id, "Renamed behind its back") {
			t.Error("after a write the kept row is not the row the write read")
		}
	})
}

// TestKeptStateSeesAnotherProcessesChange: two servers over one
// PostgreSQL schema; B's anonymous reads come from its kept state; scores
// entered on A are seen on B within a second (the feed drops B's stamp).
func TestKeptStateSeesAnotherProcessesChange(t *testing.T) {
	databaseURL := storetest.PostgresURL(t)
	dbA, dbB := storetest.Open(t, databaseURL), storetest.Open(t, databaseURL)
	te := newTourneyEnv(t, dbA)
	b := newEnv(t, dbB)
	id, r, _ := runningTournament(te)
	waitTournamentListeners(t, dbA, 2)
	n := r.Tables[0].Number
	b.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "standings")}, nil)
	before := sheetDeals(b, id, n)
	te.scores(id, 1, n, te.referee, randomDeals(newRand(), 3)...)
	deadline := time.Now().Add(time.Second)
	for {
		b.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "standings")}, nil)
		got := sheetDeals(b, id, n)
		if got == before+3 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("B still shows %d deals a second after A entered 3 (had %d)", got, before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
