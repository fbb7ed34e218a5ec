package api_test

import (
	"context"
	"fmt"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
)

// joiningFixture is what the rows of issue 28 (players join by themselves)
// act on: invitations of club A and of club J (a club of A's owner that no
// caller belongs to), and profiles of A with their claim codes.
type joiningFixture struct {
	token    string            // an open invitation of A
	revoked  string            // a revoked invitation of A
	toRevoke map[string]int64  // open invitations of A, one per caller
	toAccept map[string]string // tokens of open invitations of J (one use each), one per caller
	ofJ      map[string]int64  // the ids of the toAccept invitations
	toClaim  map[string]string // claim codes of profiles of A, one per caller
	toUnlink map[string]int64  // profiles of A claimed by a member of A, one per caller
}

// newJoining fills f.joining, through the services as a client would.
func (f *fixture) newJoining(e *env, by domain.Actor) {
	ctx := context.Background()
	j := joiningFixture{toRevoke: map[string]int64{}, toAccept: map[string]string{}, ofJ: map[string]int64{},
		toClaim: map[string]string{}, toUnlink: map[string]int64{}}
	invite := func(clubID int64, in domain.InvitationInput) domain.NewInvitation {
		inv, err := e.svc.Joins.CreateInvitation(ctx, by, clubID, in)
		if err != nil {
			e.t.Fatal(err)
		}
		return inv
	}
	clubJ, err := e.svc.Clubs.Create(ctx, by, domain.ClubInput{Name: "Club J"})
	if err != nil {
		e.t.Fatal(err)
	}
	j.token = invite(f.clubA, domain.InvitationInput{}).Token
	revoked := invite(f.clubA, domain.InvitationInput{})
	if _, err := e.svc.Joins.RevokeInvitation(ctx, by, f.clubA, revoked.ID); err != nil {
		e.t.Fatal(err)
	}
	j.revoked = revoked.Token
	toClaim, claimers := map[string]int64{}, map[string]domain.Actor{}
	for _, c := range callers {
		j.toRevoke[c] = invite(f.clubA, domain.InvitationInput{}).ID
		inv := invite(clubJ.ID, domain.InvitationInput{MaxUses: new(1)})
		j.toAccept[c], j.ofJ[c] = inv.Token, inv.ID
		toClaim[c] = f.newPlayer(e, by, "Claim "+c)
		j.toUnlink[c] = f.newPlayer(e, by, "Unlink "+c)
		u, err := e.svc.Auth.Register(ctx, domain.RegisterInput{Email: "claimer-" + c + "@a.example", Password: "password-123", Name: "Claimer " + c})
		if err == nil {
			_, err = e.svc.Clubs.AddMember(ctx, by, f.clubA, u.ID, domain.RoleMember)
		}
		if err != nil {
			e.t.Fatal(err)
		}
		claimers[c] = domain.Actor{UserID: u.ID}
	}
	codes, err := e.svc.Joins.ClaimCodes(ctx, by, f.clubA)
	if err != nil {
		e.t.Fatal(err)
	}
	codeOf := map[int64]string{}
	for _, cc := range codes {
		codeOf[cc.PlayerID] = cc.Code
	}
	for _, c := range callers {
		j.toClaim[c] = codeOf[toClaim[c]]
		if j.toClaim[c] == "" || codeOf[j.toUnlink[c]] == "" {
			e.t.Fatalf("no claim code for the profiles of %s in %+v", c, codes)
		}
		if _, err := e.svc.Joins.Claim(ctx, claimers[c], "fixture", codeOf[j.toUnlink[c]]); err != nil {
			e.t.Fatal(err)
		}
	}
	f.joining = j
}

func invitationPath(token string, parts ...string) string {
	if token == "" {
		token = "no-such-token" // the route test's fixture has none
	}
	p := "/api/v1/invitations/" + token
	for _, x := range parts {
		p += "/" + x
	}
	return p
}

// importRequest posts a players' list to club A.
func importRequest(f *fixture, query, csv string) req {
	return req{Method: "POST", Path: clubPath(f) + "/players/import" + query, Body: csv,
		Header: map[string]string{"Content-Type": "text/csv"}}
}

// The rows of issue 28 (players join by themselves). A club's directors
// (its admins and owners, and site admins) manage its invitations, see its
// claim codes, unlink claimed profiles and import players, and whoever may
// not is refused before the body is looked at; anyone holding a link
// previews it and its QR code; any signed-in user accepts one; the members
// of a profile's club (of any role, site admins included only if members)
// claim it with its code.
func init() {
	matrix = append(matrix, []route{
		{"GET /clubs/{id}/invitations", func(f *fixture, c string) req {
			return req{Method: "GET", Path: clubPath(f) + "/invitations"}
		}, adminsOnly(200)},
		{"POST /clubs/{id}/invitations", func(f *fixture, c string) req {
			return req{Method: "POST", Path: clubPath(f) + "/invitations", Body: api.InvitationCreateRequest{MaxUses: new(5)}}
		}, adminsOnly(201)},
		{"POST /clubs/{id}/invitations (max_uses 0: 422 for the directors)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: clubPath(f) + "/invitations", Body: api.InvitationCreateRequest{MaxUses: new(0)}}
		}, adminsOnly(422)},
		{"DELETE /clubs/{id}/invitations/{id}", func(f *fixture, c string) req {
			return req{Method: "DELETE", Path: fmt.Sprintf("%s/invitations/%d", clubPath(f), f.joining.toRevoke[c])}
		}, adminsOnly(200)},
		// Club J's invitation through club A's path: not found for A's
		// directors, and not revoked either (the accept row below uses it).
		{"DELETE /clubs/{id}/invitations/{id} (another club's: 404 for the directors)", func(f *fixture, c string) req {
			return req{Method: "DELETE", Path: fmt.Sprintf("%s/invitations/%d", clubPath(f), f.joining.ofJ[c])}
		}, adminsOnly(404)},
		{"GET /invitations/{token}", func(f *fixture, c string) req {
			return req{Method: "GET", Path: invitationPath(f.joining.token)}
		}, all(200, nil)},
		{"GET /invitations/{token} (revoked: still previewed, with its status)", func(f *fixture, c string) req {
			return req{Method: "GET", Path: invitationPath(f.joining.revoked)}
		}, all(200, nil)},
		{"GET /invitations/{token} (no such token)", func(f *fixture, c string) req {
			return req{Method: "GET", Path: invitationPath("AAAAAAAAAAAAAAAAAAAAAA")}
		}, all(404, nil)},
		{"GET /invitations/{token}/qr", func(f *fixture, c string) req {
			return req{Method: "GET", Path: invitationPath(f.joining.token, "qr")}
		}, all(200, nil)},
		{"GET /invitations/{token}/qr (no such token)", func(f *fixture, c string) req {
			return req{Method: "GET", Path: invitationPath("AAAAAAAAAAAAAAAAAAAAAA", "qr")}
		}, all(404, nil)},
		{"POST /invitations/{token}/accept (each their own invitation of club J)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: invitationPath(f.joining.toAccept[c], "accept")}
		}, all(200, map[string]int{anonymous: 401})},
		{"POST /invitations/{token}/accept (revoked: its club's members answered as members)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: invitationPath(f.joining.revoked, "accept")}
		}, all(409, map[string]int{anonymous: 401, member: 200, referee: 200, clubAdmin: 200})},
		{"POST /invitations/{token}/accept (no such token)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: invitationPath("AAAAAAAAAAAAAAAAAAAAAA", "accept")}
		}, all(404, map[string]int{anonymous: 401})},
		{"GET /clubs/{id}/claim-codes", func(f *fixture, c string) req {
			return req{Method: "GET", Path: clubPath(f) + "/claim-codes"}
		}, adminsOnly(200)},
		// A site admin who is not a member of the club is not_a_member too:
		// a claim makes the profile one's own, no power of administration.
		{"POST /players/claim (each their own profile of A: its members)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: "/api/v1/players/claim", Body: api.ClaimRequest{Code: f.joining.toClaim[c]}}
		}, all(403, map[string]int{anonymous: 401, member: 200, referee: 200, clubAdmin: 200})},
		{"POST /players/claim (a code no profile has)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: "/api/v1/players/claim", Body: api.ClaimRequest{Code: "2222-2222"}}
		}, all(422, map[string]int{anonymous: 401})},
		{"POST /players/{id}/unlink (a claimed profile of A)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: playerPath(f.joining.toUnlink[c]) + "/unlink"}
		}, adminsOnly(200)},
		{"POST /clubs/{id}/players/import", func(f *fixture, c string) req {
			return importRequest(f, "", "name;federation_id\nImported by "+c+";\n")
		}, adminsOnly(200)},
		{"POST /clubs/{id}/players/import?dry_run=true", func(f *fixture, c string) req {
			return importRequest(f, "?dry_run=true", "name\nGuest\nWould be imported by "+c+"\n")
		}, adminsOnly(200)},
		{"POST /clubs/{id}/players/import (no name column: 422 for the directors)", func(f *fixture, c string) req {
			return importRequest(f, "", "email\nx@example.org\n")
		}, adminsOnly(422)},
		// The right is checked before the document is read: a document of
		// another format is refused to the directors alone as such.
		{"POST /clubs/{id}/tournaments/import (another format: 422 for the directors)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: clubPath(f) + "/tournaments/import", Body: map[string]any{"format": "usebio", "version": 1}}
		}, adminsOnly(422)},
		{"GET /me/results", func(f *fixture, c string) req { return req{Method: "GET", Path: "/api/v1/me/results"} },
			all(200, map[string]int{anonymous: 401})},
	}...)
}
