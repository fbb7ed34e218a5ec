package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/domain/tourney"
)

// TestSeedDemoTournament checks the demo tournament against an injected
// clock: public with its registration open (an event of its log) and two
// pairs entered, a week ahead, its referee assigned; and that a second run
// adds none.
func TestSeedDemoTournament(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Date(2026, 3, 14, 18, 30, 0, 0, time.UTC)
		clock := func() time.Time { return now }
		svc := domain.NewServices(db, domain.Config{Now: clock, PasswordParams: domain.TestPasswordParams})
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		var first bytes.Buffer
		for run := range 2 {
			var out bytes.Buffer
			if err := seedDemo(ctx, svc, clock, "http://localhost:8080", &out, log); err != nil {
				t.Fatalf("run %d: %v", run+1, err)
			}
			if run == 0 {
				first = out
			}
		}
		public, err := svc.Tournaments.List(ctx, domain.Actor{}, domain.TournamentFilter{})
		if err != nil || public.Total != 1 {
			t.Fatalf("public tournaments: %+v, %v; want the demo one", public, err)
		}
		id := public.Items[0].ID
		for _, want := range []string{
			fmt.Sprintf("http://localhost:8080/app/console?t=%d ", id),
			fmt.Sprintf("http://localhost:8080/app/hall/%d ", id),
		} {
			if !strings.Contains(first.String(), want) {
				t.Errorf("seed-demo does not print %q to open next:\n%s", want, first.String())
			}
		}
		read, err := svc.Play.Read(ctx, domain.Actor{}, public.Items[0].ID)
		if err != nil || len(read.Snapshot.Entries) != 2 || read.Players[read.Snapshot.Entries[1].Players[1]] != "Guido Ospite" {
			t.Fatalf("demo entries: %+v, %v", read.Snapshot, err)
		}
		admin, err := svc.Auth.Login(ctx, "admin@demo.burraco.local", demoPassword)
		if err != nil {
			t.Fatal(err)
		}
		adminActor := domain.Actor{UserID: admin.User.ID}
		page, err := svc.Tournaments.List(ctx, adminActor, domain.TournamentFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 {
			t.Fatalf("%d tournaments for the club's admin after two runs, want 1", page.Total)
		}
		got := page.Items[0]
		want := domain.Tournament{Name: demoTournament.Name, ClubName: demoClub, Rules: "fibur", PlayersPerTable: 4,
			Kind: domain.PairsTournament, DealsPerRound: 3, StartsAt: now.AddDate(0, 0, 7), Status: domain.TournamentRegistrationOpen, Version: 3,
			TournamentSetup: domain.TournamentSetup{Setup: tourney.Setup{Movement: domain.MovementModifiedDanish, Rounds: 4, MitchellStep: 1,
				TargetScore: 2005, RestVP: 14, RestMP: 355}, Played: domain.PlayedLive}}
		got.ID, got.ClubID, got.Description, got.Options, got.CreatedAt, got.UpdatedAt, got.LotsSeed, got.OpenedAt = 0, 0, "", nil, time.Time{}, time.Time{}, 0, nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("demo tournament (-want +got):\n%s", diff)
		}
		refs, err := svc.Tournaments.Referees(ctx, adminActor, page.Items[0].ID)
		if err != nil || len(refs) != 1 || refs[0].UserName != "Rita Referee" || refs[0].Role != domain.RoleReferee {
			t.Errorf("demo referees: %+v, %v; want Rita Referee", refs, err)
		}
	})
}

// TestSiteURLIsWhatAPersonHereOpens: seed-demo's printed addresses start
// with the URL of serve's -addr as a browser on the same machine reaches
// it.
func TestSiteURLIsWhatAPersonHereOpens(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{":8080", "http://localhost:8080"},
		{"0.0.0.0:9000", "http://localhost:9000"},
		{"[::]:9000", "http://localhost:9000"},
		{"127.0.0.1:8081", "http://127.0.0.1:8081"},
		{"[::1]:8081", "http://[::1]:8081"},
		{"club.example.org:80", "http://club.example.org:80"},
		{"https://burraco.example.org/", "https://burraco.example.org"},
		{"not an address", "http://localhost:8080"},
	} {
		if got := siteURL(c.addr); got != c.want {
			t.Errorf("siteURL(%q) = %q, want %q", c.addr, got, c.want)
		}
	}
}
