package migrations_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

// TestTournamentPlayersMigrationIndexesEveryEnteredPlayer checks migration
// 8 on a log written at version 7: every player of every entry_added event
// gets a row of tournament_players, once, and other events add none.
func TestTournamentPlayersMigrationIndexesEveryEnteredPlayer(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		ctx, sqlDB, d, bind := t.Context(), db.SQL(), db.Dialect(), binder(db)
		_, err := migrations.Up(ctx, sqlDB, d)
		must(t, err)
		downTo(t, db, 7)
		now := "2026-03-01 12:00:00"
		_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO clubs (id, name, city, search, created_at, updated_at) VALUES (1, 'C', '', 'c', ?, ?)`), now, now)
		must(t, err)
		for _, id := range []int{1, 2} {
			_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO tournaments (id, club_id, name, rules, players_per_table, kind, starts_at, lots_seed, created_at, updated_at)
				VALUES (?, 1, 'T', 'fibur', 4, 'pairs', ?, '1', ?, ?)`), id, now, now, now)
			must(t, err)
		}
		events := []struct {
			tournament, seq int
			kind, data      string
		}{
			{1, 1, "registration_opened", `{}`},
			{1, 2, "entry_added", `{"entry": {"id": 1, "number": 1, "players": [11, 12]}}`},
			{1, 3, "entry_added", `{"entry": {"id": 2, "number": 2, "players": [13, 14]}}`},
			{1, 4, "checked_in", `{"entry": 1, "checked_in": true}`},
			{2, 1, "entry_added", `{"entry": {"id": 1, "number": 1, "players": [11, 15]}}`},
		}
		for _, e := range events {
			_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO tournament_events (tournament_id, seq, at, kind, data) VALUES (?, ?, ?, ?, ?)`),
				e.tournament, e.seq, now, e.kind, e.data)
			must(t, err)
		}
		_, err = migrations.Up(ctx, sqlDB, d)
		must(t, err)
		rows, err := sqlDB.QueryContext(ctx, `SELECT tournament_id, player_id FROM tournament_players ORDER BY tournament_id, player_id`)
		must(t, err)
		defer rows.Close()
		var got [][2]int64
		for rows.Next() {
			var r [2]int64
			must(t, rows.Scan(&r[0], &r[1]))
			got = append(got, r)
		}
		must(t, rows.Err())
		want := [][2]int64{{1, 11}, {1, 12}, {1, 13}, {1, 14}, {2, 11}, {2, 15}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("tournament_players (-want +got):\n%s", diff)
		}
	})
}
