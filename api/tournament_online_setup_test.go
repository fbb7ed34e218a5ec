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
	online := create(onlineCreate(new("online"), &api.OnlineSettingsInput{TurnSeconds: new(60), RoundSeconds: new(3600),
		Absent: new("forfeit"), StaffWatch: new(false)}))
	want := api.OnlineSettings{TurnSeconds: 60, RoundSeconds: 3600, Absent: "forfeit", GraceSeconds: 120, ReconnectSeconds: 120, Claim: "bot"}
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
	if dflt := (api.OnlineSettings{Absent: "bot", GraceSeconds: 120, StaffWatch: true, ReconnectSeconds: 120, Claim: "bot"}); defaulted.Played != "online" ||
		defaulted.Online == nil || *defaulted.Online != dflt {
		t.Fatalf("live to online: played %q, online %+v; want the defaults %+v", defaulted.Played, defaulted.Online, dflt)
	}
}

// TestTournamentOnlineSettingsGivenInPartTakeTheDefaults: online settings
// that name only some fields (the README's {"turn_seconds": 60}) take the
// defaults for the others, staff_watch included: the tournament's referee
// may then watch its tables and call a time-out there. It used to be off,
// the zero value of an absent boolean, and the referee got 404 at the table.
func TestTournamentOnlineSettingsGivenInPartTakeTheDefaults(t *testing.T) {
	t.Parallel()
	storetest.Each(t, testOnlineSettingsInPart)
}

func testOnlineSettingsInPart(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	for _, c := range []struct {
		name string
		body map[string]any
		want api.OnlineSettings
	}{
		{"TurnSecondsOnly", map[string]any{"turn_seconds": 60},
			api.OnlineSettings{TurnSeconds: 60, Absent: "bot", GraceSeconds: 120, StaffWatch: true, ReconnectSeconds: 120, Claim: "bot"}},
		{"Empty", map[string]any{}, api.OnlineSettings{Absent: "bot", GraceSeconds: 120, StaffWatch: true, ReconnectSeconds: 120, Claim: "bot"}},
		{"StaffWatchOff", map[string]any{"staff_watch": false, "absent": "forfeit"},
			api.OnlineSettings{Absent: "forfeit", GraceSeconds: 120, ReconnectSeconds: 120, Claim: "bot"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := map[string]any{"name": "Online", "rules": "fibur", "players_per_table": 4, "kind": "pairs",
				"starts_at": "2026-04-01T18:00:00Z", "played": "online", "online": c.body}
			var created, patched api.Tournament
			te.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/clubs/" + itoa(te.club) + "/tournaments",
				Token: te.director, Body: body}, &created)
			if created.Online == nil || *created.Online != c.want {
				t.Fatalf("created with %v: online %+v; want %+v", c.body, created.Online, c.want)
			}
			te.must(http.StatusOK, req{Method: "PATCH", Path: tpath(created.ID), Token: te.director,
				Body: map[string]any{"online": c.body}}, &patched)
			if patched.Online == nil || *patched.Online != c.want {
				t.Fatalf("patched with %v: online %+v; want %+v", c.body, patched.Online, c.want)
			}
		})
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
		{"BadSettings", onlineCreate(new("online"), &api.OnlineSettingsInput{TurnSeconds: new(5), RoundSeconds: new(10), Absent: new("pray"), GraceSeconds: new(1)}),
			[]string{"online.absent", "online.grace_seconds", "online.round_seconds", "online.turn_seconds"}},
		{"BadSettingsWhenLive", onlineCreate(nil, &api.OnlineSettingsInput{TurnSeconds: new(60), Absent: new("later")}), []string{"online.absent"}},
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

func onlineCreate(played *string, online *api.OnlineSettingsInput) api.TournamentCreateRequest {
	body := api.TournamentCreateRequest{Name: "Online", Rules: "fibur", PlayersPerTable: new(4), Kind: "pairs",
		StartsAt: new(time.Date(2026, 4, 1, 18, 0, 0, 0, time.UTC))}
	body.Played, body.Online = played, online
	return body
}
