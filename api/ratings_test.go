package api_test

import (
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/rating"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// pairTable starts a 2-player fibur table of one deal between the holders
// of tokens a (the creator, seat 0) and b (seat 1), with body's settings.
func pairTable(e *env, a, b string, body api.TableCreateRequest) api.Table {
	e.t.Helper()
	body.Rules, body.Players, body.Match = "fibur", 2, &api.MatchFormat{Deals: 1}
	if body.GraceSeconds == nil {
		body.GraceSeconds = ptr(0)
	}
	tb := e.newTable(a, body)
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: b}, nil)
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: a}, &tb)
	return tb
}

// leaveMatch ends a playing table's match at once: the holder of token
// leaves it, forfeiting it for their team.
func leaveMatch(e *env, id int64, token string) api.Table {
	e.t.Helper()
	var tb api.Table
	e.must(200, req{Method: "POST", Path: tablePath(id, "leave"), Token: token}, &tb)
	if tb.Status != "finished" {
		e.t.Fatalf("after leaving: status %s", tb.Status)
	}
	return tb
}

func rematchReq(method string, id int64, token string) req {
	return req{Method: method, Path: tablePath(id, "rematch"), Token: token}
}

// firstDealer is the dealer of a table's first deal.
func firstDealer(e *env, id int64, token string) int {
	e.t.Helper()
	var deals struct{ Items []api.TableDeal }
	e.must(200, req{Method: "GET", Path: tablePath(id, "deals"), Token: token}, &deals)
	if len(deals.Items) == 0 {
		e.t.Fatalf("table %d has no deal", id)
	}
	return deals.Items[0].Dealer
}

// TestRematchStartsWhenAllSeatsAgree: once the match is over, each player's
// wish is recorded on the finished table (again: nothing changes; withdrawn:
// gone); when the last player agrees a new table starts with the same seats
// and options, the first deal dealt by the seat after the finished match's
// first dealer, and the finished table names it; a bot agrees by itself;
// two players agreeing at once start exactly one rematch. Refused: before
// the match is over (match_not_over), to one who did not play it
// (not_seated), a withdrawal once it began (rematch_started).
func TestRematchStartsWhenAllSeatsAgree(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, a := e.user("anna@example.com", "Anna")
		_, b := e.user("bruno@example.com", "Bruno")
		_, c := e.user("carla@example.com", "Carla")
		anna, bruno, carla := a.AccessToken, b.AccessToken, c.AccessToken
		tb := pairTable(e, anna, bruno, api.TableCreateRequest{TurnSeconds: 30})

		problemOf(t, e.must(409, rematchReq("POST", tb.ID, anna), nil), "match_not_over")
		done := leaveMatch(e, tb.ID, bruno)
		problemOf(t, e.must(403, rematchReq("POST", tb.ID, carla), nil), "not_seated")

		var got api.Table
		e.must(200, rematchReq("POST", tb.ID, anna), &got)
		if got.Rematch == nil || fmt.Sprint(got.Rematch.Wishes) != "[0]" || got.Rematch.TableID != nil || got.Version != done.Version+1 {
			t.Fatalf("after Anna's wish: rematch %+v, version %d (was %d)", got.Rematch, got.Version, done.Version)
		}
		var again api.Table
		e.must(200, rematchReq("POST", tb.ID, anna), &again)
		if again.Version != got.Version {
			t.Errorf("a wish made again made version %d (was %d)", again.Version, got.Version)
		}
		var withdrawn api.Table
		e.must(200, rematchReq("DELETE", tb.ID, anna), &withdrawn)
		if withdrawn.Rematch != nil || withdrawn.Version != got.Version+1 {
			t.Errorf("after withdrawing: rematch %+v, version %d", withdrawn.Rematch, withdrawn.Version)
		}
		e.must(200, rematchReq("POST", tb.ID, anna), nil)
		e.must(200, rematchReq("POST", tb.ID, bruno), &got)
		if got.Rematch == nil || got.Rematch.TableID == nil || fmt.Sprint(got.Rematch.Wishes) != "[0 1]" {
			t.Fatalf("after both wished: rematch %+v", got.Rematch)
		}
		if st, _ := e.state(bruno, tb.ID); st.Table.Rematch == nil || st.Table.Rematch.TableID == nil || *st.Table.Rematch.TableID != *got.Rematch.TableID {
			t.Errorf("the finished table's state: rematch %+v", st.Table.Rematch)
		}
		var next api.Table
		e.must(200, req{Method: "GET", Path: tablePath(*got.Rematch.TableID), Token: anna}, &next)
		if next.Status != "playing" || next.ID == tb.ID || next.Rules != tb.Rules || next.Players != 2 ||
			next.TurnSeconds != 30 || next.Match != tb.Match || next.CreatorID != tb.CreatorID ||
			*next.Seats[0].UserID != *tb.Seats[0].UserID || *next.Seats[1].UserID != *tb.Seats[1].UserID {
			t.Fatalf("the rematch: %+v", next)
		}
		if d, want := firstDealer(e, next.ID, anna), (firstDealer(e, tb.ID, anna)+1)%2; d != want {
			t.Errorf("the rematch's first dealer is seat %d, want %d (the seat after the last match's first dealer)", d, want)
		}
		problemOf(t, e.must(409, rematchReq("DELETE", tb.ID, anna), nil), "rematch_started")
		e.must(200, rematchReq("POST", tb.ID, bruno), &again)
		if again.Version != got.Version || *again.Rematch.TableID != next.ID {
			t.Errorf("a wish after the start: version %d (was %d), rematch %+v", again.Version, got.Version, again.Rematch)
		}

		t.Run("ABotAgreesByItself", func(t *testing.T) {
			solo := e.newTable(carla, api.TableCreateRequest{Rules: "reale", Players: 2, GraceSeconds: ptr(0)})
			e.must(200, req{Method: "POST", Path: tablePath(solo.ID, "bots"), Token: carla}, nil)
			e.must(200, req{Method: "POST", Path: tablePath(solo.ID, "start"), Token: carla}, nil)
			leaveMatch(e, solo.ID, carla)
			var got api.Table
			e.must(200, rematchReq("POST", solo.ID, carla), &got)
			if got.Rematch == nil || got.Rematch.TableID == nil {
				t.Fatalf("rematch %+v", got.Rematch)
			}
		})

		t.Run("TwoAgreeingAtOnceStartOne", func(t *testing.T) {
			_, d := e.user("dario@example.com", "Dario")
			_, f := e.user("franca@example.com", "Franca")
			tb := pairTable(e, d.AccessToken, f.AccessToken, api.TableCreateRequest{})
			leaveMatch(e, tb.ID, f.AccessToken)
			var wg sync.WaitGroup
			for _, tok := range []string{d.AccessToken, f.AccessToken} {
				wg.Go(func() { e.must(200, rematchReq("POST", tb.ID, tok), nil) })
			}
			wg.Wait()
			var list api.TableList
			e.must(200, req{Method: "GET", Path: "/api/v1/tables?mine=true&status=playing", Token: d.AccessToken}, &list)
			var final api.Table
			e.must(200, req{Method: "GET", Path: tablePath(tb.ID), Token: d.AccessToken}, &final)
			if list.Total != 1 || final.Rematch == nil || final.Rematch.TableID == nil || *final.Rematch.TableID != list.Items[0].ID {
				t.Fatalf("playing tables %d, rematch %+v", list.Total, final.Rematch)
			}
		})
	})
}

// ratingsOf is a user's ratings.
func ratingsOf(e *env, token string, userID int64) api.UserRatings {
	e.t.Helper()
	var out api.UserRatings
	e.must(200, req{Method: "GET", Path: fmt.Sprintf("/api/v1/users/%d/ratings", userID), Token: token}, &out)
	return out
}

// TestRatingsMoveOnlyOnRatedFinishedMatches: a rated match played to its
// end moves both players' ratings in the italian family exactly as
// Glicko-2 (domain/rating, tested on the paper's worked example) says for
// a new player against a new player, with the history and the leaderboard
// (provisional: one match); an unrated match, and a rated one in which a
// bot stood in for a player for a while, an aborted one and a claimed draw
// move nothing; a forfeit and a claimed win do; in pairs each player is
// rated against the opposing pair as one; a rated table seats no bot
// (rated_with_bots).
func TestRatingsMoveOnlyOnRatedFinishedMatches(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		ua, a := e.user("anna@example.com", "Anna")
		ub, b := e.user("bruno@example.com", "Bruno")
		anna, bruno := a.AccessToken, b.AccessToken
		users := [2]int64{ua.ID, ub.ID}

		if r := ratingsOf(e, anna, ua.ID); len(r.Ratings) != 0 || len(r.History) != 0 {
			t.Fatalf("before any match: %+v", r)
		}
		tb := pairTable(e, anna, bruno, api.TableCreateRequest{Rated: true})
		if !tb.Rated {
			t.Fatalf("rated %v", tb.Rated)
		}
		final, _ := playScripted(t, e, db, tb.ID, map[int]string{0: anna, 1: bruno})
		if final.Table.Result != "played" {
			t.Fatalf("result %s", final.Table.Result)
		}
		for seat, uid := range users {
			score := 0.5
			if w := final.Table.Winner; w != nil && *w == seat {
				score = 1
			} else if w != nil {
				score = 0
			}
			want := rating.Update(rating.New(), []rating.Game{{Opponent: rating.New(), Score: score}}, rating.Tau)
			r := ratingsOf(e, anna, uid)
			if len(r.Ratings) != 1 || len(r.History) != 1 {
				t.Fatalf("seat %d: %+v", seat, r)
			}
			got, h := r.Ratings[0], r.History[0]
			if got.Family != "italian" || got.Games != 1 || !got.Provisional || math.Abs(got.Rating-want.Rating) > 1e-9 ||
				math.Abs(got.RD-want.RD) > 1e-9 || math.Abs(got.Volatility-want.Volatility) > 1e-9 {
				t.Errorf("seat %d (score %v): %+v, want %+v", seat, score, got, want)
			}
			if h.TableID != tb.ID || h.Score != score || h.RatingBefore != 1500 || h.RDBefore != 350 || h.Opponent != 1500 ||
				h.Rating != got.Rating {
				t.Errorf("seat %d: history %+v", seat, h)
			}
		}
		var board api.RatingList
		e.must(200, req{Method: "GET", Path: "/api/v1/ratings?family=italian", Token: bruno}, &board)
		if board.Total != 2 || len(board.Items) != 2 || board.Items[0].Rating < board.Items[1].Rating {
			t.Errorf("leaderboard %+v", board)
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/ratings?family=reale", Token: bruno}, &board)
		if board.Total != 0 {
			t.Errorf("reale leaderboard %+v", board)
		}
		problemOf(t, e.must(400, req{Method: "GET", Path: "/api/v1/ratings?family=poker", Token: bruno}, nil), "invalid_parameter") // outside the schema's enum
		e.must(401, req{Method: "GET", Path: "/api/v1/ratings?family=italian"}, nil)
		e.must(404, req{Method: "GET", Path: "/api/v1/users/999999/ratings", Token: bruno}, nil)
		moved := [2]api.UserRatings{ratingsOf(e, anna, users[0]), ratingsOf(e, anna, users[1])}

		unchanged := func(t *testing.T) {
			t.Helper()
			for i, uid := range users {
				if got := ratingsOf(e, anna, uid); fmt.Sprint(got) != fmt.Sprint(moved[i]) {
					t.Errorf("user %d: %+v, was %+v", uid, got, moved[i])
				}
			}
		}
		t.Run("AnUnratedMatchMovesNothing", func(t *testing.T) {
			tb := pairTable(e, anna, bruno, api.TableCreateRequest{})
			leaveMatch(e, tb.ID, bruno)
			unchanged(t)
		})
		// Anna and Bruno poll, then Bruno stops: gone past a reconnect
		// window of 10 s once 11 s have passed.
		brunoGone := func(id int64) {
			e.state(anna, id)
			e.state(bruno, id)
			e.clock.Add(11 * time.Second)
			e.state(anna, id)
		}
		t.Run("AnAbortedRatedMatchMovesNothing", func(t *testing.T) {
			tb := pairTable(e, anna, bruno, api.TableCreateRequest{Rated: true})
			brunoGone(tb.ID)
			var done api.Table
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "abort"), Token: anna}, &done)
			if done.Result != "aborted" {
				t.Fatalf("result %s", done.Result)
			}
			unchanged(t)
		})
		t.Run("AClaimedDrawMovesNothing", func(t *testing.T) {
			tb := pairTable(e, anna, bruno, api.TableCreateRequest{Rated: true, ReconnectSeconds: ptr(10)})
			brunoGone(tb.ID)
			var done api.Table
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "claim"), Token: anna, Body: map[string]any{"result": "draw"}}, &done)
			if done.Result != "claimed" || !done.Draw {
				t.Fatalf("result %s, draw %v", done.Result, done.Draw)
			}
			unchanged(t)
		})
		t.Run("ARatedTableSeatsNoBot", func(t *testing.T) {
			tb := e.newTable(anna, api.TableCreateRequest{Rules: "fibur", Players: 2, Rated: true})
			problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: anna}, nil), "rated_with_bots")
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "cancel"), Token: anna}, nil)
		})
		t.Run("ABotStandingInOnceMovesNothing", func(t *testing.T) {
			tb := pairTable(e, anna, bruno, api.TableCreateRequest{Rated: true, GraceSeconds: ptr(60), AbsentPolicy: "bot"})
			st, _ := e.state(anna, tb.ID)
			away := st.View.Turn
			tokens := map[int]string{0: anna, 1: bruno}
			e.tick(0) // the process watches from now
			e.clock.Add(61 * time.Second)
			e.tick(1)
			after, _ := e.state(tokens[1-away], tb.ID)
			if after.Table.Seats[away].StandIn != "absent" {
				t.Fatalf("seat %+v", after.Table.Seats[away])
			}
			e.state(tokens[away], tb.ID) // back: the seat is theirs again at their next turn
			final, _ := playScripted(t, e, db, tb.ID, tokens)
			if final.Table.Result != "played" || final.Table.Seats[away].StandIn != "" {
				t.Fatalf("result %s, seat %+v", final.Table.Result, final.Table.Seats[away])
			}
			unchanged(t)
		})
		if t.Failed() {
			return
		}
		// A forfeit of a rated match (the other player left) rates too, and
		// so does a claimed win.
		tb = pairTable(e, anna, bruno, api.TableCreateRequest{Rated: true})
		leaveMatch(e, tb.ID, bruno)
		if r := ratingsOf(e, anna, users[0]); r.Ratings[0].Games != 2 || r.History[0].TableID != tb.ID || r.History[0].Score != 1 {
			t.Errorf("after Bruno left a rated match: %+v", r)
		}
		tb = pairTable(e, anna, bruno, api.TableCreateRequest{Rated: true, ReconnectSeconds: ptr(10)})
		brunoGone(tb.ID)
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "claim"), Token: anna, Body: map[string]any{"result": "win"}}, nil)
		if r := ratingsOf(e, anna, users[1]); r.Ratings[0].Games != 3 || r.History[0].TableID != tb.ID || r.History[0].Score != 0 {
			t.Errorf("after Anna claimed a rated match Bruno walked out of: %+v", r)
		}

		// Pairs: Anna and Carla (seats 0, 2) against Bruno and Dario (1, 3);
		// Dario leaves. Each is rated against the opposing pair as one: its
		// mean rating, the root mean square of its deviations.
		uc, c := e.user("carla@example.com", "Carla")
		ud, d := e.user("dario@example.com", "Dario")
		brunoBefore := ratingsOf(e, anna, users[1]).Ratings[0]
		pairs := e.newTable(anna, api.TableCreateRequest{Rules: "fibur", Players: 4, Rated: true, GraceSeconds: ptr(0)})
		for _, tok := range []string{bruno, c.AccessToken, d.AccessToken} {
			e.must(200, req{Method: "POST", Path: tablePath(pairs.ID, "join"), Token: tok}, nil)
		}
		e.must(200, req{Method: "POST", Path: tablePath(pairs.ID, "start"), Token: anna}, nil)
		leaveMatch(e, pairs.ID, d.AccessToken)
		wantOpp, wantRD := (brunoBefore.Rating+1500)/2, math.Sqrt((brunoBefore.RD*brunoBefore.RD+350*350)/2)
		for _, uid := range []int64{ua.ID, uc.ID} {
			h := ratingsOf(e, anna, uid).History[0]
			if h.TableID != pairs.ID || h.Score != 1 || math.Abs(h.Opponent-wantOpp) > 1e-9 || math.Abs(h.OpponentRD-wantRD) > 1e-9 {
				t.Errorf("user %d after the pairs match: %+v, want opponent %.4f/%.4f", uid, h, wantOpp, wantRD)
			}
		}
		if h := ratingsOf(e, anna, ud.ID).History[0]; h.TableID != pairs.ID || h.Score != 0 {
			t.Errorf("Dario after the pairs match: %+v", h)
		}
	})
}
