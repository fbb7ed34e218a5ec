package api_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestMyTournamentsListsEnteredAndRefereedWithTheCurrentTable: a player
// sees the tournaments they are entered in, with their table of the current
// round (number, side, opponent); the assigned referee sees those they
// referee, a draft included; someone in none sees an empty list, and
// nobody logged out sees anything.
func TestMyTournamentsListsEnteredAndRefereedWithTheCurrentTable(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testMyTournaments)
}

func testMyTournaments(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	entries := te.pairs(id, 5)
	te.start(id)
	draft := te.tournament(domain.PairsTournament, 3, domain.SetupInput{})
	r := te.draw(id)

	for _, e := range entries {
		tok := te.tokenOfEntry(api.TournamentEntryRef{ID: e.ID}, entries)
		var mine api.MyTournamentList
		te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/me/tournaments", Token: tok}, &mine)
		if len(mine.Items) != 1 || mine.Items[0].Tournament.ID != id || !slices.Equal(mine.Items[0].Roles, []string{"player"}) ||
			len(mine.Items[0].Entries) != 1 || mine.Items[0].Entries[0].ID != e.ID || len(mine.Items[0].Seats) != 1 {
			t.Fatalf("entry %d's player: %s", e.ID, jsonOf(mine))
		}
		seat := mine.Items[0].Seats[0]
		want := api.MyTournamentSeat{Entry: seat.Entry, Round: 1, RoundStatus: "playing", Bye: true, Opponents: []api.TournamentEntryRef{}}
		for _, tb := range r.Tables {
			switch e.ID {
			case tb.NS.Entries[0].ID:
				want.Bye, want.Table, want.Side, want.Opponents = false, tb.Number, "ns", tb.EW.Entries
			case tb.EW.Entries[0].ID:
				want.Bye, want.Table, want.Side, want.Opponents = false, tb.Number, "ew", tb.NS.Entries
			}
		}
		if seat.Entry.ID != e.ID || jsonOf(seat) != jsonOf(want) {
			t.Errorf("entry %d's seat: %s, want %s", e.ID, jsonOf(seat), jsonOf(want))
		}
	}

	var ref api.MyTournamentList
	te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/me/tournaments", Token: te.referee}, &ref)
	var ids []int64
	for _, m := range ref.Items {
		ids = append(ids, m.Tournament.ID)
		if !slices.Equal(m.Roles, []string{"referee"}) || len(m.Seats) != 0 {
			t.Errorf("the referee's item: %s", jsonOf(m))
		}
	}
	if slices.Sort(ids); !slices.Equal(ids, []int64{id, draft}) {
		t.Errorf("the referee sees tournaments %v, want %d and the draft %d", ids, id, draft)
	}
	var none api.MyTournamentList
	te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/me/tournaments", Token: te.member}, &none)
	if none.Items == nil || len(none.Items) != 0 {
		t.Errorf("a member in nothing: %s", jsonOf(none))
	}
	te.must(http.StatusUnauthorized, req{Method: "GET", Path: "/api/v1/me/tournaments"}, nil)
}

// TestAssignedRefereeSeesTheDraftTheyReferee: a referee assigned to a draft
// reads it (to prepare it) and finds it in the tournament list, where other
// members get 404 and do not; taken off, they no longer see it. On SQLite
// and PostgreSQL (the list's query).
func TestAssignedRefereeSeesTheDraftTheyReferee(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		draft := te.tournament(domain.PairsTournament, 3, domain.SetupInput{})
		listed := func(token string) bool {
			var l api.TournamentList
			te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/tournaments", Token: token}, &l)
			return slices.ContainsFunc(l.Items, func(x api.Tournament) bool { return x.ID == draft })
		}
		var got api.Tournament
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(draft), Token: te.referee}, &got)
		if got.Status != "draft" || !listed(te.referee) {
			t.Fatalf("the referee reads %s; listed %v", jsonOf(got), listed(te.referee))
		}
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(draft, "entries"), Token: te.referee}, nil)
		te.must(http.StatusNotFound, req{Method: "GET", Path: tpath(draft), Token: te.member}, nil)
		if listed(te.member) {
			t.Error("a member who does not referee it finds the draft in the list")
		}
		te.must(http.StatusNoContent, req{Method: "DELETE", Path: tpath(draft, "referees", te.refereeID), Token: te.director}, nil)
		te.must(http.StatusNotFound, req{Method: "GET", Path: tpath(draft), Token: te.referee}, nil)
		if listed(te.referee) {
			t.Error("taken off, the referee still finds the draft in the list")
		}
	})
}
