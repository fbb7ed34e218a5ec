package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestPlayerListAnswers304UntilAPlayerChanges: the player list and a
// profile are kept in memory, the list named by an ETag; a 304 while
// nothing changed, and the change itself in the next answer after a
// player is created, renamed or deleted.
func TestPlayerListAnswers304UntilAPlayerChanges(t *testing.T) {
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		u, a := e.user("anna@example.com", "Anna")
		list := func() (api.PlayerList, string) {
			var l api.PlayerList
			res := e.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/players", Token: a.AccessToken}, &l)
			return l, res.Header.Get("ETag")
		}
		var p api.Player
		e.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/players", Token: a.AccessToken,
			Body: api.PlayerCreateRequest{Name: "Anna Rossi", UserID: &u.ID}}, &p)
		l, etag := list()
		if l.Total != 1 || etag == "" {
			t.Fatalf("list %+v, ETag %q", l, etag)
		}
		// On PostgreSQL a process starts listening for other processes'
		// writes at its first kept read, and until it listens it keeps
		// nothing: the list is read anew and tagged by its bytes, then by
		// its kept stamp once the listener is up (seen under load: the
		// conditional request, sent with the bytes' tag, answered 200).
		listening(t, db)
		_, again := list()
		conditional := req{Method: "GET", Path: "/api/v1/players", Token: a.AccessToken, Header: map[string]string{"If-None-Match": again}}
		e.must(http.StatusNotModified, conditional, nil)
		e.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/players/" + itoa(p.ID), Token: a.AccessToken}, nil) // kept

		name := "Anna Maria Rossi"
		e.must(http.StatusOK, req{Method: "PATCH", Path: "/api/v1/players/" + itoa(p.ID), Token: a.AccessToken,
			Body: api.PlayerUpdateRequest{Name: &name}}, nil)
		var renamed api.PlayerList
		e.must(http.StatusOK, conditional, &renamed)
		if len(renamed.Items) != 1 || renamed.Items[0].Name != name {
			t.Errorf("after the rename: %+v", renamed.Items)
		}
		var profile api.Player
		e.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/players/" + itoa(p.ID), Token: a.AccessToken}, &profile)
		if profile.Name != name {
			t.Errorf("the profile after the rename: %q", profile.Name)
		}
		e.must(http.StatusNoContent, req{Method: "DELETE", Path: "/api/v1/players/" + itoa(p.ID), Token: a.AccessToken}, nil)
		if l, _ := list(); l.Total != 0 {
			t.Errorf("after the delete: %+v", l)
		}
		e.must(http.StatusNotFound, req{Method: "GET", Path: "/api/v1/players/" + itoa(p.ID), Token: a.AccessToken}, nil)
	})
}

// TestKeptListsShowAnotherProcessesWrites: two server processes on one
// PostgreSQL database. B's player list and lobby, kept in B's memory
// (for an hour if nothing told B otherwise), show what A wrote as soon as
// B hears of it.
func TestKeptListsShowAnotherProcessesWrites(t *testing.T) {
	databaseURL := storetest.PostgresURL(t)
	a := newEnv(t, storetest.Open(t, databaseURL))
	b := newEnvServices(t, storetest.Open(t, databaseURL), domain.Config{KeptReadsMaxAge: time.Hour})
	annaUser, anna := a.user("anna@example.com", "Anna")
	_, bruno := a.user("bruno@example.com", "Bruno")
	tb := a.newTable(anna.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2})
	var playersETag string
	players := func() api.PlayerList {
		var l api.PlayerList
		res := b.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/players", Token: anna.AccessToken}, &l)
		playersETag = res.Header.Get("ETag")
		return l
	}
	lobby := func() api.TableList {
		var l api.TableList
		b.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/tables"}, &l)
		return l
	}
	within := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(keptWithin)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("B did not show %s within %v", what, keptWithin)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// B reads both lists until it keeps them (its listener hears others:
	// a kept page's ETag starts with k).
	within("the first lists, kept", func() bool {
		return players().Total == 0 && len(lobby().Items) == 1 && strings.HasPrefix(playersETag, `"k`)
	})
	a.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/players", Token: anna.AccessToken,
		Body: api.PlayerCreateRequest{Name: "Anna Rossi", UserID: &annaUser.ID}}, nil)
	within("A's new player", func() bool { return players().Total == 1 })
	a.must(http.StatusOK, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: bruno.AccessToken}, nil)
	within("Bruno seated by A", func() bool {
		l := lobby()
		return len(l.Items) == 1 && l.Items[0].Seats[1].Name == "Bruno"
	})
}

// keptWithin is how soon another process's write shows in a kept list:
// when its notice (pg_notify) is heard, milliseconds on an idle machine.
const keptWithin = 5 * time.Second

// listening waits until db keeps reads: on PostgreSQL, until its listener
// for other processes' writes is up (at once on SQLite).
func listening(t *testing.T, db *store.DB) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := db.Mark("players"); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the database does not listen for other processes' writes after 10 s")
		}
	}
}
