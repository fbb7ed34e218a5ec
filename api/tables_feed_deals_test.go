package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// feedEntry is one thing a follower of a table read: a move, or a deal
// change, with the version it stands for.
type feedEntry struct {
	version int64
	deal    int    // the move's deal; for a change, the deal dealt
	change  string // "deal 1 → 2" for a change, "" for a move
}

// allBotMatch plays a 2-deal match of two bots, watched by its creator
// (the whole match is played when it starts; before, beforeStart is called
// with the open table), and returns the table, the watcher's token and the
// versions of the last move of deal 1 and of the match.
func allBotMatch(t *testing.T, e *env, watcher string, beforeStart func(tb api.Table, token string)) (api.Table, string, int64, int64) {
	t.Helper()
	_, tok := e.user(watcher+"@example.com", watcher)
	tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Match: &api.MatchFormat{Deals: 2},
		GraceSeconds: ptr(0), Spectate: true})
	for range 2 {
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, nil)
	}
	if beforeStart != nil {
		beforeStart(tb, tok.AccessToken)
	}
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: tok.AccessToken}, nil)
	st, _ := e.state(tok.AccessToken, tb.ID)
	if st.Table.Status != "finished" || st.Table.DealNumber != 2 {
		t.Fatalf("the bots' match: status %s, deal %d", st.Table.Status, st.Table.DealNumber)
	}
	var deal1 api.TableMoves
	e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "moves") + "?deal=1", Token: tok.AccessToken}, &deal1)
	if len(deal1.Items) < 10 {
		t.Fatalf("deal 1 has %d moves", len(deal1.Items))
	}
	return tb, tok.AccessToken, deal1.Items[len(deal1.Items)-1].Version, st.Version
}

// checkFollowed checks what a follower read from since on: every version
// up to last once, in order, each move's deal the one it was read in, and
// the change from deal 1 to deal 2 at the version after deal 1's last
// move (unless the follower had seen it).
func checkFollowed(t *testing.T, how string, since, lastOfDeal1, last int64, got []feedEntry) {
	t.Helper()
	var want []string
	for v := since + 1; v <= last; v++ {
		switch {
		case v <= lastOfDeal1:
			want = append(want, fmt.Sprintf("%d move of deal 1", v))
		case v == lastOfDeal1+1:
			want = append(want, fmt.Sprintf("%d deal 1 → 2", v))
		default:
			want = append(want, fmt.Sprintf("%d move of deal 2", v))
		}
	}
	var read []string
	for _, g := range got {
		if g.change != "" {
			read = append(read, fmt.Sprintf("%d %s", g.version, g.change))
		} else {
			read = append(read, fmt.Sprintf("%d move of deal %d", g.version, g.deal))
		}
	}
	if strings.Join(read, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s from version %d (deal 1 ends at %d, the match at %d):\nread:\n%s\nwant:\n%s",
			how, since, lastOfDeal1, last, strings.Join(read, "\n"), strings.Join(want, "\n"))
	}
}

// checkChange checks a deal change's content: deal 1 scored, deal 2 dealt
// by the next dealer, its start as a spectator sees it (no hand). (Deal 2
// has a score too: the bots played the match to its end.)
func checkChange(t *testing.T, c api.DealChange) {
	t.Helper()
	if c.Ended.Number != 1 || len(c.Ended.Score) != 2 || c.Ended.EndedAt == nil || c.Next.Number != 2 ||
		c.Next.Dealer != (c.Ended.Dealer+1)%2 || c.Start.Dealer != c.Next.Dealer ||
		len(c.Start.Hand) != 0 || c.Start.Turn != c.Start.Dealer^1 || c.Start.Over || c.Start.Rules != "fibur" {
		t.Errorf("deal change %+v", c)
	}
}

// TestFeedAcrossADealChangeLosesNoMove (issue 29): a follower of an
// all-bot 2-deal table who saw any version among deal 1's last moves, or
// the version that dealt deal 2, reads through the move feed (since, then
// each answer's version) and through the event stream (resumed with
// Last-Event-ID) every later version once, in order: the rest of deal 1,
// the change to deal 2 (deal 1's score, deal 2 as dealt), deal 2's moves.
// No drawn card is shown to the watcher, and every event matches
// openapi.yaml's TableEvent.
func TestFeedAcrossADealChangeLosesNoMove(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, func(c *api.Config) { c.EventsHeartbeat = time.Minute })
		srv := httptest.NewServer(e.h)
		defer srv.Close()
		tb, token, lastOfDeal1, last := allBotMatch(t, e, "watcher", nil)
		for since := lastOfDeal1 - 6; since <= lastOfDeal1+1; since++ {
			t.Run(fmt.Sprintf("feed since %d", since), func(t *testing.T) {
				checkFollowed(t, "the feed", since, lastOfDeal1, last, followFeed(t, e, tb.ID, token, since, last))
			})
			t.Run(fmt.Sprintf("stream after %d", since), func(t *testing.T) {
				checkFollowed(t, "the stream", since, lastOfDeal1, last, followStream(t, srv.URL, tb.ID, token, since, last))
			})
		}
	})
}

// TestStreamLiveAcrossADealChange: a stream opened on an open all-bot
// 2-deal table, which plays its whole match when it starts, sends after
// the open table's state every move of deal 1 from its first, the change
// to deal 2, every move of deal 2, then the finished match's state.
func TestStreamLiveAcrossADealChange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, func(c *api.Config) { c.EventsHeartbeat = time.Minute })
		srv := httptest.NewServer(e.h)
		defer srv.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var s *sseStream
		var open api.TableState
		_, _, lastOfDeal1, last := allBotMatch(t, e, "early", func(tb api.Table, token string) {
			s = openEvents(t, ctx, srv.URL+tablePath(tb.ID, "events"), token, "")
			open = stateOfEvent(t, s.next(t, false))
		})
		var got []feedEntry
		for {
			ev := s.next(t, false)
			eventConforms(t, ev)
			if ev.Event == "state" {
				if st := stateOfEvent(t, ev); st.Version != last {
					t.Fatalf("a state at version %d before the end (%d): the bots' moves were not all in one commit", st.Version, last)
				}
				break
			}
			got = append(got, entryOf(t, ev))
		}
		// Starting dealt deal 1 (a version without a move) after the open
		// table's version: what follows it is every move and the change.
		checkFollowed(t, "the live stream", open.Version+1, lastOfDeal1, last, got)
	})
}

// entryOf reads a move or deal event.
func entryOf(t *testing.T, ev sseEvent) feedEntry {
	t.Helper()
	switch ev.Event {
	case "move":
		var m api.PlayedMove
		if err := json.Unmarshal([]byte(ev.Data), &m); err != nil || ev.ID != strconv.FormatInt(m.Version, 10) {
			t.Fatalf("move event %+v", ev)
		}
		return feedEntry{version: m.Version, deal: m.Deal}
	case "deal":
		var c api.DealChange
		if err := json.Unmarshal([]byte(ev.Data), &c); err != nil || ev.ID != strconv.FormatInt(c.Version, 10) {
			t.Fatalf("deal event %+v", ev)
		}
		checkChange(t, c)
		return feedEntry{version: c.Version, deal: c.Next.Number, change: fmt.Sprintf("deal %d → %d", c.Ended.Number, c.Next.Number)}
	}
	t.Fatalf("event %+v", ev)
	return feedEntry{}
}

// followFeed reads the move feed from since, passing each answer's version
// as the next since, until it reaches version last.
func followFeed(t *testing.T, e *env, id int64, token string, since, last int64) []feedEntry {
	t.Helper()
	var got []feedEntry
	for n := 0; since < last; n++ {
		if n > 5 {
			t.Fatalf("still at version %d after %d answers", since, n)
		}
		var f api.TableMoves
		res := e.must(200, req{Method: "GET", Path: fmt.Sprintf("%s?since=%d", tablePath(id, "moves"), since), Token: token}, &f)
		noDrawnCard(t, res.Body)
		for _, m := range f.Items {
			if m.Deal != f.Deal {
				t.Errorf("a move of deal %d in the feed of deal %d", m.Deal, f.Deal)
			}
			got = append(got, feedEntry{version: m.Version, deal: m.Deal})
		}
		if c := f.DealChange; c != nil {
			checkChange(t, *c)
			if f.Version != c.Version || f.Deal != c.Ended.Number {
				t.Errorf("the feed of deal %d at version %d has the change at %d", f.Deal, f.Version, c.Version)
			}
			got = append(got, feedEntry{version: c.Version, deal: c.Next.Number,
				change: fmt.Sprintf("deal %d → %d", c.Ended.Number, c.Next.Number)})
		}
		if f.Version <= since {
			t.Fatalf("since %d answered version %d", since, f.Version)
		}
		since = f.Version
	}
	return got
}

// followStream opens the event stream with Last-Event-ID since and reads
// the events up to the state of version last.
func followStream(t *testing.T, base string, id int64, token string, since, last int64) []feedEntry {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openEvents(t, ctx, base+tablePath(id, "events"), token, strconv.FormatInt(since, 10))
	var got []feedEntry
	for {
		ev := s.next(t, false)
		noDrawnCard(t, []byte(ev.Data))
		eventConforms(t, ev)
		switch ev.Event {
		case "state":
			if st := stateOfEvent(t, ev); st.Version != last {
				t.Errorf("the state event has version %d, want %d", st.Version, last)
			}
			return got
		default:
			got = append(got, entryOf(t, ev))
		}
	}
}

// noDrawnCard fails when an answer to a watcher shows a card drawn from
// the stock (every move of an all-bot table is another seat's).
func noDrawnCard(t *testing.T, body []byte) {
	t.Helper()
	if strings.Contains(string(body), `"drawn"`) || strings.Contains(string(body), `"pot":[`) {
		t.Fatalf("a watcher is shown a drawn card or a pot: %s", body)
	}
}

// eventConforms checks an event, as the object {event, id, data}, against
// openapi.yaml's TableEvent: what a generated client reads it as.
func eventConforms(t *testing.T, ev sseEvent) {
	t.Helper()
	id, err := strconv.ParseInt(ev.ID, 10, 64)
	var data any
	if err != nil || json.Unmarshal([]byte(ev.Data), &data) != nil {
		t.Fatalf("event %+v", ev)
	}
	schema := loadOpenAPI(t).Components.Schemas["TableEvent"]
	if err := schema.Value.VisitJSON(map[string]any{"event": ev.Event, "id": float64(id), "data": data}); err != nil {
		t.Errorf("a %s event does not match TableEvent: %s\n%s", ev.Event, schemaError(err), ev.Data)
	}
}
