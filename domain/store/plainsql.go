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

// conn is the pool or transaction the tx's statements run on, and their
// context: a ViewOne's, or its GORM handle's.
func (t *tx) conn() (gorm.ConnPool, context.Context) {
	if t.pool != nil {
		return t.pool, t.ctx
	}
	return conn(t.db)
}

// query runs a statement that returns rows.
func (t *tx) query(query string, args ...any) (*sql.Rows, error) {
	pool, ctx := t.conn()
	if err := checkQuery(ctx, false); err != nil {
		return nil, err
	}
	return pool.QueryContext(ctx, query, args...)
}

// queryRow runs a statement that returns at most one row and scans it into
// dest: sql.ErrNoRows when there is none. write tells a statement that
// changes the database (INSERT ... RETURNING).
func (t *tx) queryRow(write bool, query string, args []any, dest ...any) error {
	pool, ctx := t.conn()
	if write {
		var err error
		if pool, ctx, err = t.writeConn(query); err != nil {
			return err
		}
	} else if err := checkQuery(ctx, false); err != nil {
		return err
	}
	return pool.QueryRowContext(ctx, query, args...).Scan(dest...)
}

// execOne runs a statement that changes one row: notFound(entity) when it
// changed none.
func (t *tx) execOne(entity, query string, args ...any) error {
	pool, ctx, err := t.writeConn(query)
	if err != nil {
		return err
	}
	res, err := pool.ExecContext(ctx, query, args...)
	if err != nil {
		return translate(err, entity)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return orNotFound(err, entity)
	}
	return nil
}

// exec runs a statement that changes rows and returns how many it changed.
func (t *tx) exec(query string, args ...any) (int64, error) {
	pool, ctx, err := t.writeConn(query)
	if err != nil {
		return 0, err
	}
	res, err := pool.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// writeConn is conn for a statement that writes: the checks before it,
// and the table it writes noted in the write transaction's marks
// (write_marks.go). Every plain-SQL write goes through it.
func (t *tx) writeConn(query string) (gorm.ConnPool, context.Context, error) {
	pool, ctx := t.conn()
	if err := checkQuery(ctx, true); err != nil {
		return nil, nil, err
	}
	noteWrite(ctx, query)
	return pool, ctx, nil
}

// orNotFound is err translated, or notFound(entity) when err is nil.
func orNotFound(err error, entity string) error {
	if err != nil {
		return translate(err, entity)
	}
	return notFound(entity)
}

// refundQuery lets a ViewOne make one more query: a list whose page is
// past the end counts its rows with a second statement.
func (t *tx) refundQuery() {
	_, ctx := t.conn()
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

// stamps is the select list of a row's created_at and updated_at, read by
// scanning into timestamp. On SQLite they are read as the text they are
// stored as and parsed by timestamp: go-sqlite3 would parse them itself,
// trying time.Parse with one layout after another, which cost a third of
// reading a row.
var stamps = map[string]string{
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
// column, in UTC: the layout it writes ("2006-01-02
// 15:04:05.999999999-07:00") by hand, any other by its list of layouts; the
// zero time when none fits.
func parseSQLiteTime(s string) time.Time {
	if t, ok := parseStoredTime(s); ok {
		return t
	}
	s = strings.TrimSuffix(s, "Z")
	for _, layout := range sqlite3.SQLiteTimestampFormats {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// parseStoredTime parses "2006-01-02 15:04:05[.fraction]±07:00" (the
// layout go-sqlite3 writes a time.Time in), or reports false. It is on the
// path of every row read (two per player), so it reads the digits at their
// fixed places and counts the seconds since 1970 itself, instead of having
// time.Date and a check of the day (31 April) each work out the calendar
// again.
func parseStoredTime(s string) (time.Time, bool) {
	if len(s) < 25 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := fixedDigits(s[0:4])
	month, ok2 := fixedDigits(s[5:7])
	day, ok3 := fixedDigits(s[8:10])
	hour, ok4 := fixedDigits(s[11:13])
	minute, ok5 := fixedDigits(s[14:16])
	sec, ok6 := fixedDigits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 ||
		day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	rest, nsec := s[19:], int64(0)
	if rest[0] == '.' {
		end := 1
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		digits := rest[1:end]
		if len(digits) == 0 || len(digits) > 9 {
			return time.Time{}, false
		}
		n, _ := fixedDigits(digits)
		nsec = int64(n) * pow10[9-len(digits)]
		rest = rest[end:]
	}
	if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' {
		return time.Time{}, false
	}
	zh, ok1 := fixedDigits(rest[1:3])
	zm, ok2 := fixedDigits(rest[4:6])
	if !ok1 || !ok2 || zh > 23 || zm > 59 {
		return time.Time{}, false
	}
	offset := int64(zh*3600 + zm*60)
	if rest[0] == '-' {
		offset = -offset
	}
	unix := daysSinceEpoch(year, month, day)*86400 + int64(hour*3600+minute*60+sec) - offset
	return time.Unix(unix, nsec).UTC(), true
}

// fixedDigits is the number s writes in decimal digits only (no sign).
func fixedDigits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int(c)
	}
	return n, true
}

var pow10 = [10]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// daysIn is the number of days of a month of the proleptic Gregorian
// calendar, which time uses.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysSinceEpoch is the number of days from 1970-01-01 to a date
// (negative before it), by Howard Hinnant's days_from_civil: the year is
// counted from March, so that the leap day ends it.
func daysSinceEpoch(year, month, day int) int64 {
	y := int64(year)
	if month <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era-- // floor division
	}
	yoe := y - era*400                     // [0, 399]
	mp := (int64(month) + 9) % 12          // March = 0
	doy := (153*mp+2)/5 + int64(day) - 1   // [0, 365]
	doe := yoe*365 + yoe/4 - yoe/100 + doy // [0, 146096]
	return era*146097 + doe - 719468
}

// optStamp scans a nullable timestamp column (read as stampCol gives it)
// into *t: nil for NULL.
type optStamp struct{ t **time.Time }

func (o optStamp) Scan(v any) error {
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

// stampCol is the select expression of a timestamp column for timestamp
// and optStamp: on SQLite its stored text (see stamps).
func (t *tx) stampCol(col string) string {
	if t.dialect == SQLite {
		return "CAST(" + col + " AS TEXT)"
	}
	return col
}
