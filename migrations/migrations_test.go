package migrations_test

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/migrations"
)

// each runs fn on an empty (unmigrated) SQLite file and PostgreSQL schema.
func each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Run(store.SQLite, func(t *testing.T) { fn(t, open(t, storetest.SQLiteURL(t))) })
	t.Run(store.Postgres, func(t *testing.T) { fn(t, open(t, storetest.PostgresURL(t))) })
}

func open(t *testing.T, url string) *store.DB {
	db, err := store.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestRoundTrip(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		ctx, sqlDB, d := t.Context(), db.SQL(), db.Dialect()
		st, err := migrations.Status(ctx, sqlDB, d)
		must(t, err)
		if len(st) == 0 || st[0].Applied || st[0].Version != 1 || st[0].Name != "init" {
			t.Fatalf("status before Up: %+v", st)
		}
		applied, err := migrations.Up(ctx, sqlDB, d)
		must(t, err)
		if diff := cmp.Diff(versions(st), applied); diff != "" {
			t.Errorf("applied (-want +got):\n%s", diff)
		}
		wantTables(t, db, "claim_failures", "club_invitations", "clubs", "deleted_player_names", "idempotency_keys", "memberships", "players", "rating_history", "ratings", "refresh_tokens", "season_exclusions", "seasons", "server_processes", "settings", "table_deals", "table_leases", "table_moves", "table_seats", "tables", "tournament_events", "tournament_players", "tournament_referees", "tournaments", "users")

		again, err := migrations.Up(ctx, sqlDB, d)
		must(t, err)
		if len(again) != 0 {
			t.Errorf("second Up applied %v", again)
		}
		st, err = migrations.Status(ctx, sqlDB, d)
		must(t, err)
		for _, s := range st {
			if !s.Applied || s.AppliedAt == nil {
				t.Errorf("after Up: %+v", s)
			}
		}

		reverted, err := migrations.Down(ctx, sqlDB, d, len(st))
		must(t, err)
		if diff := cmp.Diff(reversed(versions(st)), reverted); diff != "" {
			t.Errorf("reverted (-want +got):\n%s", diff)
		}
		wantTables(t, db)
		none, err := migrations.Down(ctx, sqlDB, d, 1)
		must(t, err)
		if len(none) != 0 {
			t.Errorf("Down on an empty schema reverted %v", none)
		}

		applied, err = migrations.Up(ctx, sqlDB, d)
		must(t, err)
		if diff := cmp.Diff(versions(st), applied); diff != "" {
			t.Errorf("re-applied (-want +got):\n%s", diff)
		}
		wantTables(t, db, "claim_failures", "club_invitations", "clubs", "deleted_player_names", "idempotency_keys", "memberships", "players", "rating_history", "ratings", "refresh_tokens", "season_exclusions", "seasons", "server_processes", "settings", "table_deals", "table_leases", "table_moves", "table_seats", "tables", "tournament_events", "tournament_players", "tournament_referees", "tournaments", "users")
	})
}

func TestErrors(t *testing.T) {
	db := open(t, storetest.SQLiteURL(t))
	if _, err := migrations.Up(t.Context(), db.SQL(), "mysql"); err == nil {
		t.Error("Up with an unknown dialect: no error")
	}
	if _, err := migrations.Down(t.Context(), db.SQL(), "sqlite", 0); err == nil {
		t.Error("Down 0 steps: no error")
	}
}

// TestConcurrentUp starts several "processes" (pools) migrating one
// database at once: each version is applied exactly once, on PostgreSQL
// (advisory lock) and on one SQLite file (immediate transactions).
func TestConcurrentUp(t *testing.T) {
	t.Run("postgres", func(t *testing.T) { concurrentUp(t, storetest.PostgresURL(t), 5) })
	t.Run("sqlite", func(t *testing.T) { concurrentUp(t, storetest.SQLiteURL(t), 4) })
}

func concurrentUp(t *testing.T, url string, n int) {
	results := make([][]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			db, err := store.Open(context.Background(), url)
			if err != nil {
				t.Error(err)
				return
			}
			defer db.Close()
			results[i], err = migrations.Up(context.Background(), db.SQL(), db.Dialect())
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var all []int
	for _, r := range results {
		all = append(all, r...)
	}
	sort.Ints(all)
	db := open(t, url)
	st, err := migrations.Status(t.Context(), db.SQL(), db.Dialect())
	must(t, err)
	if diff := cmp.Diff(versions(st), all); diff != "" {
		t.Errorf("versions applied over all processes (-want +got):\n%s", diff)
	}
}

func wantTables(t *testing.T, db *store.DB, want ...string) {
	t.Helper()
	q := `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' ORDER BY 1`
	if db.Dialect() == store.SQLite {
		q = `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations', 'sqlite_sequence') ORDER BY 1`
	}
	rows, err := db.SQL().QueryContext(t.Context(), q)
	must(t, err)
	defer rows.Close()
	var got []string
	for rows.Next() {
		var name string
		must(t, rows.Scan(&name))
		got = append(got, name)
	}
	must(t, rows.Err())
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
}

func versions(st []migrations.MigrationStatus) []int {
	var v []int
	for _, s := range st {
		v = append(v, s.Version)
	}
	return v
}

func reversed(v []int) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[len(v)-1-i] = x
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestATablesEnumeratedColumnsRefuseOtherValues: the values a table's
// enumerated columns and a move's index may take are enforced by the
// schema on both dialects (on PostgreSQL by domains since 0026: a table
// CHECK there is parsed and evaluated at every UPDATE of the row, which
// every move makes), and an update setting none of them is not refused.
func TestATablesEnumeratedColumnsRefuseOtherValues(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		ctx, sqlDB := t.Context(), db.SQL()
		_, err := migrations.Up(ctx, sqlDB, db.Dialect())
		must(t, err)
		exec := func(q string, args ...any) error {
			if db.Dialect() == store.Postgres {
				q = dollars(q)
			}
			_, err := sqlDB.ExecContext(ctx, q, args...)
			return err
		}
		now := time.Now().UTC()
		must(t, exec(`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'a@example.org', 'A', 'x', ?, ?)`, now, now))
		must(t, exec(`INSERT INTO tables (id, creator_id, rules, options, players, invite_code, free_seats, created_at, updated_at) VALUES (1, 1, 'fibur', '{}', 4, 'abc', 4, ?, ?)`, now, now))
		must(t, exec(`INSERT INTO table_deals (table_id, number, dealer, seed, totals, position, started_at) VALUES (1, 1, 0, '1', '[]', '{}', ?)`, now))
		for _, c := range []struct{ column, good, bad string }{
			{"status", "'playing'", "'paused'"},
			{"result", "'played'", "'won'"},
			{"players", "2", "3"},
			{"absent_policy", "'bot'", "'wait'"},
			{"cancelled", "'expired'", "'lost'"},
			{"claim_policy", "'draw'", "'any'"},
			{"outcome", "'claimed'", "'won'"},
		} {
			if err := exec(`UPDATE tables SET ` + c.column + ` = ` + c.bad + ` WHERE id = 1`); err == nil {
				t.Errorf("tables.%s = %s: stored; want it refused", c.column, c.bad)
			}
			if err := exec(`UPDATE tables SET ` + c.column + ` = ` + c.good + ` WHERE id = 1`); err != nil {
				t.Errorf("tables.%s = %s: %v; want it stored", c.column, c.good, err)
			}
		}
		if err := exec(`UPDATE tables SET status = ? WHERE id = 1`, "paused"); err == nil {
			t.Error("tables.status = 'paused' as a parameter: stored; want it refused")
		}
		if err := exec(`UPDATE tables SET version = version + 1, updated_at = ? WHERE id = 1`, now); err != nil {
			t.Errorf("a move's update of tables: %v", err)
		}
		move := `INSERT INTO table_moves (table_id, deal, idx, seat, move, at) VALUES (1, 1, ?, 0, '{}', ?)`
		if err := exec(move, -1, now); err == nil {
			t.Error("a move at index -1: stored; want it refused")
		}
		must(t, exec(move, 0, now))
		if db.Dialect() == store.Postgres {
			var checks int
			must(t, sqlDB.QueryRowContext(ctx, `SELECT count(*) FROM pg_constraint WHERE contype = 'c' AND conrelid IN ('tables'::regclass, 'table_moves'::regclass)`).Scan(&checks))
			if checks != 0 {
				t.Errorf("tables and table_moves have %d CHECK constraints of their own on PostgreSQL; want none (domains instead: each move's statements would parse and evaluate them all)", checks)
			}
		}
	})
}

// dollars numbers a statement's ? placeholders as PostgreSQL's $1, $2…
func dollars(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestAStoredAnswerIsCompressedWithLZ4OnPostgres: a keyed move stores its
// answer (a state of a few kilobytes) in idempotency_keys at every move;
// PostgreSQL compresses it with lz4 since 0027 (pglz, the default, was a
// tenth of the backends' CPU in a load run).
func TestAStoredAnswerIsCompressedWithLZ4OnPostgres(t *testing.T) {
	db := open(t, storetest.PostgresURL(t))
	ctx, sqlDB := t.Context(), db.SQL()
	_, err := migrations.Up(ctx, sqlDB, db.Dialect())
	must(t, err)
	var lz4 bool
	must(t, sqlDB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals))`).Scan(&lz4))
	if !lz4 {
		t.Skip("this PostgreSQL is built without lz4: the column keeps the default compression")
	}
	now := time.Now().UTC()
	_, err = sqlDB.ExecContext(ctx, `INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'a@example.org', 'A', 'x', $1, $1)`, now)
	must(t, err)
	answer := `{"state":"` + strings.Repeat("a played card, ", 400) + `"}` // 6 KB: over the 2 KB where PostgreSQL compresses
	_, err = sqlDB.ExecContext(ctx, `INSERT INTO idempotency_keys (owner_id, idem_key, scope, fingerprint, answer, expires_at) VALUES (1, 'k', 'table:1', 'f', $1, $2)`, answer, now.Add(time.Hour))
	must(t, err)
	var method string
	must(t, sqlDB.QueryRowContext(ctx, `SELECT coalesce(pg_column_compression(answer), 'none') FROM idempotency_keys`).Scan(&method))
	if method != "lz4" {
		t.Errorf("a stored answer of %d bytes compressed with %s; want lz4", len(answer), method)
	}
}

// TestDeletingATableOrAUserDeletesItsMovesAndKeys holds what the foreign
// keys of table_moves and idempotency_keys did on delete, which
// PostgreSQL's 0028 gives to triggers (the keys' checks cost every move a
// query); on PostgreSQL it also holds that the two tables keep no foreign
// key, the move's path staying free of their checks.
func TestDeletingATableOrAUserDeletesItsMovesAndKeys(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		ctx, sqlDB := t.Context(), db.SQL()
		_, err := migrations.Up(ctx, sqlDB, db.Dialect())
		must(t, err)
		exec := func(q string, args ...any) {
			t.Helper()
			if db.Dialect() == store.Postgres {
				q = dollars(q)
			}
			_, err := sqlDB.ExecContext(ctx, q, args...)
			must(t, err)
		}
		count := func(q string) (n int) {
			t.Helper()
			must(t, sqlDB.QueryRowContext(ctx, q).Scan(&n))
			return n
		}
		now := time.Now().UTC()
		for _, u := range []int{1, 2} {
			exec(`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (?, ?, 'A', 'x', ?, ?)`, u, strconv.Itoa(u)+"@example.org", now, now)
		}
		for _, id := range []int{1, 2} {
			exec(`INSERT INTO tables (id, creator_id, rules, options, players, invite_code, free_seats, created_at, updated_at) VALUES (?, 2, 'fibur', '{}', 4, ?, 4, ?, ?)`, id, "code"+strconv.Itoa(id), now, now)
			for _, deal := range []int{1, 2} {
				exec(`INSERT INTO table_deals (table_id, number, dealer, seed, totals, position, started_at) VALUES (?, ?, 0, '1', '[]', '{}', ?)`, id, deal, now)
				for idx := range 3 {
					exec(`INSERT INTO table_moves (table_id, deal, idx, seat, move, at) VALUES (?, ?, ?, 0, '{}', ?)`, id, deal, idx, now)
				}
			}
		}
		for _, u := range []int{1, 2} {
			for _, k := range []string{"a", "b"} {
				exec(`INSERT INTO idempotency_keys (owner_id, idem_key, scope, fingerprint, answer, expires_at) VALUES (?, ?, 'tables/1', 'f', '{}', ?)`, u, k, now.Add(time.Hour))
			}
		}

		exec(`DELETE FROM table_deals WHERE table_id = 2 AND number = 2`)
		if n := count(`SELECT count(*) FROM table_moves WHERE table_id = 2`); n != 3 {
			t.Errorf("a deal deleted: its table keeps %d moves; want 3 (the other deal's)", n)
		}
		exec(`DELETE FROM tables WHERE id = 1`)
		if n := count(`SELECT count(*) FROM table_moves WHERE table_id = 1`); n != 0 {
			t.Errorf("a table deleted: %d of its moves are left; want none", n)
		}
		if n := count(`SELECT count(*) FROM table_moves`); n != 3 {
			t.Errorf("a table deleted: %d moves in all; want the other table's 3", n)
		}
		exec(`DELETE FROM users WHERE id = 1`)
		if n := count(`SELECT count(*) FROM idempotency_keys WHERE owner_id = 1`); n != 0 {
			t.Errorf("a user deleted: %d of their idempotency keys are left; want none", n)
		}
		if n := count(`SELECT count(*) FROM idempotency_keys`); n != 2 {
			t.Errorf("a user deleted: %d idempotency keys in all; want the other user's 2", n)
		}

		if db.Dialect() == store.Postgres {
			if n := count(`SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid IN ('table_moves'::regclass, 'idempotency_keys'::regclass)`); n != 0 {
				t.Errorf("table_moves and idempotency_keys have %d foreign keys on PostgreSQL; want none (each would run a query at every move)", n)
			}
		}
	})
}
