package api_test

import (
	"fmt"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestRightsChangeAtOnce: the server caches who a token's user is, but a
// change made through the same process takes effect on the very next
// request, with the clock standing still: a promoted user may act as a site
// admin, a demoted one may not, and a deleted user's token is refused.
func TestRightsChangeAtOnce(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		e.siteAdmin()
		s, err := e.svc.Auth.Login(t.Context(), "root@example.com", "root-password-1")
		if err != nil {
			t.Fatal(err)
		}
		root := domain.Actor{UserID: s.User.ID, SiteAdmin: true}
		bruno, brunoTok := e.user("bruno@example.com", "Bruno")
		_, carlaTok := e.user("carla@example.com", "Carla")
		// Linking a profile to another user is for site admins only.
		link := func(i int) req {
			return req{Method: "POST", Path: "/api/v1/players", Token: brunoTok.AccessToken,
				Body: map[string]any{"name": fmt.Sprintf("Linked %d", i), "user_id": s.User.ID}}
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/me", Token: brunoTok.AccessToken}, nil) // cached: not an admin
		problemOf(t, e.do(link(1)), "forbidden")

		if _, err := e.svc.Auth.SetSiteAdmin(t.Context(), root, bruno.ID, true); err != nil {
			t.Fatal(err)
		}
		e.must(201, link(2), nil)

		if _, err := e.svc.Auth.SetSiteAdmin(t.Context(), root, bruno.ID, false); err != nil {
			t.Fatal(err)
		}
		problemOf(t, e.do(link(3)), "forbidden")

		var carla struct{ ID int64 }
		e.must(200, req{Method: "GET", Path: "/api/v1/me", Token: carlaTok.AccessToken}, &carla) // cached
		if err := e.svc.Auth.DeleteUser(t.Context(), root, carla.ID); err != nil {
			t.Fatal(err)
		}
		problemOf(t, e.do(req{Method: "GET", Path: "/api/v1/me", Token: carlaTok.AccessToken}), "unauthenticated")
		problemOf(t, e.do(req{Method: "GET", Path: "/api/v1/players", Token: carlaTok.AccessToken}), "unauthenticated") // public routes too
	})
}
