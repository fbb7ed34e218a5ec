package api_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTournamentPlayedOnlineIsStoredWithItsSettings: a tournament says
// where it is played; live by default with no online settings, online with
// the settings given (absent ones defaulted), read back as stored; moving
// an online tournament back to live keeps its settings for later; a live
// tournament given no settings is played online with the defaults.
func TestTournamentPlayedOnlineIsStoredWithItsSettings(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testPlayedOnlineStored)
}

func testPlayedOnlineStored(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	create := func(body api.TournamentCreateRequest) api.Tournament {
		var out api.Tournament
		te.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/clubs/" + itoa(te.club) + "/tournaments",
			Token: te.director, Body: body}, &out)
		return out
	}
	live := create(onlineCreate(nil, nil))
	if live.Played != "live" || live.Online != nil {
		t.Fatalf("default: played %q, online %+v; want live, none", live.Played, live.Online)
	}
	online := create(onlineCreate(new("online"), &api.OnlineSettings{TurnSeconds: 60, RoundSeconds: 3600, Absent: "forfeit"}))
	want := api.OnlineSettings{TurnSeconds: 60, RoundSeconds: 3600, Absent: "forfeit", GraceSeconds: 120}
	var got api.Tournament
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(online.ID), Token: te.director}, &got)
	if got.Played != "online" || got.Online == nil || *got.Online != want {
		t.Fatalf("online: played %q, online %+v; want %+v", got.Played, got.Online, want)
	}
	var back api.Tournament
	te.must(http.StatusOK, req{Method: "PATCH", Path: tpath(online.ID), Token: te.director,
		Body: map[string]any{"played": "live"}}, &back)
	if back.Played != "live" || back.Online == nil || *back.Online != want {
		t.Fatalf("back to live: played %q, online %+v", back.Played, back.Online)
	}
	var defaulted api.Tournament
	te.must(http.StatusOK, req{Method: "PATCH", Path: tpath(live.ID), Token: te.director,
		Body: map[string]any{"played": "online"}}, &defaulted)
	if dflt := (api.OnlineSettings{Absent: "bot", GraceSeconds: 120, StaffWatch: true}); defaulted.Played != "online" ||
		defaulted.Online == nil || *defaulted.Online != dflt {
		t.Fatalf("live to online: played %q, online %+v; want the defaults %+v", defaulted.Played, defaulted.Online, dflt)
	}
}

// TestTournamentOnlineSettingsRefusedWithEveryField: bad online settings
// are one 422 invalid_input naming each field, also for a tournament
// played live (they are kept for when it is played online); an unknown
// played is refused too.
func TestTournamentOnlineSettingsRefusedWithEveryField(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineSettingsRefused)
}

func testOnlineSettingsRefused(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	path := "/api/v1/clubs/" + itoa(te.club) + "/tournaments"
	for _, c := range []struct {
		name   string
		body   api.TournamentCreateRequest
		fields []string
	}{
		{"BadSettings", onlineCreate(new("online"), &api.OnlineSettings{TurnSeconds: 5, RoundSeconds: 10, Absent: "pray", GraceSeconds: 1}),
			[]string{"online.absent", "online.grace_seconds", "online.round_seconds", "online.turn_seconds"}},
		{"BadSettingsWhenLive", onlineCreate(nil, &api.OnlineSettings{TurnSeconds: 60, Absent: "later"}), []string{"online.absent"}},
		{"UnknownPlayed", onlineCreate(new("postal"), nil), []string{"played"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := te.problem(http.StatusUnprocessableEntity, req{Method: "POST", Path: path, Token: te.director, Body: c.body})
			var fields []string
			for _, f := range p.Errors {
				fields = append(fields, f.Field)
			}
			slices.Sort(fields)
			if p.Code != "invalid_input" || !slices.Equal(fields, c.fields) {
				t.Fatalf("code %q fields %v; want invalid_input %v", p.Code, fields, c.fields)
			}
		})
	}
}

func onlineCreate(played *string, online *api.OnlineSettings) api.TournamentCreateRequest {
	body := api.TournamentCreateRequest{Name: "Online", Rules: "fibur", PlayersPerTable: new(4), Kind: "pairs",
		StartsAt: new(time.Date(2026, 4, 1, 18, 0, 0, 0, time.UTC))}
	body.Played, body.Online = played, online
	return body
}
