package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/internal/servertest"
)

// TestTableConcurrentMoves: eight clients (six tabs of the player on turn
// sending different moves, two of the other player) post moves for the same
// version at once: exactly one is played, every other gets a 409
// (version_conflict, or not_your_turn for the other player), the version
// grows by one per round, and the stored position is the replay of the
// stored moves. On SQLite through one server; on PostgreSQL through two
// server processes sharing the database, the clients spread over both.
func TestTableConcurrentMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Run("sqlite", func(t *testing.T) {
		srv := servertest.Start(t, servertest.Options{})
		db, err := store.Open(context.Background(), filepath.Join(srv.Dir, "burraco.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		raceMoves(t, db, []string{srv.URL})
	})
	t.Run("postgres", func(t *testing.T) {
		dbURL := storetest.PostgresURL(t)
		env := []string{"DATABASE_URL=" + dbURL}
		srvs := []*servertest.Server{servertest.Launch(t, servertest.Options{Env: env}), servertest.Launch(t, servertest.Options{Env: env})}
		for _, s := range srvs {
			s.WaitReady()
		}
		db, err := store.Open(context.Background(), dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		raceMoves(t, db, []string{srvs[0].URL, srvs[1].URL})
	})
}

// raceMoves plays rounds of conflicting moves at a 2-player table of two
// users through the servers at bases.
func raceMoves(t *testing.T, db *store.DB, bases []string) {
	a := newPlayer(t, bases[0], "anna@example.com")
	b := newPlayer(t, bases[len(bases)-1], "bruno@example.com")
	var tb struct {
		ID int64 `json:"id"`
	}
	a.must("POST", "/api/v1/tables", map[string]any{"rules": "fibur", "players": 2, "match": map[string]int{"deals": 1}, "grace_seconds": 0}, 201, &tb)
	b.must("POST", tablesPath(tb.ID, "join"), nil, 200, nil)
	a.must("POST", tablesPath(tb.ID, "start"), nil, 200, nil)
	seats := [2]player{a, b}
	for round := range 12 {
		var st tableState
		a.must("GET", tablesPath(tb.ID, "state"), nil, 200, &st)
		if st.Table.Status != "playing" {
			break
		}
		var mine tableState
		seats[st.View.Turn].must("GET", tablesPath(tb.ID, "state"), nil, 200, &mine)
		var bodies []map[string]any
		for i := range 6 {
			m := map[string]any{"move": "draw", "version": st.Version}
			if mine.View.Phase != "take" {
				m = map[string]any{"move": "discard", "card": mine.View.Hand[i%len(mine.View.Hand)], "version": st.Version}
			}
			bodies = append(bodies, m)
		}
		type result struct {
			code int
			body []byte
		}
		results := make([]result, 8)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 8 {
			who, body := seats[st.View.Turn], map[string]any{"move": "draw", "version": st.Version}
			if i < 6 {
				body = bodies[i]
			} else {
				who = seats[1-st.View.Turn]
			}
			who.base = bases[i%len(bases)]
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				code, b, err := who.send("POST", tablesPath(tb.ID, "moves"), body)
				if err != nil {
					code = -1
				}
				results[i] = result{code, b}
			}()
		}
		close(start)
		wg.Wait()
		won := 0
		for i, r := range results {
			var p struct {
				Code string `json:"code"`
			}
			_ = json.Unmarshal(r.body, &p)
			switch {
			case r.code == 200:
				won++
			case r.code == 409 && (p.Code == "version_conflict" || i >= 6 && p.Code == "not_your_turn"):
			default: // every move sent is legal for its version: only the race may refuse it
				t.Errorf("round %d client %d: %d %s", round, i, r.code, r.body)
			}
		}
		var after tableState
		a.must("GET", tablesPath(tb.ID, "state"), nil, 200, &after)
		switch {
		case won != 1:
			t.Fatalf("round %d: %d moves accepted for version %d", round, won, st.Version)
		case after.Version != st.Version+1:
			t.Fatalf("round %d: version %d after one move at %d", round, after.Version, st.Version)
		}
		checkStoredReplay(t, db, tb.ID)
	}
}
