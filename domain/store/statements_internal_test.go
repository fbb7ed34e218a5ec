package store

import (
	"strings"
	"testing"
)

func TestStatementKindOf(t *testing.T) {
	for _, c := range []struct {
		name, sql, op, table string
	}{
		{"BeginIsBegin", "begin", "begin", ""},
		{"ABeginWithOptionsIsBegin", "begin isolation level repeatable read read only", "begin", ""},
		{"CommitIsCommit", "commit", "commit", ""},
		{"ASelectNamesItsFirstTable", `SELECT t.version FROM table_leases l JOIN tables t ON t.id = l.table_id WHERE l.table_id = $1 FOR UPDATE OF t`, "select", "table_leases"},
		{"AQuotedTableLosesItsQuotes", `SELECT * FROM "refresh_tokens" WHERE token_hash = $1 LIMIT $2`, "select", "refresh_tokens"},
		{"ASchemasNameIsDropped", `SELECT * FROM "load_x"."users" WHERE id = $1`, "select", "users"},
		{"AnInsertNamesItsTable", `INSERT INTO "table_seats" ("table_id","seat") VALUES ($1,$2)`, "insert", "table_seats"},
		{"AnUpdateNamesItsTable", `UPDATE tables SET version = $1 WHERE id = $2`, "update", "tables"},
		{"ADeleteNamesItsTable", `DELETE FROM "idempotency_keys" WHERE expires_at < $1`, "delete", "idempotency_keys"},
		{"AWithIsCountedByItsMainPart", `WITH appended AS (INSERT INTO table_moves (table_id, deal) VALUES ($1, $2)) UPDATE tables SET version = $3 WHERE id = $4`, "update", "tables"},
		{"AWithOfSeveralPartsIsCountedByItsMainPart", `WITH a AS (SELECT 1 FROM users), b AS (UPDATE server_processes SET seen_at = now()) UPDATE table_leases SET expires_at = now()`, "update", "table_leases"},
		{"PgNotifyIsANotify", `SELECT pg_notify(CASE current_schema() WHEN 'public' THEN 'burraco_writes' ELSE 'burraco_writes_' || current_schema() END, $1)`, "notify", ""},
		{"ListenIsListen", `LISTEN "burraco_tables_x"`, "listen", ""},
		{"ASelectOfNoTableNamesNone", "SELECT 1", "select", ""},
		{"ALongColumnListStillNamesTheTable", "SELECT " + strings.Repeat("a_column, ", 100) + "z FROM tables WHERE id = $1", "select", "tables"},
		{"AnUnknownVerbIsOther", "VACUUM tables", "other", ""},
		{"NothingIsOther", "   ", "other", ""},
		{"AnUnclosedWithIsOther", "WITH a AS (SELECT", "other", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			op, table := statementKindOf(c.sql)
			if op != c.op || table != c.table {
				t.Errorf("statementKindOf(%q) = %q, %q; want %q, %q", c.sql, op, table, c.op, c.table)
			}
		})
	}
}

func TestStatementTextsAreBoundedAndTheRestCounted(t *testing.T) {
	var c statementCounter
	for i := range maxTexts + 5 {
		c.count("SELECT 1 FROM users WHERE id IN (" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676)) + ")")
	}
	texts := c.textCounts()
	if len(texts) != maxTexts+1 || texts[len(texts)-1] != (StatementText{"(other texts)", 5}) {
		t.Errorf("%d texts, the last %+v; want %d and the 5 others counted together", len(texts), texts[len(texts)-1], maxTexts+1)
	}
	s := c.counts().Statements
	if len(s) != 1 || s[0] != (StatementCount{"select", "users", maxTexts + 5}) {
		t.Errorf("kinds %+v; want every statement counted as one kind", s)
	}
}
