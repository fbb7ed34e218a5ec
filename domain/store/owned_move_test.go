package store_test

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestAnOwnersOneStatementMoveWritesOnlyWhatItKnew: the owner's plain move
// in one statement (owned_move.go) writes only when the table is still at
// the version its game in memory holds and the lease is still the
// owner's; otherwise it writes nothing, and the move taken through the
// transaction answers as the locked table says. Each case checks that
// the one statement was sent (the path under test was taken), and that
// no move's row was written but the ones the case expects.
func TestAnOwnersOneStatementMoveWritesOnlyWhatItKnew(t *testing.T) {
	for _, c := range []struct {
		name string
		// behind changes the table behind the owner's back once its game
		// is in memory, and returns what the move is then to be answered
		// (a code, and the version a conflict names); it may run the move
		// itself (move) and return its error.
		behind   func(t *testing.T, o *ownedTable, move func() error) (code domain.Code, err error)
		current  int64 // for version_conflict: how far past the move's version the answer says the table is
		written  int   // moves' rows written by the move
		bumpedBy int64 // the table's version after, past the move's
	}{
		{"ATableAtItsVersionTakesTheMove", func(t *testing.T, o *ownedTable, move func() error) (domain.Code, error) {
			return "", move()
		}, 0, 1, 1},
		{"AVersionMovedBehindTheCacheIsAVersionConflict", func(t *testing.T, o *ownedTable, move func() error) (domain.Code, error) {
			execSQL(t, o.db.SQL(), `UPDATE tables SET version = version + 1 WHERE id = $1`, o.id)
			return domain.EVersionConflict, move()
		}, 1, 0, 1},
		{"AMoveMeetingAWriterThatMovesTheTableIsAVersionConflict", func(t *testing.T, o *ownedTable, move func() error) (domain.Code, error) {
			// A writer holds the table's row and moves the version: the
			// move's statement skips the held row (it waits for nothing:
			// a batch of moves would wait with it) and writes nothing;
			// the move through the transaction waits for the writer, and
			// its fence reads the version moved.
			tx, err := o.db.SQL().BeginTx(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = tx.Rollback() }()
			if _, err := tx.Exec(`UPDATE tables SET version = version + 1 WHERE id = $1`, o.id); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- move() }()
			waitForALockWait(t, o.db.SQL(), "SELECT t.version FROM table_leases") // InTx's fence
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			return domain.EVersionConflict, <-done
		}, 1, 0, 1},
		{"ADeposedOwnersMoveIsRefused", func(t *testing.T, o *ownedTable, move func() error) (domain.Code, error) {
			execSQL(t, o.db.SQL(), `UPDATE table_leases SET owner = 'b', epoch = epoch + 1 WHERE table_id = $1`, o.id)
			return domain.ETableOwnerMoved, move()
		}, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newOwnedTable(t)
			actor, st := o.state(t)
			if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil { // the game is now in memory
				t.Fatal(err)
			}
			actor, st = o.state(t)
			rows := movesOf(t, o.db, o.id)
			texts := oneStatementsSent(o)
			code, err := c.behind(t, o, func() error {
				_, err := o.move(o.ctx, actor, st, st.Table.Version)
				return err
			})
			if got := domain.ErrorCode(err); code == "" && err != nil || code != "" && got != code {
				t.Fatalf("the move: %v; want code %q", err, code)
			}
			var de *domain.Error
			if code == domain.EVersionConflict && (!errors.As(err, &de) || de.Current == nil || *de.Current != st.Table.Version+c.current) {
				t.Errorf("the conflict: %v; want the current version %d", err, st.Table.Version+c.current)
			}
			if n := texts(); n != 1 {
				t.Errorf("the one-statement move was sent %d times; want once", n)
			}
			if got := movesOf(t, o.db, o.id) - rows; got != c.written {
				t.Errorf("%d moves' rows written; want %d", got, c.written)
			}
			var version int64
			if err := o.db.SQL().QueryRow(`SELECT version FROM tables WHERE id = $1`, o.id).Scan(&version); err != nil {
				t.Fatal(err)
			}
			if version != st.Table.Version+c.bumpedBy {
				t.Errorf("the table is at version %d; want %d", version, st.Table.Version+c.bumpedBy)
			}
		})
	}
}

// TestAKeyLiveForAnotherRequestWritesNoOneStatementMove: a move sent
// under an Idempotency-Key that holds another request's live answer
// writes nothing in its one statement (the key's upsert keeps no row, and
// the move's writes read it), and the move through the transaction is
// refused idempotency_key_reused, nothing played.
func TestAKeyLiveForAnotherRequestWritesNoOneStatementMove(t *testing.T) {
	o := newOwnedTable(t)
	actor, st := o.state(t)
	if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil {
		t.Fatal(err)
	}
	actor, st = o.state(t)
	execSQL(t, o.db.SQL(), `INSERT INTO idempotency_keys (owner_id, idem_key, scope, fingerprint, answer, expires_at)
		VALUES ($1, 'k', 'tables/1', 'another request', '{}', now() + interval '1 hour')`, actor.UserID)
	rows, sent := movesOf(t, o.db, o.id), oneStatementsSent(o)
	_, err := o.keyedMove(o.ctx, actor, st, st.Table.Version, "k")
	if domain.ErrorCode(err) != domain.EIdempotencyKeyReused {
		t.Fatalf("the move under another request's key: %v; want idempotency_key_reused", err)
	}
	if n := sent(); n != 1 {
		t.Errorf("the one-statement move was sent %d times; want once", n)
	}
	if got := movesOf(t, o.db, o.id) - rows; got != 0 {
		t.Errorf("%d moves' rows written; want none", got)
	}
	if _, after := o.state(t); after.Table.Version != st.Table.Version {
		t.Errorf("the table is at version %d; want %d", after.Table.Version, st.Table.Version)
	}
}

// TestAMoveAfterAStaleOneStatementMoveIsPlayedAtTheNewVersion: once the
// owner's one statement found its game stale (the table moved behind
// it), the game is read again and the mover's move at the table's
// version is played.
func TestAMoveAfterAStaleOneStatementMoveIsPlayedAtTheNewVersion(t *testing.T) {
	o := newOwnedTable(t)
	actor, st := o.state(t)
	if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil {
		t.Fatal(err)
	}
	actor, st = o.state(t)
	execSQL(t, o.db.SQL(), `UPDATE tables SET version = version + 1 WHERE id = $1`, o.id)
	if _, err := o.move(o.ctx, actor, st, st.Table.Version); domain.ErrorCode(err) != domain.EVersionConflict {
		t.Fatalf("the stale move: %v; want version_conflict", err)
	}
	rows := movesOf(t, o.db, o.id)
	next, err := o.move(o.ctx, actor, st, st.Table.Version+1)
	if err != nil {
		t.Fatalf("the move at the new version: %v", err)
	}
	if next.Table.Version != st.Table.Version+2 || movesOf(t, o.db, o.id) != rows+1 {
		t.Errorf("version %d, %d rows written; want %d, 1", next.Table.Version, movesOf(t, o.db, o.id)-rows, st.Table.Version+2)
	}
}

// TestConcurrentOwnersMovesAtOneVersionPlayOnceInOrder: moves of one seat
// at one version sent together on the owner, its game in memory: one is
// played, the others are clean version conflicts naming the version it
// made, and the log holds one row at each index.
func TestConcurrentOwnersMovesAtOneVersionPlayOnceInOrder(t *testing.T) {
	o := newOwnedTable(t)
	actor, st := o.state(t)
	if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		actor, st = o.state(t)
		const n = 2
		played := 0
		for _, err := range o.movesTogether(actor, st, n) {
			var de *domain.Error
			switch {
			case err == nil:
				played++
			case !errors.As(err, &de) || de.Code != domain.EVersionConflict || de.Current == nil || *de.Current != st.Table.Version+1:
				t.Errorf("a move sent with another: %v; want it played or a version_conflict at %d", err, st.Table.Version+1)
			}
		}
		if played != 1 {
			t.Fatalf("%d of %d moves played; want one", played, n)
		}
	}
	var gaps int
	err := o.db.SQL().QueryRow(`SELECT count(*) FROM (SELECT deal, idx, version,
		lag(idx) OVER (PARTITION BY deal ORDER BY idx) AS prev_idx, lag(version) OVER (ORDER BY version) AS prev_version
		FROM table_moves WHERE table_id = $1) m
		WHERE prev_idx IS NOT NULL AND idx <> prev_idx + 1 OR prev_version IS NOT NULL AND version <= prev_version`, o.id).Scan(&gaps)
	if err != nil {
		t.Fatal(err)
	}
	if gaps != 0 {
		t.Errorf("%d moves out of order in the log", gaps)
	}
}

// TestAnOwnersOneStatementMoveReachesTheOthersInTheSecondsList: the
// owner's move in one statement sends no notice, as a fenced play
// transaction sends none at its commit; the owner's list (once a second)
// carries its version and what it wrote (the moves' rows, the table's
// play) to the other processes' followers and write marks.
func TestAnOwnersOneStatementMoveReachesTheOthersInTheSecondsList(t *testing.T) {
	url := storetest.PostgresURL(t)
	owner, other := storetest.Open(t, url), storetest.Open(t, url)
	o := newOwnedTableOn(t, owner)
	actor, st := o.state(t)
	if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil {
		t.Fatal(err)
	}
	actor, st = o.state(t)
	h, _ := follow(t, other)
	before := mark(t, other, "table_moves")
	sent := oneStatementsSent(o)
	next, err := o.move(o.ctx, actor, st, st.Table.Version)
	if err != nil {
		t.Fatal(err)
	}
	if n := sent(); n != 1 {
		t.Fatalf("the one-statement move was sent %d times; want once", n)
	}
	follow(t, owner) // the owner follows the tables, as serve does: its list goes every second
	if !h.within(o.id, next.Table.Version, 5*time.Second) {
		t.Errorf("version %d not heard 5 s after the owner began its lists", next.Table.Version)
	}
	if !markMoves(other, "table_moves", before, 5*time.Second) {
		t.Error("the other's mark of table_moves did not move 5 s after the owner began its lists")
	}
}

// TestAnOwnersMovesInOneStatementAnswerWhatIsStored: the owner's moves,
// most of them in one statement (the others, every PositionEvery moves,
// through InTx), each answer what a process with nothing in memory reads
// of the rows: the statement writes the table's columns and the move's
// row as the transaction would.
func TestAnOwnersMovesInOneStatementAnswerWhatIsStored(t *testing.T) {
	url := storetest.PostgresURL(t)
	owner, other := storetest.Open(t, url), storetest.Open(t, url)
	o := newOwnedTableOn(t, owner)
	sent := oneStatementsSent(o)
	actor, st := o.state(t)
	const moves = 2*domain.PositionEvery + 3
	for i := range moves {
		got, err := o.move(o.ctx, actor, st, st.Table.Version)
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		cold := domain.NewServices(other, domain.Config{PasswordParams: domain.TestPasswordParams})
		want, err := cold.Tables.State(t.Context(), actor, o.id, "")
		if err != nil {
			t.Fatal(err)
		}
		got.Presence, want.Presence = nil, nil
		got.TurnLeft, want.TurnLeft, got.MatchLeft, want.MatchLeft = nil, nil, nil, nil // read at another instant
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("move %d: the mover's answer differs from the rows':\n got %+v\nwant %+v", i, got, want)
		}
		if got.View.Turn == got.Seat {
			st = got
		} else {
			actor, st = o.state(t)
		}
	}
	if n := sent(); n < moves-4 {
		t.Errorf("%d of %d moves in one statement; want all but those that stored the position", n, moves)
	}
}

// oneStatementsSent counts, from now on, the one-statement moves db sent
// PostgreSQL.
func oneStatementsSent(o *ownedTable) func() int {
	count := func() int {
		n := 0
		for _, s := range o.db.StatementTexts() {
			if strings.HasPrefix(s.SQL, "WITH f AS") {
				n += int(s.Count)
			}
		}
		return n
	}
	before := count()
	return func() int { return count() - before }
}

func execSQL(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatal(err)
	}
}

// waitForALockWait returns once a backend whose statement begins with
// prefix waits for a lock (a condition, not a time: the test's deadline
// bounds it).
func waitForALockWait(t *testing.T, db *sql.DB, prefix string) {
	t.Helper()
	for {
		var n int
		err := db.QueryRowContext(t.Context(), `SELECT count(*) FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND starts_with(query, $1)`, prefix).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestAnOwnersOneStatementMoveOnceSentRunsToItsEnd: the request of a move
// sent as one statement may end while the statement waits (its client
// gone, the process that forwarded it killed); the statement is not cut
// short: the move is written and this process learns the version it wrote,
// as a retry under the move's key would be answered (issue 30's failover
// run: a commit the process did not learn of left its polls waiting on the
// version before it).
func TestAnOwnersOneStatementMoveOnceSentRunsToItsEnd(t *testing.T) {
	o := newOwnedTable(t)
	actor, st := o.state(t)
	sqlDB := o.db.SQL()
	lock, err := sqlDB.BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback()
	// The lease's row, as a takeover under way locks it (the table's row
	// locked by another is skipped: the move would go through InTx).
	if _, err := lock.ExecContext(t.Context(), "SELECT 1 FROM table_leases WHERE table_id = $1 FOR UPDATE", o.id); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(o.ctx)
	type moved struct {
		st  domain.TableState
		err error
	}
	done := make(chan moved, 1)
	go func() {
		next, err := o.move(ctx, actor, st, st.Table.Version)
		done <- moved{next, err}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var waiting int
		if err := sqlDB.QueryRowContext(t.Context(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'WITH f AS%'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the move's statement never waited for the lease's row")
		}
	}
	cancel()                           // the request ends while its statement waits
	time.Sleep(200 * time.Millisecond) // time for a cancellation to reach PostgreSQL, were it sent
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	m := <-done
	if m.err != nil || m.st.Table.Version != st.Table.Version+1 {
		t.Fatalf("the move whose request ended while it ran: version %d, %v; want it played at %d", m.st.Table.Version, m.err, st.Table.Version+1)
	}
	_, after := o.state(t)
	if after.Table.Version != st.Table.Version+1 {
		t.Errorf("the table after: version %d, want %d", after.Table.Version, st.Table.Version+1)
	}
}

// TestAnOwnersMoveDoesNotWaitForTheMainPool: the owners' one-statement
// moves are sent on their own connection (move_batches.go), so a move is
// written while every connection of the main pool is held (a hundred
// matches ending within a second held them all, and the moves of the
// tables still playing queued behind their transactions).
func TestAnOwnersMoveDoesNotWaitForTheMainPool(t *testing.T) {
	o := newOwnedTable(t)
	actor, st := o.state(t)
	if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil { // the game is now in memory
		t.Fatal(err)
	}
	actor, st = o.state(t)
	pool := o.db.SQL()
	held := pool.Stats().MaxOpenConnections
	if held == 0 {
		t.Fatal("the main pool has no limit: nothing to exhaust")
	}
	for range held {
		c, err := pool.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	sent := oneStatementsSent(o)
	ctx, cancel := context.WithTimeout(o.ctx, 5*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := o.move(ctx, actor, st, st.Table.Version)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the move with the main pool's %d connections held: %v", held, err)
		}
	case <-time.After(3 * time.Second):
		t.Fatalf("the move waited over 3 s with the main pool's %d connections held", held)
	}
	if n := sent(); n != 1 {
		t.Errorf("%d one-statement moves sent; want the move sent in one statement", n)
	}
}
