package migrations_test

import (
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

// TestSearchFilledForExistingRows checks the Go step of migration 4: rows
// that exist before it (written without a search column) get their folded
// search value, on both databases.
func TestSearchFilledForExistingRows(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		ctx, sqlDB, d := t.Context(), db.SQL(), db.Dialect()
		_, err := migrations.Up(ctx, sqlDB, d)
		must(t, err)
		st, err := migrations.Status(ctx, sqlDB, d)
		must(t, err)
		_, err = migrations.Down(ctx, sqlDB, d, len(st)-3) // back to before the search columns (0004) and what follows
		must(t, err)
		bind := func(q string) string {
			if d == store.Postgres {
				return migrations.Bind(q)
			}
			return q
		}
		now := "2026-03-01 12:00:00"
		_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO clubs (id, name, city, created_at, updated_at) VALUES (1, ?, ?, ?, ?)`), "Circolo Niccolò", "Cantù", now, now)
		must(t, err)
		_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO players (id, name, created_at, updated_at) VALUES (1, ?, ?, ?)`), "NICOLÒ Bianchi", now, now)
		must(t, err)
		_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO tournaments (id, club_id, name, rules, players_per_table, kind, starts_at, created_at, updated_at)
			VALUES (1, 1, ?, 'fibur', 4, 'pairs', ?, ?, ?)`), "Coppa Forlì", now, now, now)
		must(t, err)
		applied, err := migrations.Up(ctx, sqlDB, d)
		must(t, err)
		if len(applied) != len(st)-3 || applied[0] != 4 {
			t.Fatalf("applied %v, want 4 and what follows", applied)
		}
		for table, want := range map[string]string{"clubs": "circolo niccolo\x1fcantu", "players": "nicolo bianchi", "tournaments": "coppa forli"} {
			var got string
			must(t, sqlDB.QueryRowContext(ctx, "SELECT search FROM "+table+" WHERE id = 1").Scan(&got))
			if got != want {
				t.Errorf("%s.search = %q, want %q", table, got, want)
			}
		}
	})
}
