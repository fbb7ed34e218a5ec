package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestOddStringsAreNot500 sends strings the databases refuse (a NUL byte is
// valid JSON but not a valid PostgreSQL text value) to every field that
// reaches a query: each must get a 4xx problem.
func TestOddStringsAreNot500(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("odd@example.com", "Odd")
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: tok.AccessToken, Body: api.ClubCreateRequest{Name: "Odd club"}}, &club)
		for _, r := range []req{
			{Method: "POST", Path: "/api/v1/auth/login", Body: `{"email":"a\u0000@example.com","password":"x"}`},
			{Method: "POST", Path: "/api/v1/auth/login", Body: `{"email":"` + strings.Repeat("a", 5000) + `@example.com","password":"x"}`},
			{Method: "POST", Path: "/api/v1/auth/register", Body: `{"email":"a\u0000@example.com","password":"password-123","name":"N"}`},
			{Method: "POST", Path: "/api/v1/clubs", Token: tok.AccessToken, Body: `{"name":"a\u0000b"}`},
			{Method: "POST", Path: "/api/v1/players", Token: tok.AccessToken, Body: `{"name":"P","federation_id":"a\u0000b"}`},
			{Method: "GET", Path: "/api/v1/players?q=a%00b"},
			{Method: "GET", Path: "/api/v1/clubs?q=a%00b"},
			{Method: "GET", Path: "/api/v1/players?q=%ff%fe"},
			{Method: "GET", Path: "/api/v1/clubs?offset=9223372036854775807"},
			{Method: "GET", Path: "/api/v1/players?club_id=9223372036854775807&offset=9223372036854775807&limit=100"},
			{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID), Token: tok.AccessToken, Body: `{"name":"a\u0000b","rules":"fibur\u0000","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`},
			{Method: "GET", Path: "/api/v1/tournaments?q=a%00b&status=a%00b"},
			{Method: "GET", Path: "/api/v1/tournaments?club_id=9223372036854775807&offset=9223372036854775807&limit=100"},
		} {
			t.Run(r.Method+" "+r.Path, func(t *testing.T) {
				res := e.do(r)
				if res.Status >= 500 {
					t.Fatalf("status %d: %s", res.Status, res.Body)
				}
			})
		}
	})
}

// TestPlayerListFiltersCombine checks that q (name OR federation id) and
// club_id combine with AND: a name match in another club is not listed.
func TestPlayerListFiltersCombine(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		admin := e.siteAdmin().AccessToken
		var a, b api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: admin, Body: api.ClubCreateRequest{Name: "A"}}, &a)
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: admin, Body: api.ClubCreateRequest{Name: "B"}}, &b)
		for _, p := range []api.PlayerCreateRequest{
			{Name: "Anna in A", ClubID: &a.ID}, {Name: "Anna in B", ClubID: &b.ID}, {Name: "Bruno in A", ClubID: &a.ID},
		} {
			e.must(201, req{Method: "POST", Path: "/api/v1/players", Token: admin, Body: p}, nil)
		}
		var list api.PlayerList
		e.must(200, req{Method: "GET", Path: fmt.Sprintf("/api/v1/players?q=anna&club_id=%d", a.ID)}, &list)
		if list.Total != 1 || len(list.Items) != 1 || list.Items[0].Name != "Anna in A" {
			t.Fatalf("q AND club_id: %+v", list)
		}
		// LIKE wildcards in q are literal.
		e.must(200, req{Method: "GET", Path: "/api/v1/players?q=%25"}, &list)
		if list.Total != 0 {
			t.Fatalf("q=%%: %+v", list)
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/players?q=_"}, &list)
		if list.Total != 0 {
			t.Fatalf("q=_: %+v", list)
		}
	})
}

// TestConcurrentWrites registers users and creates clubs from 20 goroutines
// at once: on a SQLite file no "database is locked" may escape as a 5xx, and
// on PostgreSQL nothing may either.
func TestConcurrentWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, owner := e.user("owner@example.com", "Owner")
		const n = 20
		var wg sync.WaitGroup
		errs := make(chan string, 4*n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, r := range []req{
					{Method: "POST", Path: "/api/v1/auth/register",
						Body: api.RegisterRequest{Email: fmt.Sprintf("c%d@example.com", i), Password: "password-123", Name: "C"}},
					{Method: "POST", Path: "/api/v1/auth/register", // the same email from every goroutine
						Body: api.RegisterRequest{Email: "same@example.com", Password: "password-123", Name: "S"}},
					{Method: "POST", Path: "/api/v1/clubs", Token: owner.AccessToken,
						Body: api.ClubCreateRequest{Name: fmt.Sprintf("Club %d", i)}},
					{Method: "POST", Path: "/api/v1/auth/login",
						Body: api.LoginRequest{Email: "owner@example.com", Password: "password-123"}},
				} {
					if res := e.do(r); res.Status >= 500 {
						errs <- fmt.Sprintf("%s %s: %d %s", r.Method, r.Path, res.Status, res.Body)
					} else if res.Status >= 400 && !strings.Contains(string(res.Body), "already registered") {
						errs <- fmt.Sprintf("%s %s: %d %s", r.Method, r.Path, res.Status, res.Body)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		var list api.ClubList
		e.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/clubs?limit=100"}, &list)
		if list.Total != n {
			t.Errorf("%d clubs, want %d", list.Total, n)
		}
	})
}

// TestConcurrentRefresh presents one refresh token from 20 goroutines at
// once: exactly one gets a new pair, every other one is a reuse (401), and
// none is a 5xx (no deadlock, no "database is locked").
func TestConcurrentRefresh(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("race@example.com", "Race")
		const n = 20
		statuses := make(chan response, n)
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses <- e.do(req{Method: "POST", Path: "/api/v1/auth/refresh", Body: api.RefreshRequest{RefreshToken: tok.RefreshToken}})
			}()
		}
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for res := range statuses {
			count[res.Status]++
			if res.Status != 200 && res.Status != 401 {
				t.Errorf("status %d: %s", res.Status, res.Body)
			}
		}
		if count[200] != 1 || count[401] != n-1 {
			t.Errorf("statuses %v, want one 200 and %d 401", count, n-1)
		}
	})
}
