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
)

// TestSeedDemoTournament checks the demo tournament against an injected
// clock: published, public, a week ahead; and that a second run adds none.
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
		page, err := svc.Tournaments.List(ctx, domain.Actor{}, domain.TournamentFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 {
			t.Fatalf("%d public tournaments after two runs, want 1", page.Total)
		}
		got := page.Items[0]
		want := domain.Tournament{Name: demoTournament.Name, ClubName: demoClub, Rules: "fibur", PlayersPerTable: 4,
			Kind: domain.PairsTournament, DealsPerRound: 3, StartsAt: now.AddDate(0, 0, 7), Status: domain.TournamentPublished}
		got.ID, got.ClubID, got.Description, got.Options, got.CreatedAt, got.UpdatedAt = 0, 0, "", nil, time.Time{}, time.Time{}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("demo tournament (-want +got):\n%s", diff)
		}
	})
}
