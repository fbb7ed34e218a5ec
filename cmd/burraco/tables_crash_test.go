package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/internal/servertest"
)

// TestTableCrashKeepsAcknowledgedMoves: a real server on a SQLite file; a
// scripted client plays against a bot while the server is killed
// (SIGKILL) mid-match; after the restart every move the client got a 200
// for is in the deal records' move log, in order (at most the one move in
// flight at the kill is there unacknowledged), the stored position is the
// replay of its log (up to the moves it holds; continued by the rest of
// the log, the replay of all of it), and play continues to the end of the
// match.
func TestTableCrashKeepsAcknowledgedMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	srv := servertest.Start(t, servertest.Options{})
	p := newPlayer(t, srv.URL, "crash@example.com")
	var tb struct {
		ID int64 `json:"id"`
	}
	p.must("POST", "/api/v1/tables", map[string]any{"rules": "fibur", "players": 2, "match": map[string]int{"deals": 2},
		"auto_start": true, "grace_seconds": 0}, 201, &tb)
	p.must("POST", tablesPath(tb.ID, "bots"), nil, 200, nil)

	var acked []ackedMove
	killed := make(chan struct{})
	stopped := make(chan error, 1)
	go func() { // the client plays on until the server goes away
		for {
			var st tableState
			code, b, err := p.send("GET", tablesPath(tb.ID, "state"), nil)
			if err == nil && code == 200 {
				err = json.Unmarshal(b, &st)
			}
			if err != nil {
				stopped <- err
				return
			}
			m, err := p.playTurn(st)
			if err != nil {
				stopped <- err
				return
			}
			acked = append(acked, *m)
			if len(acked) == 30 {
				close(killed)
			}
		}
	}()
	<-killed
	srv.Kill()
	<-stopped // a transport error: the server is gone
	before := len(acked)
	srv.Restart()

	db, err := store.Open(context.Background(), filepath.Join(srv.Dir, "burraco.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkStoredReplay(t, db, tb.ID)
	var st tableState
	p.must("GET", tablesPath(tb.ID, "state"), nil, 200, &st)
	if last := acked[len(acked)-1].Version; st.Version < last {
		t.Fatalf("after the restart the table is at version %d; the client had an answer at version %d", st.Version, last)
	}
	for st.Table.Status == "playing" {
		m, err := p.playTurn(st)
		if err != nil {
			t.Fatal(err)
		}
		acked = append(acked, *m)
		p.must("GET", tablesPath(tb.ID, "state"), nil, 200, &st)
	}
	if st.Table.Status != "finished" || len(st.Deals) != 2 {
		t.Fatalf("the match did not end: %+v", st)
	}

	// The client's moves in the records: the acknowledged ones, in order,
	// and perhaps the one in flight when the server was killed.
	var logged []map[string]any
	for _, d := range st.Deals {
		var raw struct {
			Moves []map[string]any `json:"moves"`
		}
		_, b, err := p.send("GET", tablesPath(tb.ID, "deals", strconv.Itoa(d.Number), "record"), nil)
		if err != nil || json.Unmarshal(b, &raw) != nil {
			t.Fatalf("record %d: %v %s", d.Number, err, b)
		}
		for _, m := range raw.Moves {
			if m["seat"] == float64(0) && m["auto"] != true {
				if m["by"] != "player" {
					t.Fatalf("record %d: the client's move %v is not marked by: player", d.Number, m)
				}
				delete(m, "seat")
				delete(m, "at")
				delete(m, "auto")
				delete(m, "by")
				logged = append(logged, m)
			}
		}
	}
	extra := len(logged) - len(acked)
	if extra < 0 || extra > 1 {
		t.Fatalf("%d of the client's moves logged, %d acknowledged", len(logged), len(acked))
	}
	for i, j := 0, 0; i < len(acked); i, j = i+1, j+1 {
		if i == before && extra == 1 {
			j++ // the move in flight at the kill, committed but never answered
		}
		if mustMarshal(acked[i].Move) != mustMarshal(logged[j]) {
			t.Fatalf("acknowledged move %d %v is logged as %v", i, acked[i].Move, logged[j])
		}
	}
	if code := srv.Stop(); code != 0 {
		t.Fatalf("serve exited with %d", code)
	}
}
