package storetest_test

import (
	"database/sql"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/migrations"
)

// TestPostgresCopyIsWhatUpMakes: a copy of the template (Postgres,
// PostgresMigratedURL) has the tables, columns, constraints, indexes,
// sequences, triggers, functions and rows of a schema that migrations.Up
// migrated anew, and Up finds nothing to do in it. The comparison sees a
// copy that lacks a trigger, an index, a constraint or a row.
func TestPostgresCopyIsWhatUpMakes(t *testing.T) {
	fresh := storetest.Open(t, storetest.PostgresURL(t))
	want := describe(t, fresh.SQL())
	t.Logf("%d lines", len(want))
	if len(want) < 50 {
		t.Fatalf("a migrated schema described in %d lines:\n%s", len(want), strings.Join(want, "\n"))
	}
	copyURL := storetest.PostgresMigratedURL(t)
	copied := storetest.Open(t, copyURL)
	if applied, err := migrations.Up(t.Context(), copied.SQL(), copied.Dialect()); err != nil || len(applied) != 0 {
		t.Fatalf("Up on a copy applied %v (%v), want nothing", applied, err)
	}
	if schema := schemaOf(t, copyURL); !strings.HasPrefix(schema, "test_") || schema != currentSchema(t, copied.SQL()) {
		t.Errorf("a copy's schema is %q (URL) and %q (current), want the copy's own test_ name", schema, currentSchema(t, copied.SQL()))
	}
	if diff := difference(want, describe(t, copied.SQL())); diff != "" {
		t.Fatalf("a copy differs from a schema migrated anew (- fresh, + copy):\n%s", diff)
	}

	// Each change below makes a copy differ: the comparison is not blind
	// to what the test says it compares.
	for name, change := range map[string]string{
		"a trigger": `CREATE TRIGGER probe BEFORE UPDATE ON players FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger()`,
		"an index":  `DROP INDEX ` + firstIndex(t, copied.SQL()),
		"a constraint": `ALTER TABLE players DROP CONSTRAINT ` +
			firstOf(t, copied.SQL(), `SELECT conname FROM pg_constraint WHERE conrelid = 'players'::regclass AND contype = 'f' ORDER BY 1 LIMIT 1`),
		"a row":     `DELETE FROM schema_migrations WHERE version = 1`,
		"a default": `ALTER TABLE players ALTER COLUMN created_at SET DEFAULT now()`,
	} {
		t.Run(name, func(t *testing.T) {
			u := storetest.PostgresMigratedURL(t)
			db := storetest.Open(t, u)
			mustExec(t, db.SQL(), change)
			if difference(want, describe(t, db.SQL())) == "" {
				t.Errorf("after %q, a copy still describes as a fresh schema", change)
			}
		})
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

func firstIndex(t *testing.T, db *sql.DB) string {
	return firstOf(t, db, `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname NOT LIKE '%_pkey' ORDER BY 1 LIMIT 1`)
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

func schemaOf(t *testing.T, databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("search_path")
}

func mustExec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.ExecContext(t.Context(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
