package api_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestLobbyShowsEachTableAsItsGetDoes: the lobby reads its page with a
// statement of its own (not the one a table's GET uses); each table in it
// must be, field for field, what GET /tables/{id} answers the same caller:
// a club table with options and clocks, a private table (its invite code
// shown to its creator), a started table with a user and a bot seated.
func TestLobbyShowsEachTableAsItsGetDoes(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, a := e.user("anna@example.com", "Anna")
		_, b := e.user("bruno@example.com", "Bruno")
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: a.AccessToken, Body: api.ClubCreateRequest{Name: "Circolo"}}, &club)
		e.newTable(a.AccessToken, map[string]any{"rules": "fibur", "players": 4, "club_id": club.ID,
			"turn_seconds": 60, "match_seconds": 1800, "match": map[string]any{"deals": 3}})
		e.newTable(a.AccessToken, api.TableCreateRequest{Rules: "reale", Players: 2, Private: true})
		started := e.newTable(a.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 4})
		e.must(200, req{Method: "POST", Path: tablePath(started.ID, "join"), Token: b.AccessToken}, nil)
		for range 2 {
			e.must(200, req{Method: "POST", Path: tablePath(started.ID, "bots"), Token: a.AccessToken}, nil)
		}
		e.must(200, req{Method: "POST", Path: tablePath(started.ID, "start"), Token: a.AccessToken}, nil)

		var list struct {
			Items []map[string]any `json:"items"`
			Total int              `json:"total"`
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/tables", Token: a.AccessToken}, &list)
		if list.Total != 3 || len(list.Items) != 3 {
			t.Fatalf("lobby: %d of %d tables, want 3", len(list.Items), list.Total)
		}
		for _, item := range list.Items {
			id := int64(item["id"].(float64))
			var got map[string]any
			e.must(200, req{Method: "GET", Path: tablePath(id), Token: a.AccessToken}, &got)
			if diff := cmp.Diff(got, item); diff != "" {
				t.Errorf("table %d in the lobby (-GET +lobby):\n%s", id, diff)
			}
		}
	})
}

// TestLobbyAnswers304UntilAPageChanges: the lobby's ETag names its content:
// sent back, a 304 with no body; after a change of a table on the page
// (a player joins), or for another caller who sees other tables, a 200.
func TestLobbyAnswers304UntilAPageChanges(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, a := e.user("anna@example.com", "Anna")
		_, b := e.user("bruno@example.com", "Bruno")
		tb := e.newTable(a.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2})
		e.newTable(a.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Private: true})
		res := e.must(200, req{Method: "GET", Path: "/api/v1/tables", Token: a.AccessToken}, nil)
		etag := res.Header.Get("ETag")
		if etag == "" {
			t.Fatal("no ETag")
		}
		same := req{Method: "GET", Path: "/api/v1/tables", Token: a.AccessToken, Header: map[string]string{"If-None-Match": etag}}
		if res := e.must(304, same, nil); len(res.Body) != 0 || res.Header.Get("ETag") != etag {
			t.Errorf("304: body %q, ETag %q", res.Body, res.Header.Get("ETag"))
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/tables", Token: b.AccessToken, Header: map[string]string{"If-None-Match": etag}}, nil)
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: b.AccessToken}, nil)
		if res := e.must(200, same, nil); res.Header.Get("ETag") == etag {
			t.Errorf("after a join: the same ETag %s", etag)
		}
	})
}

// TestLobbyKeepsEachCallersAnswer: the lobby's answers are kept encoded
// per stamp, and callers who see the same tables are not all shown the
// same: the creator is shown a table's invite code, a stranger and an
// anonymous caller are not, whoever read the page first; and the same
// page read again after a change of one table shows the change.
func TestLobbyKeepsEachCallersAnswer(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, a := e.user("anna@example.com", "Anna")
		_, b := e.user("bruno@example.com", "Bruno")
		tb := e.newTable(a.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2})
		if tb.InviteCode == "" {
			t.Fatal("the creator is not shown the invite code")
		}
		lobby := func(token string) (api.TableList, string) {
			var list api.TableList
			res := e.must(200, req{Method: "GET", Path: "/api/v1/tables", Token: token}, &list)
			if len(list.Items) != 1 {
				t.Fatalf("lobby: %+v", list)
			}
			return list, res.Header.Get("ETag")
		}
		for round := range 2 { // the second time, every answer comes from what is kept
			anna, annaTag := lobby(a.AccessToken)
			bruno, brunoTag := lobby(b.AccessToken)
			anon, anonTag := lobby("")
			if anna.Items[0].InviteCode != tb.InviteCode || bruno.Items[0].InviteCode != "" || anon.Items[0].InviteCode != "" {
				t.Errorf("round %d: invite codes shown: Anna %q, Bruno %q, anonymous %q", round,
					anna.Items[0].InviteCode, bruno.Items[0].InviteCode, anon.Items[0].InviteCode)
			}
			if annaTag == brunoTag || brunoTag != anonTag {
				t.Errorf("round %d: ETags Anna %s, Bruno %s, anonymous %s", round, annaTag, brunoTag, anonTag)
			}
		}
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: b.AccessToken}, nil)
		anon, _ := lobby("")
		if anon.Items[0].FreeSeats != 0 || len(anon.Items[0].Seats) != 2 || anon.Items[0].Seats[1].Name != "Bruno" {
			t.Errorf("after Bruno joined: %+v", anon.Items[0])
		}
	})
}
