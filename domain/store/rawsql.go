package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Hand-written SQL for the hot reads and writes of the request path, run
// through GORM's own raw SQL (Raw, Exec): GORM builds no statement from a
// struct here, so it costs what the call costs, while the statements still
// pass GORM's callbacks (registerChecks: the caller's context, ViewOne's
// one query, the write transaction's marks) and its prepared-statement
// cache (openGORM).
//
// Statements are written with PostgreSQL's $1, $2... placeholders, which
// SQLite also reads as parameters numbered by their first appearance:
// written in order, $n is the n-th argument on both databases. GORM passes
// the arguments through as they are when the text holds no ? and no @
// (clause.Expr), which these statements never do.

// checkQuery makes the checks that run before each statement: the caller's
// context must not be done, and a ViewOne keeps its promise of one query
// and no writes.
func checkQuery(ctx context.Context, write bool) error {
	if ctx == nil {
		return nil
	}
	if caller, ok := ctx.Value(callerKey{}).(context.Context); ok && caller.Err() != nil {
		return caller.Err()
	}
	budget, ok := ctx.Value(oneQueryKey{}).(*atomic.Int32)
	switch {
	case !ok:
	case write:
		return errWriteInView
	case budget.Add(-1) < 0:
		return errSecondQuery
	}
	return nil
}

// query runs a statement that returns rows.
func (t *tx) query(query string, args ...any) (*sql.Rows, error) {
	return t.db.Raw(query, args...).Rows()
}

// queryRow runs a statement that returns at most one row and scans it into
// dest: sql.ErrNoRows when there is none. write tells a statement that
// changes the database (INSERT ... RETURNING), which GORM runs as a read
// (its Row callbacks): the write's checks and mark are made here.
func (t *tx) queryRow(write bool, query string, args []any, dest ...any) error {
	ctx := t.db.Statement.Context
	if write {
		if err := checkQuery(ctx, true); err != nil {
			return err
		}
		t.fencedVersion = nil // it may write the version the fence read
	}
	rows, err := t.query(query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if write {
		noteWrite(ctx, query)
	}
	return nil
}

// execOne runs a statement that changes one row: notFound(entity) when it
// changed none.
func (t *tx) execOne(entity, query string, args ...any) error {
	n, err := t.exec(query, args...)
	if err != nil {
		return translate(err, entity)
	}
	if n == 0 {
		return notFound(entity)
	}
	return nil
}

// exec runs a statement that changes rows and returns how many it changed.
// GORM's Raw callbacks check it and mark what it writes.
func (t *tx) exec(query string, args ...any) (int64, error) {
	t.fencedVersion = nil // it may write the version the fence read
	res := t.db.Exec(query, args...)
	return res.RowsAffected, res.Error
}

// refundQuery lets a ViewOne make one more query: a list whose page is
// past the end counts its rows with a second statement.
func (t *tx) refundQuery() {
	if budget, ok := t.db.Statement.Context.Value(oneQueryKey{}).(*atomic.Int32); ok {
		budget.Add(1)
	}
}

// sqlArgs numbers the arguments of a statement built piece by piece.
type sqlArgs []any

// add appends v and returns its placeholder.
func (a *sqlArgs) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// pagedQuery is a page of a list in one statement: the rows of
// SELECT cols FROM from WHERE where ORDER BY order, each with the number
// of rows that match, so that the list needs neither a second statement
// nor a transaction to keep the two consistent. The number is a scalar
// subquery, which both databases evaluate once per statement; a window
// count (count(*) OVER ()) would be the same number, but makes SQLite
// read and sort every matching row instead of the page's through the
// index. A page past the end has no row to carry the number: then it is
// counted with a second statement.
//
// where's placeholders are numbered from $1 (args), and appear twice in
// the statement: both databases bind each number once.
type pagedQuery struct {
	cols, from, where, order string
	args                     sqlArgs
}

func (q pagedQuery) run(t *tx, limit, offset int, entity string, scan func(*sql.Rows, *int64) error) (int, error) {
	where := ""
	if q.where != "" {
		where = " WHERE " + q.where
	}
	count := "SELECT count(*) FROM " + q.from + where
	args := append(sqlArgs(nil), q.args...)
	rows, err := t.query("SELECT "+q.cols+", ("+count+") FROM "+q.from+where+
		" ORDER BY "+q.order+" LIMIT "+args.add(limit)+" OFFSET "+args.add(offset), args...)
	if err != nil {
		return 0, translate(err, entity)
	}
	var total int64
	n := 0
	func() {
		defer rows.Close()
		for rows.Next() {
			if err = scan(rows, &total); err != nil {
				return
			}
			n++
		}
		err = rows.Err()
	}()
	if err != nil {
		return 0, translate(err, entity)
	}
	if n > 0 || offset == 0 {
		return int(total), nil
	}
	t.refundQuery()
	if err := t.queryRow(false, count, q.args, &total); err != nil {
		return 0, translate(err, entity)
	}
	return int(total), nil
}

// timeCols is the select list of a row's created_at and updated_at, read by
// scanning into timestamp. On SQLite they are read as the text they are
// stored as and parsed by timestamp as go-sqlite3 parses a DATETIME
// column, so that a time reads the same whatever type its column was
// declared with, and the same scanner serves both databases.
var timeCols = map[string]string{
	SQLite:   "CAST(created_at AS TEXT), CAST(updated_at AS TEXT)",
	Postgres: "created_at, updated_at",
}

// timestamp scans a timestamp column into *t: a time.Time as the driver
// gives it (PostgreSQL), or the text SQLite stores, in the layouts
// go-sqlite3 writes and reads (sqlite3.SQLiteTimestampFormats).
type timestamp struct{ t *time.Time }

func (ts timestamp) Scan(v any) error {
	switch v := v.(type) {
	case time.Time:
		*ts.t = v
	case string:
		*ts.t = parseSQLiteTime(v)
	case []byte:
		*ts.t = parseSQLiteTime(string(v))
	default:
		return fmt.Errorf("store: a timestamp column holds %T", v)
	}
	return nil
}

// parseSQLiteTime parses a timestamp as go-sqlite3 does for a DATETIME
// column, in UTC: by its list of layouts, the first of which is the one it
// writes a time.Time in; the zero time when none fits.
func parseSQLiteTime(s string) time.Time {
	s = strings.TrimSuffix(s, "Z")
	for _, layout := range sqlite3.SQLiteTimestampFormats {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// optTime scans a nullable timestamp column (read as timeCol gives it)
// into *t: nil for NULL.
type optTime struct{ t **time.Time }

func (o optTime) Scan(v any) error {
	if v == nil {
		*o.t = nil
		return nil
	}
	var t time.Time
	if err := (timestamp{&t}).Scan(v); err != nil {
		return err
	}
	*o.t = &t
	return nil
}

// timeCol is the select expression of a timestamp column for timestamp
// and optTime: on SQLite its stored text (see timeCols).
func (t *tx) timeCol(col string) string {
	if t.dialect == SQLite {
		return "CAST(" + col + " AS TEXT)"
	}
	return col
}
