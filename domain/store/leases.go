package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
)

// Leases is the lease store of issue 30 (docs/SCALE-OUT.md §4) on
// PostgreSQL: table_leases and server_processes, written with GORM's raw
// SQL outside any transaction (none of it is domain data that kept reads
// or write marks follow). Every time is the database's now(), so that
// expiry needs no clock agreement between processes.
type Leases struct {
	db *gorm.DB
	// renewals is the process's lease renewals' own connection, so that
	// they never queue behind the requests for the pool's: when a burst
	// of requests (a thousand tables' first polls at once) held every
	// connection for longer than a lease's margin, the renewal came too
	// late, every lease lapsed locally and each was taken again, table by
	// table, each taking the table's game out of memory.
	renewals *sql.DB
}

// leasePool opens, once, the lease renewals' own pool of one connection.
type leasePool struct {
	once sync.Once
	db   *sql.DB
	err  error
}

func (p *leasePool) get(url string, stmts *statementCounter) (*sql.DB, error) {
	p.once.Do(func() {
		p.db, p.err = openPgx(url, stmts)
		if p.err == nil {
			p.db.SetMaxOpenConns(1)
			p.db.SetMaxIdleConns(1)
		}
	})
	if p.db == nil && p.err == nil {
		return nil, errors.New("store: the database is closed")
	}
	return p.db, p.err
}

func (p *leasePool) close() error {
	p.once.Do(func() {}) // none opened from now on
	if p.db == nil {
		return nil
	}
	return p.db.Close()
}

var _ lease.Store = (*Leases)(nil)

// ErrLeasesNeedPostgres is Leases' answer on SQLite: one process by
// design, which owns every table without asking.
var ErrLeasesNeedPostgres = errors.New("store: table leases are for several processes on PostgreSQL; SQLite has one")

// Leases returns the lease store; ErrLeasesNeedPostgres on SQLite.
func (db *DB) Leases() (*Leases, error) {
	if db.dialect != Postgres {
		return nil, ErrLeasesNeedPostgres
	}
	renewals, err := db.leasePool.get(db.url, db.stmts)
	if err != nil {
		return nil, fmt.Errorf("store: the lease renewals' connection: %w", err)
	}
	return &Leases{db: db.gorm, renewals: renewals}, nil
}

func millis(d time.Duration) int64 { return d.Milliseconds() }

// Register records the process owner and its internal address.
func (l *Leases) Register(ctx context.Context, owner, addr string) error {
	err := l.db.WithContext(ctx).Exec(`INSERT INTO server_processes (owner, internal_addr, started_at, seen_at)
		VALUES ($1, $2, now(), now())
		ON CONFLICT (owner) DO UPDATE SET internal_addr = EXCLUDED.internal_addr, seen_at = now()`, owner, addr).Error
	if err != nil {
		return fmt.Errorf("store: register process: %w", err)
	}
	return nil
}

// Unregister deletes the process's row.
func (l *Leases) Unregister(ctx context.Context, owner string) error {
	if err := l.db.WithContext(ctx).Exec(`DELETE FROM server_processes WHERE owner = $1`, owner).Error; err != nil {
		return fmt.Errorf("store: unregister process: %w", err)
	}
	return nil
}

// Acquire takes the lease of table for owner when it is free, expired or
// owner's own (§4.2), at a new epoch; owner's own live lease is extended
// at its epoch, as a renewal would (it never left owner: nothing another
// process wrote is to be read again). The row is inserted from tables, so
// that a table that does not exist gets no lease (ok false) instead of a
// foreign key error. A lease held live by another is left alone: the
// conflict's WHERE decides, in one statement, so two processes racing for
// one table cannot both win.
//
// The SET names the key, table_id, unchanged: an update that sets a key
// column locks the row FOR UPDATE, which waits for the fences' FOR KEY
// SHARE (a takeover waits for the fenced writes under way, §4.3); one
// that sets none (a renewal, a release) locks it FOR NO KEY UPDATE, which
// does not.
func (l *Leases) Acquire(ctx context.Context, table int64, owner string, ttl time.Duration) (int64, bool, error) {
	var epoch int64
	err := l.db.WithContext(ctx).Raw(`INSERT INTO table_leases (table_id, owner, epoch, expires_at)
		SELECT id, $2, 1, now() + $3::bigint * interval '1 millisecond' FROM tables WHERE id = $1
		ON CONFLICT (table_id) DO UPDATE
		   SET table_id = EXCLUDED.table_id, owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at,
		       epoch = CASE WHEN table_leases.owner = EXCLUDED.owner AND table_leases.expires_at >= now()
		                    THEN table_leases.epoch ELSE table_leases.epoch + 1 END
		 WHERE table_leases.expires_at < now() OR table_leases.owner = EXCLUDED.owner
		RETURNING epoch`, table, owner, millis(ttl)).Row().Scan(&epoch)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, fmt.Errorf("store: acquire lease of table %d: %w", table, err)
	}
	return epoch, true, nil
}

// Renew extends every live lease of owner, and its process row's seen_at,
// in one round trip, and returns the epochs of the leases it holds. An
// expired lease is not extended, even if nobody took it: it was released
// (idle, §4.4), or the process's own deadline passed and it stopped
// serving the table; the next request takes it again, at a new epoch. It
// runs on the renewals' own connection (Leases.renewals).
func (l *Leases) Renew(ctx context.Context, owner string, ttl time.Duration) (map[int64]int64, error) {
	rows, err := l.renewals.QueryContext(ctx, `WITH p AS (UPDATE server_processes SET seen_at = now() WHERE owner = $1)
		UPDATE table_leases SET expires_at = now() + $2::bigint * interval '1 millisecond'
		 WHERE owner = $1 AND expires_at >= now() RETURNING table_id, epoch`, owner, millis(ttl))
	if err != nil {
		return nil, fmt.Errorf("store: renew leases: %w", err)
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var table, epoch int64
		if err := rows.Scan(&table, &epoch); err != nil {
			return nil, fmt.Errorf("store: renew leases: %w", err)
		}
		out[table] = epoch
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: renew leases: %w", err)
	}
	return out, nil
}

// Release expires every lease of owner now (a second in the past, so that
// a transaction begun a moment earlier, whose now() is its start, sees it
// expired too).
func (l *Leases) Release(ctx context.Context, owner string) error {
	err := l.db.WithContext(ctx).Exec(`UPDATE table_leases SET expires_at = now() - interval '1 second' WHERE owner = $1`, owner).Error
	if err != nil {
		return fmt.Errorf("store: release leases: %w", err)
	}
	return nil
}

// ReleaseTables expires owner's leases of tables now.
func (l *Leases) ReleaseTables(ctx context.Context, owner string, tables []int64) error {
	err := l.db.WithContext(ctx).Exec(`UPDATE table_leases SET expires_at = now() - interval '1 second'
		WHERE owner = $1 AND table_id = ANY($2)`, owner, tables).Error
	if err != nil {
		return fmt.Errorf("store: release leases: %w", err)
	}
	return nil
}

// Holder returns who holds table's lease and the holder's address (empty
// when its process row is gone); lease.ErrNoLease when nobody has held it.
func (l *Leases) Holder(ctx context.Context, table int64) (lease.Holder, error) {
	var h lease.Holder
	err := l.db.WithContext(ctx).Raw(`SELECT l.owner, coalesce(p.internal_addr, ''), l.epoch, l.expires_at >= now()
		FROM table_leases l LEFT JOIN server_processes p ON p.owner = l.owner
		WHERE l.table_id = $1`, table).Row().Scan(&h.Owner, &h.Addr, &h.Epoch, &h.Live)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return lease.Holder{}, lease.ErrNoLease
	case err != nil:
		return lease.Holder{}, fmt.Errorf("store: holder of table %d: %w", table, err)
	}
	return h, nil
}

// fence checks, first in a write transaction whose context carries a
// lease.Fence (a request for a table this process owns), that the lease
// is still the fence's, and locks its row in key-share mode until the
// commit (§4.3): a takeover (Acquire, whose update sets the key) waits for
// the write, and a write after a takeover fails with ETableOwnerMoved,
// the fence's manager told at once. Nothing on SQLite (one process), nor
// without a fence.
//
// Key share, not share: the owner's renewal, once a second, updates every
// lease it holds (their expiry only, no key), and in share mode it waited
// for every fenced write under way while the fences of the rows it had
// already updated waited for it: a convoy of each process's moves behind
// its renewal every second, and renewals late enough under a burst for
// the leases to lapse.
//
// The same statement locks the table's row and reads its version, which
// every write of a table's request does next (tableRepo.Lock): one round
// trip for both, handed to lockCached. Taking the table's row lock here,
// at the start of every fenced transaction, keeps the lock order every
// fenced transaction already had (the lease, then its own table's row,
// then anything else: a tournament's row at a deal's end, ratings, a
// rematch's new table); docs/SCALE-OUT.md §13 step 3 has the audit.
func (t *tx) fence(ctx context.Context) error {
	f, ok := lease.FenceFrom(ctx)
	if !ok || t.dialect != Postgres {
		return nil
	}
	var version int64
	err := t.queryRow(false, `SELECT t.version FROM table_leases l JOIN tables t ON t.id = l.table_id
		WHERE l.table_id = $1 AND l.owner = $2 AND l.epoch = $3 FOR UPDATE OF t FOR KEY SHARE OF l`,
		[]any{f.Table, f.Owner, f.Epoch}, &version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		f.Lost()
		return domain.Errorf(domain.ETableOwnerMoved, "this server process no longer owns table %d; try again", f.Table)
	case err != nil:
		return fmt.Errorf("store: fence of table %d: %w", f.Table, err)
	}
	t.fenced = true
	t.fencedVersion = &lockedVersion{table: f.Table, version: version}
	return nil
}

// lockedVersion is a table's version as read under its row lock by the
// fence, for the transaction's first lock of that table.
type lockedVersion struct {
	table, version int64
}

// takeFencedVersion returns the version the fence read of table, once:
// while the transaction has written nothing since (a write may have
// changed it; the lock is held all the same, and the next read of the
// version reads the transaction's own).
func (t *tx) takeFencedVersion(table int64) (int64, bool) {
	v := t.fencedVersion
	if v == nil || v.table != table {
		return 0, false
	}
	t.fencedVersion = nil
	return v.version, true
}
