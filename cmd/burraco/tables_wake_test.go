package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/internal/servertest"
)

// TestTableLongPollWakesAcrossServeProcesses: two real serve processes on
// one PostgreSQL database; a long poll on B wakes within a second of a move
// posted to A (LISTEN/NOTIFY between the processes).
func TestTableLongPollWakesAcrossServeProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dbURL := storetest.PostgresURL(t)
	env := []string{"DATABASE_URL=" + dbURL}
	srvs := []*servertest.Server{servertest.Launch(t, servertest.Options{Env: env}), servertest.Launch(t, servertest.Options{Env: env})}
	for _, s := range srvs {
		s.WaitReady()
	}
	waitServeListeners(t, dbURL, 2)
	a := newPlayer(t, srvs[0].URL, "anna@example.com")
	onB := a
	onB.base = srvs[1].URL
	var tb struct {
		ID int64 `json:"id"`
	}
	a.must("POST", "/api/v1/tables", map[string]any{"rules": "fibur", "players": 2, "auto_start": true, "grace_seconds": 0}, 201, &tb)
	a.must("POST", tablesPath(tb.ID, "bots"), nil, 200, nil)
	for round := range 3 {
		var st tableState
		a.must("GET", tablesPath(tb.ID, "state"), nil, 200, &st)
		type answer struct {
			code int
			body []byte
			at   time.Time
		}
		answered := make(chan answer, 1)
		go func() {
			code, b, _ := onB.send("GET", fmt.Sprintf("%s?since=%d&wait=30", tablesPath(tb.ID, "state"), st.Version), nil)
			answered <- answer{code, b, time.Now()}
		}()
		time.Sleep(300 * time.Millisecond) // B is waiting
		moved := time.Now()
		if _, err := a.playTurn(st); err != nil {
			t.Fatal(err)
		}
		got := <-answered
		var after tableState
		if got.code != 200 || json.Unmarshal(got.body, &after) != nil || after.Version <= st.Version {
			t.Fatalf("round %d: B's poll answered %d %s", round, got.code, got.body)
		}
		took := got.at.Sub(moved)
		if took > time.Second {
			t.Errorf("round %d: B's poll answered %v after the move on A", round, took)
		}
		t.Logf("round %d: B's poll answered %v after the move on A (its answer included)", round, took)
	}
}

// waitServeListeners waits until n serve processes listen for table
// changes on the schema of dbURL.
func waitServeListeners(t *testing.T, dbURL string, n int) {
	t.Helper()
	db, err := store.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, _ := url.Parse(dbURL)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got int
		err := db.SQL().QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE application_name = 'burraco tables listener'
			AND query LIKE 'LISTEN %' AND query LIKE '%' || $1 || '%'`, u.Query().Get("search_path")).Scan(&got)
		switch {
		case err != nil:
			t.Fatal(err)
		case got >= n:
			return
		case time.Now().After(deadline):
			t.Fatalf("%d of %d serve processes listen for table changes", got, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
