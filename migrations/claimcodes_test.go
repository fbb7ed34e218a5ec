package migrations_test

import (
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

// TestClaimCodesMigrationGivesEveryProfileWithoutAnAccountACode checks
// migration 18 on players written before it: each profile
// without an account gets a code of 8 characters of the claim alphabet,
// all different, and a profile with an account none.
func TestClaimCodesMigrationGivesEveryProfileWithoutAnAccountACode(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		ctx, sqlDB, d, bind := t.Context(), db.SQL(), db.Dialect(), binder(db)
		_, err := migrations.Up(ctx, sqlDB, d)
		must(t, err)
		st, err := migrations.Status(ctx, sqlDB, d)
		must(t, err)
		newer := 0 // 18 and those after it
		for _, m := range st {
			if m.Version >= 18 {
				newer++
			}
		}
		_, err = migrations.Down(ctx, sqlDB, d, newer)
		must(t, err)
		now := "2026-03-01 12:00:00"
		_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'a@example.org', 'A', 'x', ?, ?)`), now, now)
		must(t, err)
		for id, user := range map[int]any{1: 1, 2: nil, 3: nil} {
			_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO players (id, user_id, name, search, created_at, updated_at) VALUES (?, ?, 'P', 'p', ?, ?)`),
				id, user, now, now)
			must(t, err)
		}
		_, err = migrations.Up(ctx, sqlDB, d)
		must(t, err)
		rows, err := sqlDB.QueryContext(ctx, `SELECT id, claim_code FROM players ORDER BY id`)
		must(t, err)
		defer rows.Close()
		codes := map[string]bool{}
		for rows.Next() {
			var id int
			var code *string
			must(t, rows.Scan(&id, &code))
			switch {
			case id == 1 && code != nil:
				t.Errorf("the profile with an account got a code %q", *code)
			case id != 1 && (code == nil || len(*code) != 8 || codes[*code]):
				t.Errorf("player %d: code %v", id, code)
			case id != 1:
				codes[*code] = true
			}
		}
		must(t, rows.Err())
	})
}
