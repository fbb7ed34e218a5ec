package migrations_test

import (
	"database/sql"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

// downTo reverts the applied migrations after version v.
func downTo(t *testing.T, db *store.DB, v int) {
	t.Helper()
	ctx := t.Context()
	st, err := migrations.Status(ctx, db.SQL(), db.Dialect())
	must(t, err)
	if n := len(st) - v; n > 0 {
		_, err = migrations.Down(ctx, db.SQL(), db.Dialect(), n)
		must(t, err)
	}
}

func binder(db *store.DB) func(string) string {
	return func(q string) string {
		if db.Dialect() == store.Postgres {
			return migrations.Bind(q)
		}
		return q
	}
}

// oldTournament is a row as version 5 stores it.
type oldTournament struct {
	id     int64
	status string
	kind   string
	deals  int
}

// TestLifecycleMigrationKeepsTournaments checks migration 6 on rows written
// at version 5: "published" becomes "registration_open", deals per round
// outside 2..4 come to the nearest, teams get 2 pairs a match, what had left
// draft gets its opened_at, every row a lots seed of its own, and the name
// search and ids stay. Down maps the lifecycle back to the old statuses.
func TestLifecycleMigrationKeepsTournaments(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		ctx, sqlDB, d, bind := t.Context(), db.SQL(), db.Dialect(), binder(db)
		_, err := migrations.Up(ctx, sqlDB, d)
		must(t, err)
		downTo(t, db, 5)
		now := "2026-03-01 12:00:00"
		_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO clubs (id, name, city, search, created_at, updated_at) VALUES (1, 'C', '', 'c', ?, ?)`), now, now)
		must(t, err)
		old := []oldTournament{{1, "draft", "pairs", 3}, {2, "published", "teams", 1}, {3, "running", "individual", 8}, {4, "finished", "pairs", 4}}
		for _, o := range old {
			_, err = sqlDB.ExecContext(ctx, bind(`INSERT INTO tournaments (id, club_id, name, rules, players_per_table, kind, deals_per_round, starts_at, status, search, created_at, updated_at)
				VALUES (?, 1, ?, 'fibur', 4, ?, ?, ?, ?, ?, ?, ?)`), o.id, "Coppa Forlì "+o.status, o.kind, o.deals, now, o.status, "coppa forli "+o.status, now, now)
			must(t, err)
		}
		if d == store.SQLite { // a deleted tournament's id is never handed out again
			_, err = sqlDB.ExecContext(ctx, `INSERT INTO tournaments (id, club_id, name, rules, players_per_table, kind, starts_at, created_at, updated_at)
				VALUES (9, 1, 'Gone', 'fibur', 4, 'pairs', ?, ?, ?)`, now, now, now)
			must(t, err)
			_, err = sqlDB.ExecContext(ctx, `DELETE FROM tournaments WHERE id = 9`)
			must(t, err)
		}
		applied, err := migrations.Up(ctx, sqlDB, d)
		must(t, err)
		if len(applied) == 0 || applied[0] != 6 {
			t.Fatalf("applied %v, want 6 first", applied)
		}

		type row struct {
			Status, Search, Seed string
			Deals, TeamPairs     int
			Opened               bool
			Version              int64
		}
		want := map[int64]row{
			1: {Status: "draft", Search: "coppa forli draft", Deals: 3},
			2: {Status: "registration_open", Search: "coppa forli published", Deals: 2, TeamPairs: 2, Opened: true},
			3: {Status: "running", Search: "coppa forli running", Deals: 4, Opened: true},
			4: {Status: "finished", Search: "coppa forli finished", Deals: 4, Opened: true},
		}
		got := map[int64]row{}
		seeds := map[string]bool{}
		rows, err := sqlDB.QueryContext(ctx, `SELECT id, status, search, lots_seed, deals_per_round, team_pairs, opened_at, version FROM tournaments`)
		must(t, err)
		for rows.Next() {
			var id int64
			var r row
			var opened sql.NullTime
			must(t, rows.Scan(&id, &r.Status, &r.Search, &r.Seed, &r.Deals, &r.TeamPairs, &opened, &r.Version))
			if _, err := strconv.ParseUint(r.Seed, 10, 64); err != nil || r.Seed == "0" || seeds[r.Seed] {
				t.Errorf("tournament %d: lots seed %q, want a fresh uint64 of its own", id, r.Seed)
			}
			seeds[r.Seed] = true
			r.Seed, r.Opened = "", opened.Valid
			got[id] = r
		}
		must(t, rows.Err())
		rows.Close()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tournaments after 0006 (-want +got):\n%s", diff)
		}

		// The old status is refused; the new ones are checked.
		_, err = sqlDB.ExecContext(ctx, `UPDATE tournaments SET status = 'published' WHERE id = 1`)
		if err == nil {
			t.Error("status 'published' accepted after 0006")
		}
		_, err = sqlDB.ExecContext(ctx, `UPDATE tournaments SET status = 'cancelled' WHERE id = 1`)
		must(t, err)
		_, err = sqlDB.ExecContext(ctx, `UPDATE tournaments SET status = 'cancelled' WHERE id = 3`)
		must(t, err)
		if d == store.SQLite {
			var id int64
			must(t, sqlDB.QueryRowContext(ctx, `INSERT INTO tournaments (club_id, name, rules, players_per_table, kind, starts_at, created_at, updated_at)
				VALUES (1, 'New', 'fibur', 4, 'pairs', ?, ?, ?) RETURNING id`, now, now, now).Scan(&id))
			if id != 10 {
				t.Errorf("a new tournament got id %d, want 10 (after the deleted 9)", id)
			}
			_, err = sqlDB.ExecContext(ctx, `DELETE FROM tournaments WHERE id = 10`)
			must(t, err)
		}
		wantIndexes(t, db, "tournaments", "tournaments_club_id_idx", "tournaments_status_starts_at_idx")

		_, err = migrations.Down(ctx, sqlDB, d, len(applied))
		must(t, err)
		back := map[int64]string{}
		rows, err = sqlDB.QueryContext(ctx, `SELECT id, status FROM tournaments`)
		must(t, err)
		for rows.Next() {
			var id int64
			var s string
			must(t, rows.Scan(&id, &s))
			back[id] = s
		}
		must(t, rows.Err())
		rows.Close()
		// 1 was cancelled as a draft (hidden), 3 after it opened (over).
		if diff := cmp.Diff(map[int64]string{1: "draft", 2: "published", 3: "finished", 4: "finished"}, back); diff != "" {
			t.Errorf("statuses after down (-want +got):\n%s", diff)
		}
		wantIndexes(t, db, "tournaments", "tournaments_club_id_idx", "tournaments_status_starts_at_idx")
	})
}

// wantIndexes checks that table has (at least) the named indexes.
func wantIndexes(t *testing.T, db *store.DB, table string, names ...string) {
	t.Helper()
	q := `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1`
	if db.Dialect() == store.SQLite {
		q = `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`
	}
	rows, err := db.SQL().QueryContext(t.Context(), q, table)
	must(t, err)
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var n string
		must(t, rows.Scan(&n))
		have[n] = true
	}
	must(t, rows.Err())
	for _, n := range names {
		if !have[n] {
			t.Errorf("%s lacks index %s (has %v)", table, n, have)
		}
	}
}
