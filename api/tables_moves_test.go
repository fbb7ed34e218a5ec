package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/engine"
)

// feed reads a deal's moves as token (deal 0: the current one; since -1:
// the whole deal).
func (e *env) feed(token string, id int64, deal int, since int64) api.TableMoves {
	e.t.Helper()
	path := tablePath(id, "moves") + "?"
	if deal > 0 {
		path += fmt.Sprintf("deal=%d&", deal)
	}
	if since >= 0 {
		path += fmt.Sprintf("since=%d", since)
	}
	var f api.TableMoves
	e.must(200, req{Method: "GET", Path: path, Token: token}, &f)
	return f
}

// storedDeal is a deal's row as the server keeps it, seed included.
func storedDeal(t *testing.T, db *store.DB, id int64, number int) (domain.TableDeal, domain.Table) {
	t.Helper()
	var d domain.TableDeal
	var tb domain.Table
	err := db.View(context.Background(), func(tx domain.Tx) error {
		var err error
		if tb, err = tx.Tables().Get(id); err != nil {
			return err
		}
		d, err = tx.Tables().Deal(id, number)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return d, tb
}

// dealtGame deals a stored deal again from its seed (test code only: the
// server never shows the seed of a running deal).
func dealtGame(t *testing.T, db *store.DB, id int64, number int) *engine.Game {
	t.Helper()
	d, tb := storedDeal(t, db, id, number)
	r, err := engine.NewRules(tb.Rules, tb.Players)
	if err != nil {
		t.Fatal(err)
	}
	if r.Options, err = engine.ParseOptions(tb.Rules, tb.Options); err != nil {
		t.Fatal(err)
	}
	g, err := engine.Deal(r, d.Dealer, d.Seed, d.Totals)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// notation is a move's notation as the API writes it.
func notation(t *testing.T, raw json.RawMessage) api.MoveNotation {
	t.Helper()
	var m api.MoveNotation
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBotMovesAppearOneByOne: at a table of one human and three bots, a
// human move followed by the bots' moves makes one version per move, in
// order: the event stream sends one move event each (the human's first,
// then each bot's, ids and versions consecutive) before the state at the
// last of them; the move feed past the version the human saw lists the
// same moves, which are the moves stored; and the whole deal's feed,
// applied in order to the deal as dealt, gives the position stored.
func TestBotMovesAppearOneByOne(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		srv := httptest.NewServer(e.h)
		defer srv.Close()
		_, tok := e.user("sara@example.com", "Sara")
		tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 4, Match: &api.MatchFormat{Deals: 1},
			GraceSeconds: ptr(0)})
		for range 3 {
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, nil)
		}
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: tok.AccessToken}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stream := openEvents(t, ctx, srv.URL+tablePath(tb.ID, "events"), tok.AccessToken, "")
		if _, first := stream.nextState(t); first.View.Turn != 0 {
			t.Fatalf("the bots did not play up to the human: turn %d", first.View.Turn)
		}
		_, spec := e.user("vito@example.com", "Vito")
		watcher := openEvents(t, ctx, srv.URL+tablePath(tb.ID, "events"), spec.AccessToken, "")
		watcher.nextState(t)
		c := chooser{rand.New(rand.NewPCG(5, 6))}
		mostBots := 0
		for turns := 0; turns < 6; {
			st, _ := e.state(tok.AccessToken, tb.ID)
			if st.Table.Status != "playing" {
				break
			}
			g, _ := serverGame(t, db, tb.ID)
			m := c.choose(g, 0)
			var after api.TableState
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tok.AccessToken, Body: moveBody(t, m, st.Version)}, &after)
			moves, ev := stream.nextState(t)
			if ev.Version != after.Version || len(moves) == 0 || moves[len(moves)-1].Version != after.Version {
				t.Fatalf("after a move at version %d answered at %d: state event %d, move events %+v", st.Version, after.Version, ev.Version, moves)
			}
			want, _ := m.MarshalJSON()
			if moves[0].Seat != 0 || moves[0].Auto || !cmp.Equal(moves[0].Move, notation(t, want)) {
				t.Fatalf("the first move event is not the human's move %s: %+v", want, moves[0])
			}
			for i, mv := range moves {
				if mv.Version != st.Version+int64(i)+1 || mv.Deal != 1 {
					t.Fatalf("move event %d: version %d deal %d after version %d: one version per move", i, mv.Version, mv.Deal, st.Version)
				}
				if i > 0 && (mv.Seat == 0 || !mv.Auto || mv.Seat < moves[i-1].Seat) {
					t.Fatalf("move event %d: seat %d auto %v after seat %d: the bots play in turn", i, mv.Seat, mv.Auto, moves[i-1].Seat)
				}
			}
			if f := e.feed(tok.AccessToken, tb.ID, 0, st.Version); f.Version != after.Version || !cmp.Equal(f.Items, moves) {
				t.Fatalf("the feed past %d (version %d) differs from the move events:\n%s", st.Version, f.Version, cmp.Diff(moves, f.Items))
			}
			// A spectator's stream has the same moves, without a card drawn.
			seen, _ := watcher.nextState(t)
			if f := e.feed(spec.AccessToken, tb.ID, 0, st.Version); len(seen) != len(moves) || !cmp.Equal(f.Items, seen) {
				t.Fatalf("the spectator's move events differ from its feed:\n%s", cmp.Diff(seen, f.Items))
			}
			for _, mv := range seen {
				if mv.Taken != nil && (len(mv.Taken.Drawn) > 0 || len(mv.Taken.Pot) > 0) {
					t.Fatalf("a spectator's move event shows %+v", mv.Taken)
				}
			}
			var stored []domain.TableMove
			for _, sm := range storedMoves(t, db, tb.ID, 1) {
				if sm.Version > st.Version {
					stored = append(stored, sm)
				}
			}
			if len(stored) != len(moves) {
				t.Fatalf("%d moves stored past version %d, %d move events", len(stored), st.Version, len(moves))
			}
			for i, sm := range stored {
				if sm.Seat != moves[i].Seat || sm.Index != moves[i].Index || !cmp.Equal(notation(t, sm.Move), moves[i].Move) {
					t.Fatalf("stored move %+v, event %+v", sm, moves[i])
				}
			}
			mostBots = max(mostBots, len(moves)-1)
			if m.Kind == engine.Discard {
				turns++
			}
		}
		if mostBots < 3 {
			t.Fatalf("at most %d bot moves after a human move: the test saw no bot turns", mostBots)
		}

		// The whole deal, applied to the deal as dealt, is the position stored.
		all := e.feed(tok.AccessToken, tb.ID, 1, -1)
		g := dealtGame(t, db, tb.ID, 1)
		if diff := sameJSON(t, g.View(0), all.Start); diff != "" {
			t.Fatalf("the feed's start is not the deal as dealt for seat 0 (-engine +feed):\n%s", diff)
		}
		for i, mv := range all.Items {
			var m engine.Move
			if err := json.Unmarshal([]byte(mustJSON(mv.Move)), &m); err != nil {
				t.Fatal(err)
			}
			if mv.Index != i || g.Apply(mv.Seat, m) != nil || i > 0 && mv.Version <= all.Items[i-1].Version {
				t.Fatalf("feed item %d: %+v does not follow", i, mv)
			}
		}
		want, _ := serverGame(t, db, tb.ID)
		if !cmp.Equal(g.Position(), want.Position()) {
			t.Fatalf("the feed replayed is not the stored position:\n%s", cmp.Diff(want.Position(), g.Position()))
		}
	})
}

// sameJSON compares two values by their JSON (the API's types mirror the
// engine's JSON) and returns the difference.
func sameJSON(t *testing.T, want, got any) string {
	t.Helper()
	var a, b any
	if err := json.Unmarshal([]byte(mustJSON(want)), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(mustJSON(got)), &b); err != nil {
		t.Fatal(err)
	}
	// The API leaves a spectator's hand out, where the engine's view has null.
	if m, ok := a.(map[string]any); ok {
		if h, has := m["hand"]; has && h == nil {
			delete(m, "hand")
		}
	}
	// start_totals is the engine's totals under the name that says which
	// (the API's, not the engine's): checked equal, then left out.
	if m, ok := b.(map[string]any); ok {
		if _, named := m["start_totals"]; named {
			if d := cmp.Diff(m["totals"], m["start_totals"]); d != "" {
				return "start_totals differ from totals: " + d
			}
			delete(m, "start_totals")
		}
	}
	return cmp.Diff(a, b)
}

// TestMoveFeedNeverShowsAHiddenCard plays whole deals (a human with bots,
// a spectator watching) and reads each deal's move feed as the human and
// as the spectator: of another seat's move, the viewer is shown no card
// drawn from the stock and no pot's cards (nor, in fechado, the pile
// taken), and no card in the item at all but the notation's and the public
// ones, but is told that a card was drawn (drawn_hidden); of its own
// moves, the human is shown each card it drew. Under the
// race detector it plays fechado alone (raceSample). The aberto match has
// two deals: deal 1's feed ends with the change to deal 2, whose start is
// what the viewer may see of deal 2 as dealt.
func TestMoveFeedNeverShowsAHiddenCard(t *testing.T) {
	t.Parallel()
	cases := raceSample([]struct {
		rules   string
		players int
		deals   int
	}{{"fibur", 4, 1}, {"fechado", 2, 1}, {"aberto", 2, 2}}, 1)
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("sara@example.com", "Sara")
		_, spec := e.user("vito@example.com", "Vito")
		hidden := 0
		for _, c := range cases {
			tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: c.rules, Players: c.players,
				Match: &api.MatchFormat{Deals: c.deals}, GraceSeconds: ptr(0)})
			for range c.players - 1 {
				e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, nil)
			}
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: tok.AccessToken}, nil)
			playHuman(t, e, db, tb.ID, tok.AccessToken, 0, chooser{rand.New(rand.NewPCG(9, 10))}, "")
			stored := storedMoves(t, db, tb.ID, 1)
			for _, v := range []struct {
				token string
				seat  int
			}{{tok.AccessToken, 0}, {spec.AccessToken, -1}} {
				f := e.feed(v.token, tb.ID, 1, -1)
				if f.Seat != v.seat || len(f.Items) != len(stored) {
					t.Fatalf("%s: seat %d, %d items for %d moves", c.rules, f.Seat, len(f.Items), len(stored))
				}
				if diff := sameJSON(t, dealtGame(t, db, tb.ID, 1).View(v.seat), f.Start); diff != "" {
					t.Fatalf("%s seat %d: the start is not the engine's view of the deal as dealt:\n%s", c.rules, v.seat, diff)
				}
				for i, item := range f.Items {
					hidden += checkFeedItem(t, engine.RuleSet(c.rules), v.seat, item, stored[i])
				}
				// The change to deal 2 shows it as dealt as the viewer sees it:
				// its own hand, no other (issue 29).
				if (c.deals > 1) != (f.DealChange != nil) {
					t.Fatalf("%s, %d deals: deal 1's feed has the deal change %+v", c.rules, c.deals, f.DealChange)
				}
				if f.DealChange != nil {
					if diff := sameJSON(t, dealtGame(t, db, tb.ID, 2).View(v.seat), f.DealChange.Start); diff != "" {
						t.Fatalf("%s seat %d: the deal change's start is not the engine's view of deal 2 as dealt:\n%s", c.rules, v.seat, diff)
					}
				}
			}
		}
		t.Logf("%d hidden cards taken by other seats", hidden)
		if hidden < 50*len(cases)/3 {
			t.Fatalf("only %d hidden cards were taken by other seats: the test proves little", hidden)
		}
	})
}

// checkFeedItem checks one feed item seen by seat against the move stored,
// and returns how many cards the move took that seat may not see.
func checkFeedItem(t *testing.T, rules engine.RuleSet, seat int, item api.PlayedMove, m domain.TableMove) int {
	t.Helper()
	var tk engine.Taken
	if err := json.Unmarshal(m.Taken, &tk); err != nil {
		t.Fatal(err)
	}
	where := fmt.Sprintf("%s seat %d, move %d of seat %d (%s)", rules, seat, m.Index, m.Seat, m.Move)
	if item.Version != m.Version || item.Seat != m.Seat || !cmp.Equal(item.Move, notation(t, m.Move)) {
		t.Fatalf("%s: item %+v", where, item)
	}
	var got engine.Taken
	if item.Taken != nil {
		_ = json.Unmarshal([]byte(mustJSON(item.Taken)), &got)
	}
	if m.Seat == seat {
		if !cmp.Equal(got, tk) || item.Taken != nil && item.Taken.DrawnHidden {
			t.Fatalf("%s: the mover is shown %+v of %+v", where, item.Taken, tk)
		}
		return 0
	}
	if len(got.Drawn) > 0 || len(got.Pot) > 0 || rules == engine.Fechado && len(got.Pile) > 0 {
		t.Fatalf("%s: another viewer is shown %+v", where, got)
	}
	// What is hidden is said to be: an absent drawn is hidden, not none
	// (issue 29).
	if hiddenDraw := len(tk.Drawn) > 0; hiddenDraw != (item.Taken != nil && item.Taken.DrawnHidden) {
		t.Fatalf("%s: the move drew %d cards, the viewer is shown taken %+v", where, len(tk.Drawn), item.Taken)
	}
	public := map[string]bool{}
	for _, c := range tk.TurnedUp {
		public[c.String()] = true
	}
	for _, c := range tk.Pile {
		public[c.String()] = rules != engine.Fechado
	}
	for _, tok := range cardToken.FindAllSubmatch(m.Move, -1) {
		public[string(tok[1])] = true
	}
	for _, tok := range cardToken.FindAllSubmatch([]byte(mustJSON(item)), -1) {
		if !public[string(tok[1])] {
			t.Fatalf("%s: %s is shown to a viewer who may not see it: %s", where, tok[1], mustJSON(item))
		}
	}
	return len(tk.Drawn) + len(tk.Pot) + map[bool]int{true: len(tk.Pile)}[rules == engine.Fechado]
}

// TestMoveFeedRefusals: each way a read of the move feed is refused, with
// its status and code.
func TestMoveFeedRefusals(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := twoHumans(e)
		_, stranger := e.user("vito@example.com", "Vito")
		open := e.newTable(tokens[0], api.TableCreateRequest{Rules: "fibur", Players: 2})
		private := e.newTable(tokens[0], api.TableCreateRequest{Rules: "fibur", Players: 2, Private: true})
		cases := []struct {
			name, path, token string
			status            int
			code              string
		}{
			{"NotStarted", tablePath(open.ID, "moves"), tokens[0], 404, "not_found"},
			{"NoSuchDeal", tablePath(tb.ID, "moves") + "?deal=9", tokens[0], 404, "not_found"},
			{"NoSuchTable", tablePath(999999, "moves"), tokens[0], 404, "not_found"},
			{"PrivateTableOfOthers", tablePath(private.ID, "moves"), stranger.AccessToken, 404, "not_found"},
			{"NegativeSince", tablePath(tb.ID, "moves") + "?since=-1", tokens[0], 400, "invalid_parameter"},
			{"DealNotANumber", tablePath(tb.ID, "moves") + "?deal=first", tokens[0], 400, "invalid_parameter"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				problemOf(t, e.must(c.status, req{Method: "GET", Path: c.path, Token: c.token}, nil), c.code)
			})
		}
		// Before any move, the feed of a started deal is empty, at the table's version.
		if f := e.feed(tokens[1], tb.ID, 0, -1); len(f.Items) != 0 || f.Seat != 1 || f.Deal != 1 {
			t.Fatalf("the feed before the first move: %+v", f)
		}
	})
}
