package store

import (
	"database/sql"
	"sync"
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
const (
	checkpointDelay         = 100 * time.Millisecond
	backstopCheckpointPages = 10000 // about 40 MB of log
)

// sqliteWriterDriver is go-sqlite3 with the write connection's
// wal_autocheckpoint, which no DSN parameter sets.
const sqliteWriterDriver = "sqlite3_burraco_writer"

var registerWriterDriver = sync.OnceFunc(func() {
	sql.Register(sqliteWriterDriver, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec("PRAGMA wal_autocheckpoint = 10000", nil)
			return err
		},
	})
})

// checkpointer runs passive checkpoints in the background.
type checkpointer struct {
	db      *sql.DB
	kick    chan struct{} // a write committed
	done    chan struct{} // closed by close
	stopped chan struct{} // closed when run returns
}

func newCheckpointer(dsn string) (*checkpointer, error) {
	db, err := sql.Open(sqliteWriterDriver, dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	go c.run()
	return c, nil
}

func (c *checkpointer) run() {
	defer close(c.stopped)
	for {
		select {
		case <-c.done:
			return
		case <-c.kick:
		}
		select {
		case <-c.done:
			return
		case <-time.After(checkpointDelay): // let the writes of this moment gather
		}
		// Failures are harmless: the next write kicks again, and the
		// write connection's backstop bounds the log.
		_, _ = c.db.Exec("PRAGMA wal_checkpoint(PASSIVE)")
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
