package api_test

import (
	"fmt"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTableStateCacheKeepsViewersApart: the states answered from the cache
// of (version, seat) are each viewer's own: the seats their hands, the
// creator watching the invite code that an anonymous caller never sees, a
// clocked table its seconds left as they run; and many callers at once get
// the same bytes as one alone.
func TestTableStateCacheKeepsViewersApart(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	tb, tokens := twoHumans(e)
	state := tablePath(tb.ID, "state")

	// Two seats at one version: each its own hand, twice in a row.
	for range 2 {
		s0, _ := e.state(tokens[0], tb.ID)
		s1, _ := e.state(tokens[1], tb.ID)
		if s0.Seat != 0 || s1.Seat != 1 || fmt.Sprint(s0.View.Hand) == fmt.Sprint(s1.View.Hand) || s0.Version != s1.Version {
			t.Fatalf("seat 0 %v, seat 1 %v", s0.View.Hand, s1.View.Hand)
		}
	}

	// A public table watched by its creator (no seat) and anonymously: the
	// same seat (-1) and version, but only the creator sees the invite code.
	_, c := e.user("carla@example.com", "Carla")
	watched := e.newTable(c.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Spectate: true, Match: &api.MatchFormat{Deals: 1}})
	for range 2 {
		var anon, creator api.TableState
		e.must(200, req{Method: "GET", Path: tablePath(watched.ID, "state")}, &anon)
		e.must(200, req{Method: "GET", Path: tablePath(watched.ID, "state"), Token: c.AccessToken}, &creator)
		if anon.Seat != -1 || creator.Seat != -1 || anon.Table.InviteCode != "" || creator.Table.InviteCode != watched.InviteCode {
			t.Fatalf("anonymous invite %q, creator invite %q (want %q)", anon.Table.InviteCode, creator.Table.InviteCode, watched.InviteCode)
		}
	}

	// A turn clock: the seconds left move with time at one version.
	clocked := e.newTable(tokens[0], api.TableCreateRequest{Rules: "fibur", Players: 2, TurnSeconds: 60, AutoStart: true, GraceSeconds: ptr(0)})
	e.must(200, req{Method: "POST", Path: tablePath(clocked.ID, "bots"), Token: tokens[0]}, nil)
	var before, after api.TableState
	e.must(200, req{Method: "GET", Path: tablePath(clocked.ID, "state"), Token: tokens[0]}, &before)
	e.clock.Add(10 * time.Second)
	e.must(200, req{Method: "GET", Path: tablePath(clocked.ID, "state"), Token: tokens[0]}, &after)
	if before.Version != after.Version || before.TurnSecondsLeft == nil || after.TurnSecondsLeft == nil ||
		*before.TurnSecondsLeft-*after.TurnSecondsLeft < 9 {
		t.Fatalf("turn seconds left %v then %v at versions %d and %d", before.TurnSecondsLeft, after.TurnSecondsLeft, before.Version, after.Version)
	}

	// Many polls woken by one move: every one gets the state after it,
	// the same bytes for the same seat.
	st, _ := e.state(tokens[0], tb.ID)
	var wg sync.WaitGroup
	bodies := make([]response, 24)
	for i := range bodies {
		wg.Go(func() {
			token := tokens[i%2]
			if i%3 == 2 {
				token = ""
			}
			bodies[i] = e.do(req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=10", state, st.Version), Token: token})
		})
	}
	time.Sleep(100 * time.Millisecond)
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[st.View.Turn],
		Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, nil)
	wg.Wait()
	want := map[string]string{}
	for i, r := range bodies {
		if r.Status != 200 {
			t.Fatalf("poll %d: status %d: %s", i, r.Status, r.Body)
		}
		key := r.Header.Get("ETag")
		if w, ok := want[key]; ok && w != string(r.Body) {
			t.Fatalf("two answers with ETag %s differ:\n%s\n%s", key, w, r.Body)
		}
		want[key] = string(r.Body)
	}
	if len(want) != 3 {
		t.Fatalf("%d distinct ETags for seats 0, 1 and anonymous: %v", len(want), want)
	}
	for i, tok := range tokens {
		s, res := e.state(tok, tb.ID)
		if s.Version != st.Version+1 || string(res.Body) != want[res.Header.Get("ETag")] {
			t.Fatalf("seat %d after the polls: version %d, body differs from the polls' answer", i, s.Version)
		}
	}
}

// TestMoveAnswerIsTheMoversNextPoll: the answer to a move is kept as the
// mover's state at the new version: the mover's next poll answers the same
// bytes and ETag, which are those a server with nothing in memory reads.
func TestMoveAnswerIsTheMoversNextPoll(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	e := newEnv(t, db)
	tb, tokens := twoHumans(e)
	st, _ := e.state(tokens[0], tb.ID)
	for range 6 {
		token := tokens[st.View.Turn]
		st, _ = e.state(token, tb.ID) // the mover's hand
		var moved response
		if st.View.Phase == "take" {
			moved = e.do(req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: token,
				Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)})
		} else {
			for _, card := range st.View.Hand {
				moved = e.do(req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: token,
					Body: fmt.Sprintf(`{"move":"discard","card":%q,"version":%d}`, card, st.Version)})
				if moved.Status != 422 {
					break
				}
			}
		}
		if moved.Status != 200 {
			t.Fatalf("move: status %d: %s", moved.Status, moved.Body)
		}
		polled := e.do(req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: token})
		cold := newEnv(t, db).do(req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: token})
		for name, r := range map[string]response{"the mover's poll": polled, "a cold server's read": cold} {
			// The state's presence, last, is what the answering process
			// saw of the players just now (a move's answer has none).
			if r.Status != 200 || withoutPresence(r.Body) != string(moved.Body) || r.Header.Get("ETag") != moved.Header.Get("ETag") ||
				r.Header.Get("Content-Type") != moved.Header.Get("Content-Type") {
				t.Fatalf("%s: %d %s %s\n%s\nthe move's answer: %s %s\n%s", name, r.Status, r.Header.Get("ETag"),
					r.Header.Get("Content-Type"), r.Body, moved.Header.Get("ETag"), moved.Header.Get("Content-Type"), moved.Body)
			}
		}
		st, _ = e.state(tokens[0], tb.ID)
	}
}

// withoutPresence is a state's body without its presence, the last field
// (spliced in as the state is answered).
func withoutPresence(body []byte) string {
	return presenceField.ReplaceAllString(string(body), "}\n")
}

var presenceField = regexp.MustCompile(`,"presence":\[[^\]]*\]\}\n$`)

// TestALongPollReleasesItsSeatsStateOnceAnswered: a seat's long poll reads
// each version once (its next request waits for the next one), so the
// state cache lets go of the seat's encoded state once it is answered; a
// plain poll's stays for the polls after it, and so does the anonymous
// one, which any number of spectators read.
func TestALongPollReleasesItsSeatsStateOnceAnswered(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	tb, tokens := twoHumans(e)
	_, c := e.user("carla@example.com", "Carla")
	watched := e.newTable(c.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Spectate: true, Match: &api.MatchFormat{Deals: 1}})
	for _, cc := range []struct {
		name     string
		table    int64
		token    string
		query    string
		key      int
		wantKept bool
	}{
		{"ASeatsLongPollReleasesIt", tb.ID, tokens[0], "?since=0&wait=5", 0, false},
		{"ASeatsPlainPollKeepsIt", tb.ID, tokens[1], "", 1, true},
		{"ASeatsPollWithoutAWaitKeepsIt", tb.ID, tokens[1], "?since=0", 1, true},
		{"ASpectatorsLongPollKeepsTheAnonymousOne", watched.ID, "", "?since=0&wait=5", -1, true},
	} {
		t.Run(cc.name, func(t *testing.T) {
			var st api.TableState
			e.must(200, req{Method: "GET", Path: tablePath(cc.table, "state") + cc.query, Token: cc.token}, &st)
			if st.Seat != cc.key {
				t.Fatalf("seat %d, want %d", st.Seat, cc.key)
			}
			if got := api.StateBodyKept(e.h, cc.table, cc.key); got != cc.wantKept {
				t.Errorf("the encoded state is kept: %v, want %v", got, cc.wantKept)
			}
		})
	}
}
