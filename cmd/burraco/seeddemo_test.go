package main

import (
	"bytes"
	"io"
	"log/slog"
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
		for run := range 2 {
			var out bytes.Buffer
			if err := seedDemo(ctx, svc, clock, &out, log); err != nil {
				t.Fatalf("run %d: %v", run+1, err)
			}
		}
		public, err := svc.Tournaments.List(ctx, domain.Actor{}, domain.TournamentFilter{})
		if err != nil || public.Total != 1 {
			t.Fatalf("public tournaments: %+v, %v; want the demo one", public, err)
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
