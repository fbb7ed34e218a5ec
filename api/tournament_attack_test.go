package api_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestSelfEntryCannotSetFeeOrSeed: a player entering themself may not say
// the fee is paid, nor pick a seed or a number (issue 19): 422
// invalid_command naming each such field (not_allowed), and nothing is
// entered; the same entry without them is accepted, and the staff may set
// them as they may change them later.
func TestSelfEntryCannotSetFeeOrSeed(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
		te.lifecycle(id, te.director, "open_registration")
		a, b := te.player("Anna Rossi", true), te.player("Bruno Bianchi", false)
		for _, c := range []struct {
			name   string
			body   api.TournamentEntryRequest
			fields []string
		}{
			{"FeePaidRefused", api.TournamentEntryRequest{FeePaid: true}, []string{"fee_paid"}},
			{"SeedRefused", api.TournamentEntryRequest{Seed: 1}, []string{"seed"}},
			{"NumberRefused", api.TournamentEntryRequest{Number: 7}, []string{"number"}},
			{"AllNamed", api.TournamentEntryRequest{FeePaid: true, Seed: 2, Number: 9}, []string{"fee_paid", "seed", "number"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				c.body.Players = []int64{a, b}
				res := te.do(req{Method: "POST", Path: tpath(id, "entries"), Token: te.tokenOf[a], Body: c.body})
				if res.Status != http.StatusUnprocessableEntity {
					t.Fatalf("status %d, want 422: %s", res.Status, res.Body)
				}
				p := problem(t, res)
				var got []string
				for _, f := range p.Errors {
					if f.Code != "not_allowed" {
						t.Errorf("field %s: code %s", f.Field, f.Code)
					}
					got = append(got, f.Field)
				}
				if p.Code != "invalid_command" || !slices.Equal(got, c.fields) {
					t.Errorf("code %s, fields %v; want invalid_command naming %v", p.Code, got, c.fields)
				}
			})
		}
		var list api.TournamentEntryList
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "entries"), Token: te.director}, &list)
		if len(list.Items) != 0 {
			t.Fatalf("refused entries were entered: %s", jsonOf(list))
		}
		own := te.enter(id, te.tokenOf[a], a, b)
		if own.Number != 1 || own.Seed != 0 {
			t.Errorf("the player's own entry: %s", jsonOf(own))
		}
		c, d := te.player("Carla Verdi", false), te.player("Dario Neri", false)
		var staff api.TournamentEntry
		te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "entries"), Token: te.referee,
			Body: api.TournamentEntryRequest{Players: []int64{c, d}, FeePaid: true, Seed: 1, Number: 9}}, &staff)
		if staff.FeePaid == nil || !*staff.FeePaid || staff.Seed != 1 || staff.Number != 9 {
			t.Errorf("the referee's entry: %s", jsonOf(staff))
		}
	})
}

// TestSeatedRefereeCannotConfirmOwnSide: a referee who plays at a table is
// a player there (issue 19): his entries wait for the other side, and he
// may not confirm the deals his partner entered (403 own_side); the other
// side confirms them; nor may he correct his table's deals or rule on it.
// At a table he does not sit at, and for a referee who does not play, a
// referee's entries are confirmed at once and he confirms either side's.
func TestSeatedRefereeCannotConfirmOwnSide(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
		refProf, partner := te.player("Renato Arbitro", true), te.player("Paola Compagna", true)
		te.addMember(te.playerUser[refProf], domain.RoleReferee)
		if _, err := te.svc.Tournaments.AssignReferee(context.Background(), te.owner, id, te.playerUser[refProf]); err != nil {
			t.Fatal(err)
		}
		seatedRef := te.tokenOf[refProf]
		te.lifecycle(id, te.director, "open_registration")
		entries := append([]api.TournamentEntry{te.enter(id, te.director, refProf, partner)}, te.pairs(id, 3)...)
		te.start(id)
		r := te.draw(id)
		own, other := 0, 0 // the seated referee's table, and another
		var opponent string
		for _, tb := range r.Tables {
			switch {
			case tb.NS.Entries[0].ID == entries[0].ID:
				own, opponent = tb.Number, te.tokenOfEntry(tb.EW.Entries[0], entries)
			case tb.EW.Entries[0].ID == entries[0].ID:
				own, opponent = tb.Number, te.tokenOfEntry(tb.NS.Entries[0], entries)
			default:
				other = tb.Number
			}
		}
		if own == 0 || other == 0 {
			t.Fatalf("round 1: %s", jsonOf(r))
		}
		deal := func(n int) api.TournamentDealInput {
			return api.TournamentDealInput{Number: n, NS: parts(300, 200, 100, 0, 0), EW: parts(150, 0, 0, 40, 100)}
		}
		confirm := func(table int, token string) response {
			_, etag := te.table(id, 1, table)
			return te.do(req{Method: "POST", Path: tpath(id, "rounds", 1, "tables", table, "confirm"), Token: token,
				Header: map[string]string{"If-Match": etag}})
		}

		{ // his partner's deal: not his to confirm
			te.scores(id, 1, own, te.tokenOf[partner], deal(1))
			res := confirm(own, seatedRef)
			if p := problem(t, res); res.Status != http.StatusForbidden || p.Code != "own_side" {
				t.Errorf("status %d, code %s", res.Status, p.Code)
			}
			if tb, _ := te.table(id, 1, own); tb.Deals[0].Status != "entered" {
				t.Errorf("deal 1 is %s", tb.Deals[0].Status)
			}
		}
		{ // his own entry: waits for the other side, who confirms it
			tb := te.scores(id, 1, own, seatedRef, deal(2))
			if d := tb.Deals[1]; d.Status != "entered" || d.EnteredSide == "" {
				t.Errorf("deal 2 as he entered it: %s", jsonOf(d))
			}
			tb = te.confirm(id, 1, own, opponent)
			for _, d := range tb.Deals {
				if d.Status != "confirmed" {
					t.Errorf("deal %d after the other side confirmed: %s", d.Number, d.Status)
				}
			}
		}
		{ // nor may he correct his table's deals or rule on it
			for _, c := range []struct {
				action string
				body   any
			}{
				{"corrections", api.TournamentCorrectionRequest{Deal: api.TournamentDealCorrection{Number: 1, NS: parts(300, 200, 100, 0, 0), EW: parts(150, 0, 0, 40, 0)}, Reason: "recount"}},
				{"rulings", api.TournamentRulingRequest{Kind: "late_arrival", Entry: entries[1].ID, Deals: 2, Reason: "late"}},
			} {
				_, etag := te.table(id, 1, own)
				res := te.do(req{Method: "POST", Path: tpath(id, "rounds", 1, "tables", own, c.action), Token: seatedRef,
					Header: map[string]string{"If-Match": etag}, Body: c.body})
				if p := problem(t, res); res.Status != http.StatusForbidden || p.Code != "own_side" {
					t.Errorf("%s at his own table: status %d, code %s", c.action, res.Status, p.Code)
				}
			}
			_, etag := te.table(id, 1, own)
			te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", 1, "tables", own, "corrections"), Token: te.referee,
				Header: map[string]string{"If-Match": etag}, Body: api.TournamentCorrectionRequest{
					Deal: api.TournamentDealCorrection{Number: 1, NS: parts(300, 200, 100, 0, 0), EW: parts(150, 0, 0, 40, 0)}, Reason: "recount"}}, nil)
		}
		{ // a referee who does not play: confirmed at once
			if tb := te.scores(id, 1, own, te.referee, deal(3)); tb.Deals[2].Status != "confirmed" || tb.Deals[2].EnteredSide != "" {
				t.Errorf("deal 3 entered by the referee who does not play: %s", jsonOf(tb.Deals[2]))
			}
		}
		{ // at a table he does not sit at, he is staff
			if tb := te.scores(id, 1, other, seatedRef, deal(1)); tb.Deals[0].Status != "confirmed" {
				t.Errorf("deal 1 of table %d entered by him: %s", other, jsonOf(tb.Deals[0]))
			}
		}
	})
}

// TestDeletedPlayerKeepsNameInResults: a player profile deleted while its
// tournament runs, or after its results are published, keeps its name in
// the entries, standings, CSV exports and printouts (issue 19), read at a
// later version and by a server that starts afresh (no name held in
// memory).
func TestDeletedPlayerKeepsNameInResults(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(1)})
		te.lifecycle(id, te.director, "open_registration")
		running, published := te.player("Quirino Cancellato", false), te.player("Ottavia Sparita", false)
		te.enter(id, te.director, te.player("Anna Rossi", true), running)
		te.enter(id, te.director, te.player("Bruno Bianchi", true), published)
		te.pairs(id, 2)
		te.start(id)
		r := te.draw(id)
		te.must(http.StatusNoContent, req{Method: "DELETE", Path: "/api/v1/players/" + itoa(running), Token: te.director}, nil)
		for _, tb := range r.Tables {
			te.scores(id, 1, tb.Number, te.referee, api.TournamentDealInput{Number: 1, NS: parts(300, 200, 100, 0, 0), EW: parts(150, 0, 0, 40, 100)},
				api.TournamentDealInput{Number: 2, NS: parts(150, 0, 0, 40, 100), EW: parts(300, 200, 100, 0, 0)},
				api.TournamentDealInput{Number: 3, NS: parts(300, 200, 100, 0, 0), EW: parts(150, 0, 0, 40, 100)})
		}
		te.closeRound(id, 1)
		te.lifecycle(id, te.referee, "finish")
		te.lifecycle(id, te.director, "publish_results")
		te.must(http.StatusNoContent, req{Method: "DELETE", Path: "/api/v1/players/" + itoa(published), Token: te.director}, nil)
		te.must(http.StatusNotFound, req{Method: "GET", Path: "/api/v1/players/" + itoa(published)}, nil)

		restarted := newEnv(t, db) // the same database, nothing in memory
		names := []string{te.nameOf[running], te.nameOf[published]}
		for _, path := range []string{tpath(id, "entries"), tpath(id, "standings"), tpath(id, "export", "standings.csv"),
			tpath(id, "export", "rounds.csv"), tpath(id, "print", "standings"), tpath(id, "print", "results")} {
			for who, e := range map[string]*env{"the same server": te.env, "a restarted server": restarted} {
				res := e.must(http.StatusOK, req{Method: "GET", Path: path, Token: te.director}, nil)
				for _, name := range names {
					if !strings.Contains(string(res.Body), name) {
						t.Errorf("%s, %s: no %q in %s", who, path, name, res.Body)
					}
				}
			}
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestIdempotentRetryAnswersTheFirstAnswer: a retry with the same
// Idempotency-Key answers byte for byte as the first request did, with its
// ETag, also after the sheet moved on meanwhile (issue 19: it answered the
// sheet as it was now), and appends nothing.
func TestIdempotentRetryAnswersTheFirstAnswer(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(1)})
		te.lifecycle(id, te.director, "open_registration")
		entries := te.pairs(id, 4)
		te.start(id)
		tb := te.draw(id).Tables[0]
		ns, ew := te.tokenOfEntry(tb.NS.Entries[0], entries), te.tokenOfEntry(tb.EW.Entries[0], entries)
		_, etag := te.table(id, 1, tb.Number)
		r := req{Method: "POST", Path: tpath(id, "rounds", 1, "tables", tb.Number, "scores"), Token: ns,
			Header: map[string]string{"If-Match": etag, "Idempotency-Key": "deal-1"},
			Body:   api.TournamentScoresRequest{Deals: []api.TournamentDealInput{{Number: 1, NS: parts(300, 200, 100, 0, 0), EW: parts(150, 0, 0, 40, 100)}}}}
		first := te.must(http.StatusOK, r, nil)
		if now := te.confirm(id, 1, tb.Number, ew); now.Deals[0].Status != "confirmed" {
			t.Fatalf("confirmed: %s", jsonOf(now))
		}
		events := len(te.audit(id))
		retry := te.must(http.StatusOK, r, nil)
		if string(retry.Body) != string(first.Body) || retry.Header.Get("ETag") != first.Header.Get("ETag") {
			t.Errorf("first %s %s\nretry %s %s", first.Header.Get("ETag"), first.Body, retry.Header.Get("ETag"), retry.Body)
		}
		if n := len(te.audit(id)); n != events {
			t.Errorf("the retry appended %d events", n-events)
		}
	})
}
