package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// waitListeners waits until n tables listeners of the schema of
// databaseURL are listening (their last statement was the LISTEN).
func waitListeners(t *testing.T, db *store.DB, databaseURL string, n int) {
	t.Helper()
	u, _ := url.Parse(databaseURL)
	schema := u.Query().Get("search_path")
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got int
		err := db.SQL().QueryRow(`SELECT count(*) FROM pg_stat_activity
			WHERE application_name = 'burraco tables listener' AND query LIKE 'LISTEN %' AND query LIKE '%' || $1 || '%'`, schema).Scan(&got)
		if err != nil {
			t.Fatal(err)
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d listeners after 10 s", got, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pollAfterMove starts a long poll on b past the current version, posts a
// move on a, and returns how long after the move the poll answered.
// wokenWithin bounds how long after a move a waiting poll or stream
// answers in the wake-up tests: far less than the 20 s they would wait
// unwoken, with room for a machine busy with the rest of make test.
const wokenWithin = 5 * time.Second

func pollAfterMove(t *testing.T, db *store.DB, a, b *env, id int64, tokens [2]string) time.Duration {
	t.Helper()
	g, _ := serverGame(t, db, id)
	move := chooser{rand.New(rand.NewPCG(1, 2))}.choose(g, g.Turn())
	st, _ := a.state(tokens[0], id)
	// b answers an unchanged poll from memory: it knows the table.
	b.must(304, req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=0", tablePath(id, "state"), st.Version), Token: tokens[0]}, nil)
	answered := make(chan response, 1)
	go func() {
		answered <- b.do(req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=20", tablePath(id, "state"), st.Version), Token: tokens[0]})
	}()
	time.Sleep(200 * time.Millisecond) // the poll is waiting
	moved := time.Now()
	a.must(200, req{Method: "POST", Path: tablePath(id, "moves"), Token: tokens[st.View.Turn],
		Body: moveBody(t, move, st.Version)}, nil)
	res := <-answered
	took := time.Since(moved)
	var got api.TableState
	if res.Status != 200 || json.Unmarshal(res.Body, &got) != nil || got.Version != st.Version+1 {
		t.Fatalf("the poll on the other server: %d %s", res.Status, res.Body)
	}
	return took
}

// TestTableWakeAcrossProcesses: two servers over one PostgreSQL schema
// (two store handles, two notifiers): a long poll on B wakes soon after
// a move posted to A (milliseconds; wokenWithin), by LISTEN/NOTIFY, and so does an event
// stream on B; after the listening connections are killed, each server
// reconnects, forgets what it knew, and a poll still wakes on the other's
// next move.
func TestTableWakeAcrossProcesses(t *testing.T) {
	databaseURL := storetest.PostgresURL(t)
	dbA, dbB := storetest.Open(t, databaseURL), storetest.Open(t, databaseURL)
	a, b := newEnv(t, dbA), newEnv(t, dbB)
	tb, tokens := twoHumans(a)
	waitListeners(t, dbA, databaseURL, 2)
	// Woken, not timed out: the poll waits up to 20 s, and nothing but the
	// notification wakes it sooner. The bound leaves room for a loaded
	// CI machine (the move itself is inside it); it is about a few
	// milliseconds on an idle one (logged).
	took := pollAfterMove(t, dbA, a, b, tb.ID, tokens)
	if took > wokenWithin {
		t.Errorf("B's poll answered %v after A's move", took)
	}
	t.Logf("B's poll answered %v after A's move", took)

	// An event stream on B wakes too.
	srvB := httptest.NewServer(b.h)
	defer srvB.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := openEvents(t, ctx, srvB.URL+tablePath(tb.ID, "events"), tokens[1], "")
	first := stateOfEvent(t, stream.next(t, false))
	g, _ := serverGame(t, dbA, tb.ID)
	moved := time.Now()
	a.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[g.Turn()],
		Body: moveBody(t, chooser{rand.New(rand.NewPCG(3, 4))}.choose(g, g.Turn()), first.Version)}, nil)
	if _, ev := stream.nextState(t); ev.Version != first.Version+1 || time.Since(moved) > wokenWithin {
		t.Errorf("B's event stream: version %d after %v (a move on A at version %d)", ev.Version, time.Since(moved), first.Version)
	}
	cancel()

	// A missed notification: the listeners' connections die; each process
	// reconnects and drops what it knew, so B reads the table again.
	_, err := dbA.SQL().Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'burraco tables listener' AND query LIKE '%' || $1 || '%'`,
		mustQuery(t, databaseURL, "search_path"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	waitListeners(t, dbA, databaseURL, 2)
	if took := pollAfterMove(t, dbA, b, a, tb.ID, tokens); took > time.Second {
		t.Errorf("after reconnecting, A's poll answered %v after B's move", took)
	}
}

func mustQuery(t *testing.T, rawURL, key string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get(key)
}
