package store

import (
	"context"
	"strings"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
)

// An owner's plain move in one statement on PostgreSQL (docs/SCALE-OUT.md
// §13 step 4): no BEGIN, no COMMIT, no fence of its own. A fenced move in a
// transaction is four round trips (BEGIN, the fence with the version lock,
// the move's row with the table's update, COMMIT), each costing the server
// and the backend CPU (docs/performance.md). The owner that holds the
// table's game in memory at version v already knows everything the fence
// and the lock would read; what it must not do is write when that
// knowledge is stale. So the one statement carries the fence and the
// version check as its first expression, and its writes take their rows
// from it:
//
//	WITH f AS (SELECT t.id FROM table_leases l JOIN tables t ON t.id = l.table_id
//	           WHERE l.table_id = $1 AND l.owner = $2 AND l.epoch = $3 AND t.version = $4
//	           FOR UPDATE OF t SKIP LOCKED FOR KEY SHARE OF l),
//	     appended AS (INSERT INTO table_moves (...) SELECT ... FROM f)
//	UPDATE tables SET ... FROM f WHERE tables.id = f.id
//
// with, every domain.PositionEvery moves, the deal's position stored by
// one more (positioned AS (UPDATE table_deals … FROM f …)), and a keyed
// move's answer by another (kept, below).
//
// The lease is locked FOR KEY SHARE, as InTx's fence locks it (leases.go,
// Acquire): a takeover, which sets the lease's key, waits for the moves
// under way; a renewal, which sets only the expiry, does not (it did when
// this lock was FOR SHARE, and a renewal and a batch of moves,
// move_batches.go, each holding a lease the other wanted, deadlocked).
//
// The table's row is locked SKIP LOCKED: a row another transaction holds
// (a referee's act, a clock's check, a tournament's command on that
// table) leaves f empty at once, and the move goes through InTx, which
// waits for it. Waiting here would hold the whole batch the move is in,
// and every move of the process queued behind it, for as long as that
// transaction lasts.
//
// One statement is its own transaction (autocommit), or one of a batch
// written in one (move_batches.go): both writes or none. f finds no row
// when the lease is no longer the owner's at that epoch, or when the
// table is no longer at v: another writer moved it (a tournament's
// command from another process, a purge), or another move of this
// process committed first; or when the row is locked (above). A row
// changed and committed since the statement began is read again at its
// lock (READ COMMITTED's re-check): a version moved past v leaves f
// empty; a lease being taken over is waited for, and then fails the
// fence. Empty f: nothing is written, and the caller plays the move again
// through InTx, whose fence and version lock give the clean answers
// (table_owner_moved, version_conflict, or the move played at the
// table's version).
//
// A fenced play write sends no notice at its commit (write_marks_owned.go,
// table_feed_owned.go): the version and the records written go in the
// second's list, as InTx does for a fenced transaction that wrote only
// play. So the one statement is the whole of the move's round trips.

var _ domain.OwnedMoves = (*DB)(nil)

// OneStatementMove implements domain.OwnedMoves: PostgreSQL, and ctx
// carries the owner's fence of table id.
func (db *DB) OneStatementMove(ctx context.Context, id int64) bool {
	f, ok := lease.FenceFrom(ctx)
	return ok && f.Table == id && db.dialect == Postgres && db.tables != nil
}

// CachedTable implements domain.OwnedMoves: TableRepo.Cached, with no
// transaction (it makes no query).
func (db *DB) CachedTable(id, version int64) (domain.Table, bool) {
	if db.tables == nil {
		return domain.Table{}, false
	}
	return tableRepo{&tx{dialect: db.dialect, tables: db.tables}}.Cached(id, version)
}

// sentWriteTimeout bounds a write once sent whatever becomes of its
// request: a one-statement move, a transaction's COMMIT (InTx). It is for
// a database that does not answer; a request's own end does not cut them
// (see AppendMoveIfAt and InTx for why).
const sentWriteTimeout = 30 * time.Second

// ownedMoveFence is the statement's first expression: the table's row,
// locked, when the lease is the fence's and the table at the version
// given (its four placeholders: table, owner, epoch, version).
const ownedMoveFence = `WITH f AS (SELECT t.id FROM table_leases l JOIN tables t ON t.id = l.table_id
	WHERE l.table_id = $1 AND l.owner = $2 AND l.epoch = $3 AND t.version = $4 FOR UPDATE OF t SKIP LOCKED FOR KEY SHARE OF l), `

// ownedMoveInsert is the move's row taken from f (an INSERT … SELECT
// learns no types from its columns: each placeholder says its own), and
// from the key's kept row when the move carries one.
const ownedMoveInsert = `INSERT INTO table_moves (table_id, deal, idx, seat, "move", "auto", "at", version, taken, played_by)
	SELECT f.id, $5::integer, $6::integer, $7::integer, $8::text, $9::boolean, $10::timestamptz, $11::bigint, $12::text, $13::text FROM `

// AppendMoveIfAt implements domain.OwnedMoves. A move sent with an
// Idempotency-Key carries its answer in the same statement
// (upsertAnswer from f, as kept): a live key keeps no row, and the
// move's writes, which read kept, write nothing either.
func (db *DB) AppendMoveIfAt(ctx context.Context, o domain.OwnedMove) (bool, error) {
	m, t := o.Move, o.Table
	f, ok := lease.FenceFrom(ctx)
	if !ok || f.Table != t.ID || m.TableID != t.ID || db.dialect != Postgres {
		return false, nil
	}
	if err := ctx.Err(); err != nil {
		return false, err // a request that has given up writes nothing
	}
	by := m.By
	if by == "" {
		by = domain.ByPlayer
	}
	args := sqlArgs{f.Table, f.Owner, f.Epoch, o.At, m.Deal, m.Index, m.Seat, string(m.Move), m.Auto, utc(m.At), m.Version,
		string(m.Taken), string(by)}
	row := tableRowOf(t)
	prev, ok := db.tables.get(t.ID, o.At) // the columns the move changed, as tableRepo.Update writes them
	if !ok {
		return false, nil // without the row the move changed, every column would be written: not play alone
	}
	from, kept, insert := "f", "", ownedMoveInsert+"f"
	if o.Answer != nil {
		kept = upsertAnswer(&args, *o.Answer, o.Now, "f")
		from, insert = "f, kept", ownedMoveInsert+"f, kept"
	}
	var set []string
	for _, c := range tableColumns(row) {
		if c.name == "version" || !c.same(prev) {
			set = append(set, c.name+" = "+args.add(c.value))
		}
	}
	update := "UPDATE tables SET " + strings.Join(set, ", ") + " FROM " + from + " WHERE tables.id = f.id"
	records := append(writtenRecords(insert), writtenRecords(update)...)
	if kept != "" {
		records = append(records, writtenRecords(kept)...)
	}
	position := ""
	if o.Deal != nil { // the deal's position, due every PositionEvery moves
		d := dealRowOf(*o.Deal)
		position = "UPDATE table_deals SET " + dealPositionSet(&args, d) +
			" FROM " + from + " WHERE table_deals.table_id = f.id AND table_deals.number = " + args.add(d.Number)
		records = append(records, writtenRecords(position)...)
	}
	if !onlyPlay(records) {
		// A status, a seat count…: the other processes' kept reads would
		// need a notice at the commit. Not a plain move: InTx's path.
		return false, nil
	}
	// The write marks: noted before the statement (in flight while it
	// runs), ended after it, as InTx's are around its transaction.
	writes := db.marks.begin()
	defer writes.end()
	writes.note(insert)
	writes.note(update)
	q := ownedMoveFence
	if kept != "" {
		writes.note(kept)
		q += "kept AS (" + kept + " RETURNING 1), "
	}
	if position != "" {
		writes.note(position)
		q += "positioned AS (" + position + "), "
	}
	// Sent, the statement runs to its end whatever becomes of the request
	// (a client gone, a forwarding process killed): cut short by the
	// request's context, it could commit while the call returns "context
	// canceled", and this process would not learn the version it wrote
	// (its game, its tables' cache, its polls' notifier), while a retry
	// under the move's key would be answered from the stored answer.
	runCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sentWriteTimeout)
	defer cancel()
	n, err := db.moves.exec(runCtx, q+"appended AS ("+insert+") "+update, args)
	if err != nil {
		return false, translate(err, "move")
	}
	if n == 0 {
		return false, nil
	}
	// Committed: what InTx does after a fenced play transaction's commit
	// (tx.done, then the second's lists).
	db.tables.put(row)
	if seats, ok := db.tables.seatsAt(t.ID, o.At); ok { // a plain move changes no seat
		db.tables.putSeats(tableSeats{id: t.ID, version: row.Version, seats: seats})
	}
	db.owned.add([]tableVersion{{t.ID, t.Version}})
	db.ownedWrites.add(records)
	return true, nil
}
