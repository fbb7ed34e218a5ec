package store

import (
	"slices"
	"testing"
)

func TestWrittenTableIsTheOneAnInsertOrUpdateNames(t *testing.T) {
	tests := []struct {
		statement, table string
		write            bool
	}{
		{"INSERT INTO players (name) VALUES ($1) RETURNING id", "players", true},
		{"INSERT INTO `players` (`name`) VALUES (?)", "players", true},
		{`INSERT INTO "table_seats" ("table_id") VALUES ($1)`, "table_seats", true},
		{"  insert into Users(id) values (1)", "users", true},
		{"UPDATE `tables` SET `version`=? WHERE id = ?", "tables", true},
		{`UPDATE "public"."tables" SET version = $1`, "tables", true},
		{"UPDATE OR REPLACE tables SET x = 1", allTables, true},
		{"DELETE FROM players WHERE id = ?", allTables, true},
		{"REPLACE INTO players (id) VALUES (1)", allTables, true},
		{"WITH x AS (SELECT 1) INSERT INTO players SELECT * FROM x", allTables, true},
		{"SELECT pg_notify('burraco_tables', '1:2')", "", false},
		{"SAVEPOINT burraco_writer", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		table, write := writtenTable(tt.statement)
		if table != tt.table || write != tt.write {
			t.Errorf("%q: %q, %v; want %q, %v", tt.statement, table, write, tt.table, tt.write)
		}
	}
}

func TestWrittenRecordsNameTheColumnsAnUpdateSets(t *testing.T) {
	tests := []struct {
		statement string
		records   []string
	}{
		{"UPDATE tables SET version = $1, updated_at = $2 WHERE id = $3",
			[]string{"tables", "tables.version", "tables.updated_at"}},
		{"UPDATE `tables` SET `version`=?,`Status`=? WHERE `id` = ? AND version = ?",
			[]string{"tables", "tables.version", "tables.status"}},
		{`UPDATE "public"."tables" SET "state"=COALESCE(state, '{"a":1, "b":2}'), clock = clock + (1, 2) RETURNING id`,
			[]string{"tables", "tables.state", "tables.clock"}},
		{"UPDATE players SET name = 'a, b = c'\nWHERE id = 1", []string{"players", "players.name"}},
		{"UPDATE tables SET (a, b) = (1, 2)", []string{"tables", "tables.*"}},
		{"UPDATE tables SET t.a = 1", []string{"tables", "tables.*"}},
		{"INSERT INTO tables (id) VALUES (1)", []string{"tables", "tables.*"}},
		{"DELETE FROM tables WHERE id = 1", []string{"*"}},
		{"SELECT 1", nil},
		{`WITH appended AS (INSERT INTO table_moves (table_id, "move") VALUES ($1, $2), ($3, $4)) UPDATE tables SET version = $5 WHERE id = $6`,
			[]string{"table_moves", "table_moves.*", "tables", "tables.version"}},
		{"WITH x AS (SELECT 1) INSERT INTO players SELECT * FROM x", []string{"players", "players.*"}},
		{"WITH x AS (SELECT ')') UPDATE players SET name = 'a'", []string{"*"}},
		{"WITH x AS (SELECT 1), y AS (DELETE FROM players) UPDATE tables SET version = 1", []string{"*"}},
		{"WITH x AS (SELECT 1", []string{"*"}},
	}
	for _, tt := range tests {
		if got := writtenRecords(tt.statement); !slices.Equal(got, tt.records) {
			t.Errorf("%q: %q, want %q", tt.statement, got, tt.records)
		}
	}
}
