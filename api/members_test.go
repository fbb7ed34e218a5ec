package api_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestMemberEmailsOnlyForAdminsAndSelf checks who sees the e-mail
// addresses in a club's member list: the club's owners and admins and site
// admins see every one; a referee or member only their own, the others'
// field being absent from the JSON.
func TestMemberEmailsOnlyForAdminsAndSelf(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, ownerTok := e.user("owner@club.example", "Owner")
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: ownerTok.AccessToken, Body: api.ClubCreateRequest{Name: "Club"}}, &club)
		tokens := map[string]string{"owner": ownerTok.AccessToken, "site_admin": e.siteAdmin().AccessToken}
		for _, role := range []string{"admin", "referee", "member"} {
			u, tok := e.user(role+"@club.example", role)
			e.must(201, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/members", club.ID), Token: ownerTok.AccessToken,
				Body: api.MemberAddRequest{UserID: &u.ID, Role: role}}, nil)
			tokens[role] = tok.AccessToken
		}
		self := map[string]string{"admin": "admin@club.example", "referee": "referee@club.example", "member": "member@club.example"}
		for caller, tok := range tokens {
			t.Run(caller, func(t *testing.T) {
				res := e.must(200, req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/members", club.ID), Token: tok}, nil)
				var raw struct {
					Items []map[string]any `json:"items"`
				}
				if err := json.Unmarshal(res.Body, &raw); err != nil {
					t.Fatal(err)
				}
				seesAll := caller == "owner" || caller == "admin" || caller == "site_admin"
				shown := 0
				for _, m := range raw.Items {
					email, has := m["user_email"]
					mine := email == self[caller]
					switch {
					case seesAll && !has:
						t.Errorf("%s does not see the address of %v", caller, m["user_name"])
					case !seesAll && has && !mine:
						t.Errorf("%s sees the address of %v: %v", caller, m["user_name"], email)
					case has && email == "":
						t.Errorf("an empty address is sent instead of none")
					}
					if has {
						shown++
					}
				}
				want := 1
				if seesAll {
					want = len(raw.Items)
				}
				if len(raw.Items) != 4 || shown != want {
					t.Errorf("%d members, %d addresses shown, want 4 and %d: %s", len(raw.Items), shown, want, res.Body)
				}
			})
		}
		var mine api.MemberList
		e.must(200, req{Method: "GET", Path: "/api/v1/me/clubs", Token: tokens["member"]}, &mine)
		if len(mine.Items) != 1 || mine.Items[0].UserEmail != "member@club.example" {
			t.Errorf("a member's own clubs lack their address: %+v", mine)
		}
	})
}
