package store

import (
	"context"
	"database/sql"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Checkpoints. In WAL mode SQLite copies the log back into the database
// file (a checkpoint, with an fsync) by default in the COMMIT that grows the
// log past 1000 pages: one write in a few hundred then takes milliseconds
// to tens of milliseconds, and every write queued behind it waits as long.
// So the write connection checkpoints only as a backstop (past
// backstopCheckpointPages), and a goroutine with a connection of its own
// runs passive checkpoints, which never wait for a writer nor make one
// wait, checkpointDelay after writes.
//
// Not too often: each checkpoint syncs the log and the database file to
// the disk, and while the log's sync is under way a commit's write to the
// log may wait for it (the kernel writing back the page the commit
// appends to). On a virtual disk whose cache flushes now and then take
// hundreds of milliseconds, checkpoints 100 ms after writes made the one
// writer, and every move queued for it, wait 270-640 ms in 4 runs of 9
// (1,000 tables at human pace, 2026-11-28); a second after writes, the
// slowest commit of 3 runs took 66 ms (docs/performance.md).
const (
	checkpointDelay         = time.Second
	backstopCheckpointPages = 10000 // about 40 MB of log
)

// Restarting the log. A passive checkpoint copies the log back while the
// writer goes on appending to it, so under steady writes it never catches
// up, and the log restarts from its start only when a checkpoint has
// copied all of it: at a thousand tables' human pace (12 MB of log a
// second) it grew to 340-580 MB between restarts, every commit past
// backstopCheckpointPages ran a checkpoint of its own, and a commit that
// overwrote the log's old pages, which the kernel had meanwhile dropped
// from its cache, read them back from the disk first (a frame does not
// fill whole disk blocks), queued behind the checkpoint's writes: the one
// writer, and every move behind it, waited up to 1.5 s (2026-11-29: the
// writer's pwrite in ext4_block_write_begin while one 4 KB read waited
// behind 32 writes in flight). So when a passive checkpoint finds more
// than restartLogPages in the log, the checkpointer takes the writers'
// turn and runs a RESTART checkpoint: it copies what the passive one
// could not (the writes made meanwhile) and waits, at most restartWait,
// for the readers of older snapshots to end, after which the next write
// starts the log again from its start, over pages written moments ago.
// A second passive checkpoint just before it copies and syncs most of
// what was written during the first, outside the turn: at bots' pace (100
// tables, a restart every second) the writers waited 14-50 ms and up to
// 323 ms for the RESTART alone, 1-24 ms after a second passive one; the
// log stays under 40 MB.
var restartLogPages = newAtomicInt64(4096) // about 16 MB of log (tests change it)

func newAtomicInt64(n int64) *atomic.Int64 {
	var a atomic.Int64
	a.Store(n)
	return &a
}

const restartWait = 50 * time.Millisecond

// restartBackoff is how long the checkpointer runs no RESTART checkpoint
// after one that a reader kept from completing: a long read (a backup's
// VACUUM INTO, an export) would otherwise hold the writers restartWait at
// every checkpoint while it lasts. A variable for the tests.
var restartBackoff = 10 * time.Second

// sqliteWriterDriver is go-sqlite3 with the write connection's
// wal_autocheckpoint and temp_store, which no DSN parameter sets.
//
// temp_store = MEMORY keeps the statement journal in memory. The writers
// of one batch each write under a savepoint of one transaction (batch.go),
// so every page a batch changes is first copied to the statement journal;
// SQLite spills that journal past 64 KiB to a temporary file (deleted on
// close) unless temp storage is in memory. Each batch then created, wrote
// and closed a file, and on a filesystem mounted with discard the close
// waited for the device to discard its blocks: behind a checkpoint's
// fsync that took hundreds of milliseconds, during which the one writer,
// and every move queued for it, waited (2026-11-28: 1,000 tables at human
// pace, p99 move 205-338 ms; see docs/performance.md). The journal holds
// one batch's pages at most: a few megabytes while the batch commits.
const sqliteWriterDriver = "sqlite3_burraco_writer"

var registerWriterDriver = sync.OnceFunc(func() {
	sql.Register(sqliteWriterDriver, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec("PRAGMA wal_autocheckpoint = 10000; PRAGMA temp_store = MEMORY", nil)
			return err
		},
	})
})

// checkpointer runs passive checkpoints in the background, and holds the
// read pin (below) between them.
//
// The read pin. In WAL mode each read transaction takes a shared lock on a
// read mark of the log and releases it at its end; SQLite asks the kernel
// for the lock (fcntl) only when no other connection of the process holds
// it, so a lone reader pays two system calls per statement (a third of the
// cost of a point read when it was measured, 2026-11-23). Once a checkpoint has copied the
// whole log back into the database, every reader takes the same lock (read
// mark 0: the database file alone), and the checkpointer's connection holds
// it, in a read transaction left open: the readers' locks then cost no
// system call.
//
// The pin is taken only then, and never held over a checkpoint: a
// checkpoint that has pages to copy back waits for no reader on mark 0, so
// the pin is released before each checkpoint and taken again only when
// the checkpoint copied everything. Mark 0 does not stop a writer from
// restarting the log from its start. Another process's checkpoint finds
// this process's pin in its way for at most pinRefreshEvery: each refresh
// releases the pin, checkpoints (for whoever wrote) and takes it again. A
// pin that fails is dropped until the next refresh: it only saves time.
type checkpointer struct {
	db *sql.DB
	// turn runs fn while this process's writers wait (batch.go), for a
	// RESTART checkpoint, and reports whether it did; nil: none is run.
	turn       func(fn func()) bool
	kick       chan struct{} // a write committed
	done       chan struct{} // closed by close
	stopped    chan struct{} // closed when run returns
	pinned     atomic.Bool   // the connection holds the read pin
	pins       atomic.Int64  // pins taken (tests)
	restarts   atomic.Int64  // RESTART checkpoints run (tests)
	busyMillis int           // the connection's busy timeout, in ms
	path       string        // the database file's
	readBuf    []byte        // readLogAhead's
	// noRestartUntil: a RESTART found a reader in its way (restartBackoff).
	noRestartUntil time.Time
	// restartedLog is the log's length the last RESTART checkpoint left:
	// seen again, nothing was written since (the next write restarts it).
	restartedLog int
}

// pinRefreshEvery is how often the checkpointer checkpoints and takes the
// read pin again when this process writes nothing (another process may).
const pinRefreshEvery = time.Second

func newCheckpointer(path, dsn string, busy time.Duration, turn func(fn func()) bool) (*checkpointer, error) {
	db, err := sql.Open(sqliteWriterDriver, dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{}),
		turn: turn, busyMillis: int(busy / time.Millisecond), path: path}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, err
	}
	go c.run(conn)
	return c, nil
}

func (c *checkpointer) run(conn *sql.Conn) {
	defer close(c.stopped)
	defer conn.Close()
	defer c.unpin(conn)
	// A checkpoint copies pages from the log without the page cache, and
	// the pin reads one page: 64 pages of cache are plenty.
	_, _ = conn.ExecContext(context.Background(), "PRAGMA cache_size = 64")
	c.refresh(conn)
	tick := time.NewTicker(pinRefreshEvery)
	defer tick.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-tick.C:
		case <-c.kick:
			select {
			case <-c.done:
				return
			case <-time.After(checkpointDelay): // let the writes of this moment gather
			}
		}
		c.refresh(conn)
	}
}

// refresh releases the read pin, runs a passive checkpoint, and takes the
// pin again if the checkpoint copied the whole log back. A checkpoint's
// failures are harmless: the next write or tick tries again, and the write
// connection's backstop bounds the log.
func (c *checkpointer) refresh(conn *sql.Conn) {
	ctx := context.Background()
	c.unpin(conn)
	var busy, log, copied int
	err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &copied)
	if err == nil && int64(log) > restartLogPages.Load() && log != c.restartedLog && c.turn != nil && time.Now().After(c.noRestartUntil) {
		// A second passive checkpoint first copies, outside the writers'
		// turn, what was written during the first, with its syncs: the
		// RESTART then has only a few milliseconds' writes to copy and
		// sync while the writers wait.
		_ = conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &copied)
		ran := c.turn(func() { busy, log, copied, err = c.restart(ctx, conn) })
		switch {
		case !ran: // the writers' turn did not come within the busy timeout
		case err == nil && busy == 0:
			c.restartedLog = log // the same log at the next look: nothing written since
			c.readLogAhead()
		case err == nil || isBusy(err): // a reader in the way
			c.noRestartUntil = time.Now().Add(restartBackoff)
		}
	}
	if err != nil || busy != 0 || log != copied {
		return
	}
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		return
	}
	c.pinned.Store(true)
	c.pins.Add(1)
}

// readLogAhead reads the whole log file, which the writer is about to
// overwrite from its start, so that the pages the kernel dropped from its
// cache since they were last written (a longer cycle than the last few
// reaches further into the file) are read back here rather than in the
// writer's commit: the writer's pwrite of a frame that does not cover
// whole blocks reads the rest of each block first, behind the
// checkpoint's writes (the stalls of 0.3-1 s that remained once the log
// restarted, 2026-11-29: the writer in ext4_block_write_begin, one 4 KB
// read in flight). It reads through one 256 KB buffer: up to 40 MB from
// the page cache after a restart, every second or two at a thousand
// tables' human pace. Alternated with the build without it (1,000 tables
// at human pace, two runs each, the writer's thread sampled every 10 ms):
// the writer seen waiting in ext4_block_write_begin 0 and 4 times against
// 62 and 37, p99 move 69 and 135 ms against 1,072 and 397 ms.
func (c *checkpointer) readLogAhead() {
	f, err := os.Open(c.path + "-wal")
	if err != nil {
		return
	}
	defer f.Close()
	if c.readBuf == nil {
		c.readBuf = make([]byte, 256<<10)
	}
	for off := int64(0); ; off += int64(len(c.readBuf)) {
		if n, err := f.ReadAt(c.readBuf, off); n < len(c.readBuf) || err != nil {
			return
		}
	}
}

// restart runs a RESTART checkpoint, waiting at most restartWait for the
// readers (its busy handler's time-out, set for it alone).
func (c *checkpointer) restart(ctx context.Context, conn *sql.Conn) (busy, log, copied int, err error) {
	if _, err = conn.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.Itoa(int(restartWait/time.Millisecond))); err != nil {
		return 0, 0, 0, err
	}
	err = conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(RESTART)").Scan(&busy, &log, &copied)
	c.restarts.Add(1)
	if _, rerr := conn.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.Itoa(c.busyMillis)); err == nil {
		err = rerr
	}
	return busy, log, copied, err
}

// unpin releases the read pin.
func (c *checkpointer) unpin(conn *sql.Conn) {
	if c.pinned.Load() {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		c.pinned.Store(false)
	}
}

// written tells the checkpointer that a write committed.
func (c *checkpointer) written() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) close() error {
	close(c.done)
	<-c.stopped
	return c.db.Close()
}
