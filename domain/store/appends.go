package store

import (
	"context"
	"errors"
	"strings"

	"gorm.io/gorm"
)

// A move's row and its table's new version in one statement on PostgreSQL.
//
// Each statement of a PostgreSQL transaction is a round trip, and each
// costs CPU on both sides (pgx and GORM in the server; the protocol's
// messages, a plan's execution, the backend's wake-ups in PostgreSQL):
// a move was six (BEGIN, the fence, the version lock, the move's INSERT,
// the table's UPDATE, COMMIT). In a PostgreSQL write transaction
// (InTx), AppendMove keeps the move's row here instead of sending it; the
// table's UPDATE that follows (every move ends with one) sends the rows
// with it, as a data-modifying WITH:
//
//	WITH m AS (INSERT INTO table_moves (...) VALUES (...), (...)) UPDATE tables SET ...
//
// Any other statement first sends the rows kept (flushAppends, a GORM
// callback before every statement), so that every statement of the
// transaction sees them, as it saw them when each was sent at once; and
// InTx sends what is left before its commit. A row that fails (a key
// already taken) fails the statement that carries it, and so the
// transaction, as it would have failed its own.
//
// On SQLite (one process, statements in-process) AppendMove inserts at
// once.

// moveColumns are table_moves' columns an append writes, in its
// arguments' order.
const moveColumns = `INSERT INTO table_moves (table_id, deal, idx, seat, "move", "auto", "at", version, taken, played_by) VALUES `

// pendingAppends are the moves' rows a transaction appended and has not
// sent yet, each one row's ten arguments, the first its table.
type pendingAppends struct {
	rows [][]any
}

type appendsKey struct{}

// withAppends is ctx carrying p, for flushAppends.
func withAppends(ctx context.Context, p *pendingAppends) context.Context {
	return context.WithValue(ctx, appendsKey{}, p)
}

func (p *pendingAppends) add(row []any) { p.rows = append(p.rows, row) }

// insert takes every row kept: an INSERT of them, its placeholders
// numbered after args' (which it extends); "" when none is kept.
func (p *pendingAppends) insert(args *sqlArgs) string {
	return p.insertOf(args, func([]any) bool { return true })
}

// insertOf takes the rows kept that keep says, as insert does.
func (p *pendingAppends) insertOf(args *sqlArgs, keep func([]any) bool) string {
	if p == nil || len(p.rows) == 0 {
		return ""
	}
	var b strings.Builder
	rest := p.rows[:0]
	for _, row := range p.rows {
		if !keep(row) {
			rest = append(rest, row)
			continue
		}
		if b.Len() == 0 {
			b.WriteString(moveColumns)
		} else {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for i, v := range row {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(args.add(v))
		}
		b.WriteByte(')')
	}
	clear(p.rows[len(rest):])
	p.rows = rest
	return b.String()
}

// withMoves is the WITH that sends, with the statement it precedes, the
// rows kept of table; "" when none is kept. args holds its arguments, the
// statement's follow.
func (p *pendingAppends) withMoves(args *sqlArgs, table int64) string {
	ins := p.insertOf(args, func(row []any) bool { return row[0] == table })
	if ins == "" {
		return ""
	}
	return "WITH appended AS (" + ins + ") "
}

// flushAppends is the GORM callback that sends, before any statement of
// a transaction, the moves' rows it kept: that statement may read them.
// The INSERT goes to the transaction's connection directly (not through
// GORM, whose callbacks would come here again), its write noted as GORM's
// callback notes any other (write_marks.go).
func flushAppends(g *gorm.DB) {
	ctx := g.Statement.Context
	if ctx == nil || g.Error != nil {
		return
	}
	p, ok := ctx.Value(appendsKey{}).(*pendingAppends)
	if !ok || len(p.rows) == 0 {
		return
	}
	var args sqlArgs
	q := p.insert(&args)
	if _, err := g.Statement.ConnPool.ExecContext(ctx, q, args...); err != nil {
		_ = g.AddError(translate(err, "move"))
		return
	}
	noteWrite(ctx, q)
}

// registerAppends registers flushAppends before each statement, after the
// checks (registerChecks): on PostgreSQL only, where AppendMove keeps rows.
func registerAppends(g *gorm.DB) error {
	cb := g.Callback()
	return errors.Join(
		cb.Query().Before("gorm:query").After("burraco:before").Register("burraco:appends", flushAppends),
		cb.Row().Before("gorm:row").After("burraco:before").Register("burraco:appends", flushAppends),
		cb.Raw().Before("gorm:raw").After("burraco:before").Register("burraco:appends", flushAppends),
		cb.Create().Before("gorm:create").After("burraco:before").Register("burraco:appends", flushAppends),
		cb.Update().Before("gorm:update").After("burraco:before").Register("burraco:appends", flushAppends),
		cb.Delete().Before("gorm:delete").After("burraco:before").Register("burraco:appends", flushAppends),
	)
}

// flushAppends sends the rows t kept, before its commit.
func (t *tx) flushAppends() error {
	var args sqlArgs
	q := t.appends.insert(&args)
	if q == "" {
		return nil
	}
	_, err := t.exec(q, args...)
	return translate(err, "move")
}

// appendArgs are a move's row as AppendMove writes it.
func appendArgs(tableID int64, deal, idx, seat int, move string, auto bool, at any, version int64, taken, by string) []any {
	return []any{tableID, deal, idx, seat, move, auto, at, version, taken, by}
}
