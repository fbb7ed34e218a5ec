package store

import (
	"context"
	"database/sql"
	"strconv"
	"sync/atomic"

	"gorm.io/gorm"
)

// Plain SQL for the hot reads and writes of the request path. GORM finds a
// struct's fields by reflection and builds the statement's text on every
// call, which cost as much again as the query on SQLite; a repository on
// the request path runs its statement here instead, on the connection or
// transaction GORM would have used (so the kept prepared statements of a
// SQLite stmtPool, and GORM's transaction, are the same), after the checks
// GORM's callbacks make (checkQuery).
//
// Statements are written with PostgreSQL's $1, $2... placeholders, which
// SQLite also reads as parameters numbered by their first appearance:
// written in order, $n is the n-th argument on both databases.

// checkQuery makes the checks that run before each statement: the caller's
// context must not be done, and a ViewOne keeps its promise of one query
// and no writes.
func checkQuery(ctx context.Context, write bool) error {
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

// conn is the connection pool or transaction of a GORM handle, and the
// context its statements run with.
func conn(g *gorm.DB) (gorm.ConnPool, context.Context) {
	ctx := g.Statement.Context
	if ctx == nil {
		ctx = context.Background()
	}
	return g.Statement.ConnPool, ctx
}

// query runs a statement that returns rows.
func (t *tx) query(query string, args ...any) (*sql.Rows, error) {
	pool, ctx := conn(t.db)
	if err := checkQuery(ctx, false); err != nil {
		return nil, err
	}
	return pool.QueryContext(ctx, query, args...)
}

// queryRow runs a statement that returns at most one row and scans it into
// dest: sql.ErrNoRows when there is none. write tells a statement that
// changes the database (INSERT ... RETURNING).
func (t *tx) queryRow(write bool, query string, args []any, dest ...any) error {
	pool, ctx := conn(t.db)
	if err := checkQuery(ctx, write); err != nil {
		return err
	}
	return pool.QueryRowContext(ctx, query, args...).Scan(dest...)
}

// refundQuery lets a ViewOne make one more query: a list whose page is
// past the end counts its rows with a second statement.
func (t *tx) refundQuery() {
	_, ctx := conn(t.db)
	if budget, ok := ctx.Value(oneQueryKey{}).(*atomic.Int32); ok {
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
