package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// Players join by themselves (issue 28): invitations, claim codes, the
// import of a club's players, a player's own results.

func (te *tourneyEnv) invite(body api.InvitationCreateRequest) api.NewInvitation {
	te.t.Helper()
	var inv api.NewInvitation
	te.must(http.StatusCreated, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/invitations", te.club),
		Token: te.director, Body: body}, &inv)
	return inv
}

func (te *tourneyEnv) claimCode(playerID int64) string {
	te.t.Helper()
	var codes api.ClaimCodeList
	te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/claim-codes", te.club), Token: te.director}, &codes)
	for _, c := range codes.Items {
		if c.PlayerID == playerID {
			return c.Code
		}
	}
	te.t.Fatalf("no claim code for player %d in %+v", playerID, codes.Items)
	return ""
}

// TestInvitationsMakeMembersUntilExpiredUsedUpOrRevoked: a director's
// invitation makes whoever accepts it a member; an expired, used-up or
// revoked one is refused with its code (and its preview says so); a member
// accepting again is answered without a use; an unknown token is
// not_found; only directors create and list; the token is stored hashed.
func TestInvitationsMakeMembersUntilExpiredUsedUpOrRevoked(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		accept := func(inv api.NewInvitation, tok string) response {
			return te.do(req{Method: "POST", Path: "/api/v1/invitations/" + inv.Token + "/accept", Token: tok})
		}
		preview := func(inv api.NewInvitation) api.InvitationPreview {
			var p api.InvitationPreview
			te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/invitations/" + inv.Token}, &p)
			return p
		}
		t.Run("AcceptingMakesAMemberAndCountsAUse", func(t *testing.T) {
			inv := te.invite(api.InvitationCreateRequest{})
			if len(inv.Token) < 22 || inv.Link != "/app/join/"+inv.Token || inv.Status != "valid" {
				t.Fatalf("invitation %+v", inv)
			}
			_, tok := te.user("nuova@example.org", "Nuova")
			var got api.InvitationAccepted
			te.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/invitations/" + inv.Token + "/accept", Token: tok.AccessToken}, &got)
			if got.ClubID != te.club || got.Role != "member" || got.AlreadyMember {
				t.Fatalf("accepted %+v", got)
			}
			te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/members", te.club), Token: tok.AccessToken}, nil)
			// Again: the same membership, no use counted.
			te.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/invitations/" + inv.Token + "/accept", Token: tok.AccessToken}, &got)
			if !got.AlreadyMember {
				t.Fatalf("second accept %+v", got)
			}
			var list api.InvitationList
			te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/invitations", te.club), Token: te.director}, &list)
			if len(list.Items) == 0 || list.Items[0].ID != inv.ID || list.Items[0].Uses != 1 {
				t.Fatalf("list %+v", list.Items)
			}
		})
		t.Run("ExpiredIsRefused", func(t *testing.T) {
			inv := te.invite(api.InvitationCreateRequest{ExpiresAt: new(te.clock.Now().Add(time.Hour))})
			te.clock.Add(time.Hour)
			te.director = te.login("director@club.example", "password-123").AccessToken
			te.member = te.login("socio@club.example", "password-123").AccessToken
			_, tok := te.user("tardi@example.org", "Tardi")
			problemOf(t, accept(inv, tok.AccessToken), "invitation_expired")
			if p := preview(inv); p.Status != "invitation_expired" || p.ClubID != te.club {
				t.Fatalf("preview %+v", p)
			}
		})
		t.Run("UsedUpIsRefused", func(t *testing.T) {
			inv := te.invite(api.InvitationCreateRequest{MaxUses: new(1)})
			_, first := te.user("primo@example.org", "Primo")
			te.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/invitations/" + inv.Token + "/accept", Token: first.AccessToken}, nil)
			_, second := te.user("secondo@example.org", "Secondo")
			problemOf(t, accept(inv, second.AccessToken), "invitation_used_up")
			if p := preview(inv); p.Status != "invitation_used_up" {
				t.Fatalf("preview %+v", p)
			}
		})
		t.Run("RevokedIsRefused", func(t *testing.T) {
			inv := te.invite(api.InvitationCreateRequest{})
			var revoked api.Invitation
			te.must(http.StatusOK, req{Method: "DELETE", Path: fmt.Sprintf("/api/v1/clubs/%d/invitations/%d", te.club, inv.ID),
				Token: te.director}, &revoked)
			if revoked.Status != "invitation_revoked" || revoked.RevokedAt == nil {
				t.Fatalf("revoked %+v", revoked)
			}
			_, tok := te.user("revocato@example.org", "Revocato")
			problemOf(t, accept(inv, tok.AccessToken), "invitation_revoked")
		})
		t.Run("UnknownTokenIsNotFound", func(t *testing.T) {
			_, tok := te.user("ignoto@example.org", "Ignoto")
			problemOf(t, te.do(req{Method: "POST", Path: "/api/v1/invitations/AAAAAAAAAAAAAAAAAAAAAA/accept", Token: tok.AccessToken}), "not_found")
			problemOf(t, te.do(req{Method: "GET", Path: "/api/v1/invitations/AAAAAAAAAAAAAAAAAAAAAA"}), "not_found")
			problemOf(t, te.do(req{Method: "GET", Path: "/api/v1/invitations/AAAAAAAAAAAAAAAAAAAAAA/qr"}), "not_found")
		})
		t.Run("OnlyDirectorsCreateAndList", func(t *testing.T) {
			problemOf(t, te.do(req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/invitations", te.club), Token: te.member,
				Body: api.InvitationCreateRequest{}}), "forbidden")
			problemOf(t, te.do(req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/invitations", te.club), Token: te.member}), "forbidden")
			problemOf(t, te.do(req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/invitations", te.club), Token: te.director,
				Body: api.InvitationCreateRequest{ExpiresAt: new(te.clock.Now().Add(-time.Minute))}}), "invalid_input")
		})
		t.Run("TokenIsStoredHashedAndThePreviewSaysNothingPrivate", func(t *testing.T) {
			inv := te.invite(api.InvitationCreateRequest{})
			var n int
			if err := db.SQL().QueryRow(bindFor(db, "SELECT COUNT(*) FROM club_invitations WHERE token_hash = ?"), inv.Token).Scan(&n); err != nil || n != 0 {
				t.Fatalf("token stored as it is: %d, %v", n, err)
			}
			res := te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/invitations/" + inv.Token}, nil)
			if strings.Contains(string(res.Body), "@") {
				t.Fatalf("preview shows an address: %s", res.Body)
			}
			qr := te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/invitations/" + inv.Token + "/qr"}, nil)
			if qr.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(qr.Body), "<svg") {
				t.Fatalf("qr %s: %.80s", qr.Header.Get("Content-Type"), qr.Body)
			}
		})
	})
}

// bindFor writes ? placeholders as the database wants them.
func bindFor(db *store.DB, q string) string {
	if db.Dialect() != "postgres" {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestClaimsLinkAProfileOnceAndBoundGuesses: a member claims the profile a
// director made with its code, and then finds it as theirs; another
// account's claim of it, a claim by an account with a profile and by a
// non-member are refused with their codes; wrong codes are refused and,
// past ten an hour from one account or one address, every claim is; the
// director's unlink gives the profile a new code; the codes are shown to
// directors only and never in a public answer.
func TestClaimsLinkAProfileOnceAndBoundGuesses(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		claim := func(tok, code, addr string) response {
			return te.do(req{Method: "POST", Path: "/api/v1/players/claim", Token: tok, Body: api.ClaimRequest{Code: code}, RemoteAddr: addr})
		}
		join := func(email string) (api.User, string) {
			u, tok := te.user(email, strings.Split(email, "@")[0])
			te.addMember(u.ID, domain.RoleMember)
			return u, tok.AccessToken
		}
		anna := te.player("Anna Bianchi", false)
		code := te.claimCode(anna)
		annaUser, annaTok := join("anna@example.org")

		t.Run("AMemberClaimsTheProfileWithItsCode", func(t *testing.T) {
			spaced := strings.ToLower(code[:4] + "-" + code[4:])
			var p api.Player
			te.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/players/claim", Token: annaTok, Body: api.ClaimRequest{Code: spaced}}, &p)
			if p.ID != anna || p.UserID == nil || *p.UserID != annaUser.ID {
				t.Fatalf("claimed %+v", p)
			}
			var codes api.ClaimCodeList
			te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/claim-codes", te.club), Token: te.director}, &codes)
			for _, c := range codes.Items {
				if c.PlayerID == anna && (!c.Claimed || c.Code != "") {
					t.Fatalf("a claimed profile is listed as %+v", c)
				}
			}
			// Again, by the same account: answered the same.
			te.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/players/claim", Token: annaTok, Body: api.ClaimRequest{Code: code}}, nil)
		})
		t.Run("AlreadyClaimedIsRefused", func(t *testing.T) {
			_, tok := join("altra@example.org")
			problemOf(t, claim(tok, code, ""), "profile_already_claimed")
		})
		t.Run("AnAccountWithAProfileIsRefused", func(t *testing.T) {
			bruno := te.player("Bruno Neri", false)
			problemOf(t, claim(annaTok, te.claimCode(bruno), ""), "already_has_profile")
		})
		t.Run("ANonMemberIsRefused", func(t *testing.T) {
			carla := te.player("Carla Verdi", false)
			_, tok := te.user("carla@example.org", "Carla")
			problemOf(t, claim(tok.AccessToken, te.claimCode(carla), ""), "not_a_member")
		})
		t.Run("GuessesAreBoundedPerAccount", func(t *testing.T) {
			dario := te.player("Dario Gialli", false)
			_, tok := join("dario@example.org")
			for i := range domain.MaxClaimFailures {
				problemOf(t, claim(tok, "ZZZZZZZZ", fmt.Sprintf("192.0.2.%d:1", i+1)), "claim_code_invalid")
			}
			// The right code, from a fresh address: refused too.
			res := claim(tok, te.claimCode(dario), "198.51.100.1:1")
			if problemOf(t, res, "too_many_claim_attempts"); res.Status != http.StatusTooManyRequests {
				t.Fatalf("status %d", res.Status)
			}
			te.clock.Add(domain.ClaimFailureWindow + time.Second)
			te.director = te.login("director@club.example", "password-123").AccessToken
			tok = te.login("dario@example.org", "password-123").AccessToken
			te.member = te.login("socio@club.example", "password-123").AccessToken
			annaTok = te.login("anna@example.org", "password-123").AccessToken
			te.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/players/claim", Token: tok, Body: api.ClaimRequest{Code: te.claimCode(dario)}}, nil)
		})
		t.Run("GuessesAreBoundedPerAddress", func(t *testing.T) {
			elena := te.player("Elena Rosa", false)
			for i := range domain.MaxClaimFailures {
				_, tok := join(fmt.Sprintf("guess%d@example.org", i))
				problemOf(t, claim(tok, "not a code", "203.0.113.9:4000"), "claim_code_invalid")
			}
			_, tok := join("elena@example.org")
			problemOf(t, claim(tok, te.claimCode(elena), "203.0.113.9:4001"), "too_many_claim_attempts")
			te.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/players/claim", Token: tok, Body: api.ClaimRequest{Code: te.claimCode(elena)},
				RemoteAddr: "203.0.113.10:4000"}, nil)
		})
		t.Run("TwoClaimsAtOnceGiveItToOne", func(t *testing.T) {
			gina := te.player("Gina Viola", false)
			c := te.claimCode(gina)
			_, tokA := join("gina.a@example.org")
			_, tokB := join("gina.b@example.org")
			results := make(chan response, 2)
			for i, tok := range []string{tokA, tokB} {
				go func() { results <- claim(tok, c, fmt.Sprintf("198.51.100.%d:1", 50+i)) }()
			}
			statuses := map[int]int{}
			for range 2 {
				res := <-results
				statuses[res.Status]++
				if res.Status != http.StatusOK {
					problemOf(t, res, "profile_already_claimed")
				}
			}
			if statuses[http.StatusOK] != 1 || statuses[http.StatusConflict] != 1 {
				t.Fatalf("two claims at once: %v", statuses)
			}
		})
		t.Run("UnlinkUndoesAClaimWithANewCode", func(t *testing.T) {
			problemOf(t, te.do(req{Method: "POST", Path: fmt.Sprintf("/api/v1/players/%d/unlink", anna), Token: te.member}), "forbidden")
			var p api.Player
			te.must(http.StatusOK, req{Method: "POST", Path: fmt.Sprintf("/api/v1/players/%d/unlink", anna), Token: te.director}, &p)
			if p.UserID != nil {
				t.Fatalf("still linked: %+v", p)
			}
			fresh := te.claimCode(anna)
			if fresh == code {
				t.Fatal("the code did not change")
			}
			problemOf(t, claim(annaTok, code, "192.0.2.200:1"), "claim_code_invalid")
			te.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/players/claim", Token: annaTok, Body: api.ClaimRequest{Code: fresh}}, nil)
		})
		t.Run("CodesAreForDirectorsOnly", func(t *testing.T) {
			problemOf(t, te.do(req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/claim-codes", te.club), Token: te.member}), "forbidden")
			fresh := te.player("Franco Blu", false)
			c := te.claimCode(fresh)
			for _, path := range []string{fmt.Sprintf("/api/v1/players/%d", fresh), fmt.Sprintf("/api/v1/players?club_id=%d", te.club)} {
				res := te.must(http.StatusOK, req{Method: "GET", Path: path}, nil)
				if strings.Contains(string(res.Body), c) || strings.Contains(string(res.Body), "@") {
					t.Fatalf("%s shows a code or an address: %s", path, res.Body)
				}
			}
		})
	})
}

// TestImportDryRunWritesNothingAndReportsEachLine: a dry run answers,
// line by line, what would be created, updated, skipped (and why) or is
// invalid, and writes nothing; the import then does the same; a file
// without a name column, or too large, is refused.
func TestImportDryRunWritesNothingAndReportsEachLine(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		known := te.player("Anna Bianchi", false)
		linked := te.player("Bruno Neri", true) // player<n>@club.example, without a federation id
		fed := "RM-1"
		if _, err := te.svc.Players.Update(context.Background(), te.owner, known, domain.PlayerPatch{FederationID: &fed}); err != nil {
			t.Fatal(err)
		}
		te.addMember(te.playerUser[linked], domain.RoleMember)
		if _, err := te.svc.Players.Update(context.Background(), domain.Actor{UserID: te.playerUser[linked]}, linked,
			domain.PlayerPatch{ClubID: &te.club}); err != nil {
			t.Fatal(err)
		}
		brunoEmail := fmt.Sprintf("player%d@club.example", te.seq)
		csv := "\xef\xbb\xbfNome;E-mail;Tessera;Note\n" +
			"Anna Bianchi Rossi;;RM-1;renamed\n" + // 2: update by federation id
			"Bruno Neri;" + brunoEmail + ";RM-2;\n" + // 3: update, the federation id added by email
			"Carla Verdi;carla@example.org;;\n" + // 4: create
			"carla  verdi;;;\n" + // 5: duplicate of line 4
			";x@example.org;;\n" + // 6: invalid name
			"Dario;not-an-email;;\n" + // 7: invalid email
			"Elena Rosa;;;\n" // 8: create
		path := fmt.Sprintf("/api/v1/clubs/%d/players/import", te.club)
		count := func() int {
			var list api.PlayerList
			te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/players?club_id=%d&limit=100", te.club)}, &list)
			return list.Total
		}
		before := count()
		want := []struct{ outcome, reason string }{
			{"update", "name_changed"}, {"update", "federation_id_added"}, {"create", "new"}, {"skip", "duplicate_line"},
			{"invalid", "invalid_name"}, {"invalid", "invalid_email"}, {"create", "new"},
		}
		check := func(t *testing.T, rep api.ImportReport, dry bool) {
			t.Helper()
			if rep.DryRun != dry || rep.Created != 2 || rep.Updated != 2 || rep.Skipped != 1 || rep.Invalid != 2 || len(rep.Lines) != len(want) {
				t.Fatalf("report %+v", rep)
			}
			for i, w := range want {
				if l := rep.Lines[i]; l.Line != i+2 || l.Outcome != w.outcome || l.Reason != w.reason {
					t.Errorf("line %d: %+v, want %s %s", i+2, l, w.outcome, w.reason)
				}
			}
		}
		t.Run("DryRunWritesNothing", func(t *testing.T) {
			var rep api.ImportReport
			res := te.must(http.StatusOK, req{Method: "POST", Path: path + "?dry_run=true", Token: te.director, Body: csv,
				Header: map[string]string{"Content-Type": "text/csv"}}, &rep)
			check(t, rep, true)
			if strings.Contains(string(res.Body), "@") {
				t.Fatalf("the report echoes an address: %s", res.Body)
			}
			if n := count(); n != before {
				t.Fatalf("a dry run wrote: %d players, %d before", n, before)
			}
			var p api.Player
			te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/players/%d", known)}, &p)
			if p.Name != "Anna Bianchi" {
				t.Fatalf("a dry run renamed: %+v", p)
			}
		})
		t.Run("ImportDoesWhatTheDryRunSaid", func(t *testing.T) {
			var rep api.ImportReport
			te.must(http.StatusOK, req{Method: "POST", Path: path, Token: te.director, Body: csv}, &rep)
			check(t, rep, false)
			if n := count(); n != before+2 {
				t.Fatalf("%d players, want %d", n, before+2)
			}
			te.claimCode(rep.Lines[2].PlayerID) // a created profile has its code
			// Again: every line is now a duplicate of the club's.
			te.must(http.StatusOK, req{Method: "POST", Path: path, Token: te.director, Body: csv}, &rep)
			if rep.Created != 0 || rep.Updated != 0 {
				t.Fatalf("a second import changed: %+v", rep)
			}
		})
		t.Run("CommaSeparatedWorks", func(t *testing.T) {
			var rep api.ImportReport
			te.must(http.StatusOK, req{Method: "POST", Path: path + "?dry_run=1", Token: te.director, Body: "name,federation_id\nFranco Blu,RM-9\n"}, &rep)
			if rep.Created != 1 || rep.Lines[0].FederationID != "RM-9" {
				t.Fatalf("report %+v", rep)
			}
		})
		t.Run("NoNameColumnIsRefused", func(t *testing.T) {
			problemOf(t, te.do(req{Method: "POST", Path: path, Token: te.director, Body: "email\nx@example.org\n"}), "invalid_input")
		})
		t.Run("TooLargeIsRefused", func(t *testing.T) {
			big := "name\n" + strings.Repeat("Nome Cognome\n", 30000)
			problemOf(t, te.do(req{Method: "POST", Path: path, Token: te.director, Body: big}), "request_too_large")
		})
		t.Run("OnlyDirectorsImport", func(t *testing.T) {
			problemOf(t, te.do(req{Method: "POST", Path: path, Token: te.member, Body: "name\nX\n"}), "forbidden")
		})
	})
}

// TestMyResultsListsUpcomingAndPast: a player's own page lists a
// tournament they are entered in as upcoming while it runs, and as past,
// with place, VP and partner, once finished.
func TestMyResultsListsUpcomingAndPast(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(1)})
		te.lifecycle(id, te.director, "open_registration")
		entries := te.pairs(id, 2)
		me := entries[0].Players[0].ID
		tok := te.tokenOf[me]
		var res api.MyResults
		te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/me/results", Token: tok}, &res)
		if len(res.Upcoming) != 1 || res.Upcoming[0].TournamentID != id || len(res.Past) != 0 ||
			len(res.Upcoming[0].Partners) != 1 || res.Upcoming[0].Partners[0] != "Giocatore 1-B" {
			t.Fatalf("before: %+v", res)
		}
		te.start(id)
		r := te.draw(id)
		for _, tb := range r.Tables {
			te.scores(id, 1, tb.Number, te.referee, randomDeals(newRand(), 3)...)
		}
		te.closeRound(id, 1)
		te.lifecycle(id, te.referee, "finish")
		te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/me/results", Token: tok}, &res)
		if len(res.Upcoming) != 0 || len(res.Past) != 1 || res.Past[0].Place == nil || res.Past[0].Entries != 2 {
			t.Fatalf("after: %+v", res)
		}
		problemOf(t, te.do(req{Method: "GET", Path: "/api/v1/me/results"}), "unauthenticated")
	})
}
