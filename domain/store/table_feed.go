package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/burraco/burraco/domain"
)

// Table changes cross server processes on PostgreSQL by LISTEN/NOTIFY:
// every update of a table row sends pg_notify(channel, "id:version")
// inside its transaction, so the notification is delivered exactly when
// the change commits (and never when it rolls back); each process keeps
// one connection LISTENing on the channel. Channels are per database, not
// per schema, so a schema other than public (the tests' schemas) gets a
// channel of its own. On SQLite there is one process per file: nothing is
// sent, and the in-process notifier is all there is.

// tablesChannel is the SQL expression of the channel of the current schema.
const tablesChannel = `CASE current_schema() WHEN 'public' THEN 'burraco_tables' ELSE 'burraco_tables_' || current_schema() END`

// listenerName is the application_name of the listening connection, so that
// an operator (or a test) can find it in pg_stat_activity.
const listenerName = "burraco tables listener"

var _ domain.TableFeed = (*DB)(nil)

// announce sends a table's new version to every process (PostgreSQL),
// delivered when tx commits.
func (r tableRepo) announce(id, version int64) error {
	if r.t.dialect != Postgres {
		return nil
	}
	payload := strconv.FormatInt(id, 10) + ":" + strconv.FormatInt(version, 10)
	return translate(r.t.db.Exec("SELECT pg_notify("+tablesChannel+", ?)", payload).Error, "table")
}

// FollowTables implements domain.TableFeed. On SQLite it waits for ctx and
// returns nil. On PostgreSQL it listens on its own connection, calling
// changed for each table change any process commits, and resync each time
// it starts listening (again): what happened while it was not listening
// was missed. A lost connection is re-established, after a pause that
// grows to 2 s.
func (db *DB) FollowTables(ctx context.Context, changed func(tableID, version int64), resync func()) error {
	if db.dialect != Postgres {
		<-ctx.Done()
		return nil
	}
	feed := feed{name: listenerName, channel: tablesChannel, listening: resync, payload: func(p string) {
		parseTableChanges(p, changed) // one change, or an owner's list (table_feed_owned.go)
	}}
	done := make(chan struct{})
	go func() { // the versions of the tables this process owns, once a second
		defer close(done)
		db.announceOwned(ctx)
	}()
	db.follow(ctx, feed)
	<-done
	return nil
}

// feed is a channel a process listens on (PostgreSQL).
type feed struct {
	name, channel string       // the connection's application_name; the channel's SQL expression
	listening     func()       // called each time it starts listening (again)
	lost          func()       // called when the connection is lost (may be nil)
	payload       func(string) // called with each notification's payload
}

// follow listens on f until ctx ends, re-establishing a lost connection
// after a pause that grows to 2 s.
func (db *DB) follow(ctx context.Context, f feed) {
	pause := 50 * time.Millisecond
	for {
		started := time.Now()
		err := db.listen(ctx, f)
		if f.lost != nil {
			f.lost()
		}
		if ctx.Err() != nil {
			return
		}
		if time.Since(started) > 10*time.Second {
			pause = 50 * time.Millisecond // it had been working: retry soon
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
		_ = err // the next attempt reports nothing either: a feed that is down shows as slower polls, not errors
	}
}

// listen listens until the connection fails or ctx ends.
func (db *DB) listen(ctx context.Context, f feed) error {
	cfg, err := pgx.ParseConfig(db.url)
	if err != nil {
		return err
	}
	cfg.RuntimeParams["application_name"] = f.name
	if db.stmts != nil {
		cfg.Tracer = db.stmts // statements.go
		db.stmts.connects.Add(1)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var channel string
	if err := conn.QueryRow(ctx, "SELECT "+f.channel).Scan(&channel); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return err
	}
	f.listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		f.payload(n.Payload)
	}
}

// parseTableChange reads a payload "id:version".
func parseTableChange(payload string) (id, version int64, err error) {
	a, b, ok := strings.Cut(payload, ":")
	if !ok {
		return 0, 0, errors.New("no colon")
	}
	if id, err = strconv.ParseInt(a, 10, 64); err != nil {
		return 0, 0, fmt.Errorf("table id: %w", err)
	}
	if version, err = strconv.ParseInt(b, 10, 64); err != nil {
		return 0, 0, fmt.Errorf("version: %w", err)
	}
	return id, version, nil
}
