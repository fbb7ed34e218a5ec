package store

import "testing"

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
