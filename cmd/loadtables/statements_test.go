package main

import (
	"strings"
	"testing"
)

func TestParseFiguresReadsWhatTheServersSentPostgreSQL(t *testing.T) {
	body := `burraco_moves_total 10
# TYPE burraco_db_statements_total counter
burraco_db_statements_total{op="begin",table=""} 10
burraco_db_statements_total{op="select",table="table_leases"} 10
burraco_db_statements_total{op="select",table="users"} 6
burraco_db_prepares_total 3
burraco_db_connects_total 2
burraco_db_pings_total 1
# TYPE burraco_db_move_batch_moves histogram
burraco_db_move_batch_moves_bucket{le="1"} 2
burraco_db_move_batch_moves_bucket{le="+Inf"} 4
burraco_db_move_batch_moves_sum 9
burraco_db_move_batch_moves_count 4
`
	got, err := parseFigures(body)
	if err != nil {
		t.Fatal(err)
	}
	want := dbFigures{statements: map[string]int64{"begin": 10, "select table_leases": 10, "select users": 6}, prepares: 3, connects: 2, pings: 1}
	want.batches, want.batchedMoves = 4, 9
	if got.db.prepares != want.prepares || got.db.connects != want.connects || got.db.pings != want.pings || len(got.db.statements) != 3 ||
		got.db.batches != want.batches || got.db.batchedMoves != want.batchedMoves {
		t.Fatalf("db figures %+v, want %+v", got.db, want)
	}
	for k, n := range want.statements {
		if got.db.statements[k] != n {
			t.Errorf("%s: %d, want %d", k, got.db.statements[k], n)
		}
	}
}

func TestReportSaysTheStatementsAMoveDuringPlay(t *testing.T) {
	before := dbFigures{statements: map[string]int64{"begin": 5, "select users": 100, "notify": 1}, connects: 20, prepares: 300, batches: 3, batchedMoves: 3}
	after := dbFigures{statements: map[string]int64{"begin": 105, "select users": 158, "notify": 1, "commit": 100}, connects: 20, prepares: 302, pings: 1,
		batches: 43, batchedMoves: 103}
	r := &result{tables: 1, finished: 1, moves: 100, serverMoves: 100, elapsed: 2e9,
		server: serverFigures{moves: 100, db: after.minus(before)}}
	var out strings.Builder
	r.print(&out, 1, options{db: "postgres", processes: 2})
	for _, want := range []string{
		"statements sent to PostgreSQL a move 2.58 (burraco_db_statements_total): begin 1.00, commit 1.00, select users 0.58\n",
		"a move's statements prepared 0.020, connections opened 0.000, pings 0.010",
		"the owners' moves written in batches of 2.50 on average, one commit each (burraco_db_move_batch_moves: 100 moves in 40 batches)\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
}

func TestReportSaysNoStatementsOnSQLite(t *testing.T) {
	r := &result{tables: 1, finished: 1, moves: 100, serverMoves: 100, elapsed: 2e9, server: serverFigures{moves: 100}}
	var out strings.Builder
	r.print(&out, 1, options{db: "sqlite", processes: 1})
	if strings.Contains(out.String(), "statements sent") {
		t.Errorf("a SQLite run's report speaks of PostgreSQL's statements:\n%s", out.String())
	}
}
