package storetest_test

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestPostgresReusedSchemaIsWhatUpMakes: a schema that Postgres gives again
// after a test wrote rows in it has the tables, columns, constraints,
// indexes, sequences, triggers, functions and rows (none but the applied
// migrations) of a schema that migrations.Up migrated anew; one in which a
// test changed more than rows (an index, a constraint, a trigger, a
// default, the applied migrations) is not given again.
func TestPostgresReusedSchemaIsWhatUpMakes(t *testing.T) {
	want := describe(t, storetest.Open(t, storetest.PostgresURL(t)).SQL())
	if len(want) < 50 {
		t.Fatalf("a migrated schema described in %d lines:\n%s", len(want), strings.Join(want, "\n"))
	}
	var used string
	t.Run("writes", func(t *testing.T) {
		db := storetest.Postgres(t)
		used = currentSchema(t, db.SQL())
		writeRows(t, db)
	})
	t.Run("reused", func(t *testing.T) {
		db := storetest.Postgres(t)
		if got := currentSchema(t, db.SQL()); got != used {
			t.Fatalf("Postgres gave schema %s, not %s again (nothing to compare)", got, used)
		}
		if diff := difference(want, describe(t, db.SQL())); diff != "" {
			t.Fatalf("a reused schema differs from one migrated anew (- fresh, + reused):\n%s", diff)
		}
		writeRows(t, db) // the sequences start again: the same ids
	})
	for name, change := range map[string]string{
		"a trigger":    `CREATE TRIGGER probe BEFORE UPDATE ON players FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger()`,
		"an index":     `CREATE INDEX probe ON players (name, id)`,
		"a constraint": `ALTER TABLE players ADD CONSTRAINT probe CHECK (id > 0)`,
		"a default":    `ALTER TABLE players ALTER COLUMN created_at SET DEFAULT now()`,
		"a migration":  `DELETE FROM schema_migrations WHERE version = 1`,
	} {
		t.Run(name, func(t *testing.T) {
			var changed string
			t.Run("change", func(t *testing.T) {
				db := storetest.Postgres(t)
				changed = currentSchema(t, db.SQL())
				if _, err := db.SQL().Exec(change); err != nil {
					t.Fatal(err)
				}
			})
			t.Run("next", func(t *testing.T) {
				db := storetest.Postgres(t)
				if got := currentSchema(t, db.SQL()); got == changed {
					t.Fatalf("after %q, Postgres gave schema %s again", change, got)
				}
				if diff := difference(want, describe(t, db.SQL())); diff != "" {
					t.Fatalf("the next schema differs from one migrated anew:\n%s", diff)
				}
			})
		})
	}
}

// writeRows writes a user and a player, checking that they get the ids
// of a fresh schema.
func writeRows(t *testing.T, db *store.DB) {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Microsecond)
	err := db.InTx(t.Context(), func(tx domain.Tx) error {
		u := domain.User{Email: "anna@example.com", Name: "Anna", CreatedAt: now, UpdatedAt: now}
		if err := tx.Users().Create(&u, "hash"); err != nil {
			return err
		}
		if u.ID != 1 {
			return fmt.Errorf("the first user has id %d, want 1", u.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// describe lists what a schema holds, one line per object, schema names
// left out (pg_get_*def qualify some names with it).
func describe(t *testing.T, db *sql.DB) []string {
	t.Helper()
	schema := currentSchema(t, db)
	queries := []string{
		`SELECT 'relation ' || relname || ' ' || relkind::text FROM pg_class WHERE relnamespace = current_schema()::regnamespace`,
		`SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' null=' || is_nullable || ' default=' || coalesce(column_default, '-') || ' #' || ordinal_position
			FROM information_schema.columns WHERE table_schema = current_schema()`,
		`SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = current_schema()::regnamespace`,
		`SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()`,
		`SELECT 'trigger ' || tgrelid::regclass || ' ' || pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
			WHERE c.relnamespace = current_schema()::regnamespace AND NOT tgisinternal`,
		`SELECT 'function ' || pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`,
		`SELECT 'sequence ' || sequencename || ' ' || data_type::text || ' ' || start_value || ' ' || coalesce(last_value::text, '-') FROM pg_sequences WHERE schemaname = current_schema()`,
		`SELECT 'applied ' || version || ' ' || name FROM schema_migrations`,
	}
	var out []string
	for _, q := range queries {
		out = append(out, strings_(t, db, q)...)
	}
	// Every table's rows (schema_migrations' as above, without the time).
	for _, table := range strings_(t, db, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`) {
		for _, row := range strings_(t, db, `SELECT to_jsonb(r)::text FROM `+table+` r`) {
			out = append(out, "row "+table+" "+row)
		}
	}
	for i := range out {
		out[i] = strings.ReplaceAll(out[i], schema+".", "")
	}
	slices.Sort(out)
	return out
}

// strings_ returns the one text column of the rows of q.
func strings_(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// difference is the lines of want missing from got (-) and those of got
// not in want (+); empty when they are the same.
func difference(want, got []string) string {
	var b strings.Builder
	for _, w := range want {
		if !slices.Contains(got, w) {
			fmt.Fprintf(&b, "- %s\n", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			fmt.Fprintf(&b, "+ %s\n", g)
		}
	}
	if b.Len() == 0 && len(want) != len(got) {
		fmt.Fprintf(&b, "%d lines, want %d\n", len(got), len(want))
	}
	return b.String()
}

func firstOf(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	got := strings_(t, db, q)
	if len(got) != 1 {
		t.Fatalf("%s: %d rows", q, len(got))
	}
	return got[0]
}

func currentSchema(t *testing.T, db *sql.DB) string {
	return firstOf(t, db, `SELECT current_schema()`)
}
