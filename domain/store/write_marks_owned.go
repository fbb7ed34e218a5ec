package store

import (
	"context"
	"slices"
	"strings"
	"sync"
)

// A table owner's moves and their burraco_writes notices (docs/SCALE-OUT.md
// §7): a move writes its table's play (the version, the turn's clock, the
// move's row, the deal's position, its idempotency key), which no kept
// read of another process depends on (the lobby's depend on a table's
// status, seats and such: lobbyRecords), yet each such transaction sent a
// notice at its commit, which every process heard. A fenced transaction
// (the owner's, leases.go) that wrote only play records sends none; what
// it wrote goes in its process's list, sent once a second with the
// tables' versions (table_feed_owned.go), so that a read that did depend
// on them is at most a second behind. A fenced transaction that wrote
// anything else (a match's end: its status; a deal's end: a tournament's
// sheet; a rating) announces at its commit, as any other.

// playTables are the tables whose every write is play.
var playTables = []string{"table_moves", "table_deals", "idempotency_keys"}

// playColumns are the columns of tables a move sets (tableRepo.Update
// writes those that changed, and always the version).
var playColumns = []string{"version", "deal_number", "turn_started_at", "clock_used", "bank_left", "updated_at"}

// onlyPlay reports whether every record written is play.
func onlyPlay(records []string) bool {
	for _, r := range records {
		table, column, _ := strings.Cut(r, ".")
		switch {
		case slices.Contains(playTables, table):
		case table == "tables" && (column == "" || slices.Contains(playColumns, column)):
		default:
			return false
		}
	}
	return true
}

// ownedWrites are the records written by this process's fenced play
// transactions since the last list. The zero value is ready.
type ownedWrites struct {
	mu      sync.Mutex
	records []string
}

func (o *ownedWrites) add(records []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, r := range records {
		if !slices.Contains(o.records, r) {
			o.records = append(o.records, r)
		}
	}
}

func (o *ownedWrites) take() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	r := o.records
	o.records = nil
	return r
}

// deferWrites reports whether a fenced transaction's writes go in the
// second's list instead of a notice at its commit, and notes them for it
// once the transaction commits (committed).
func (t *tx) deferWrites(w *writeSet) bool {
	if !t.fenced || t.dialect != Postgres {
		return false
	}
	w.mu.Lock()
	records := slices.Clone(w.tables)
	users := len(w.users)
	w.mu.Unlock()
	if users > 0 || !onlyPlay(records) { // a user's change is announced at its commit
		return false
	}
	t.deferredWrites = records
	return true
}

// sendOwnedWrites sends the records the fenced play transactions wrote
// since the last list, as one burraco_writes notice (a few names: far
// under pg_notify's limit).
func (db *DB) sendOwnedWrites(ctx context.Context) {
	records := db.ownedWrites.take()
	if len(records) == 0 {
		return
	}
	payload := strings.Join(records, ",") + "," + db.marks.origin
	if _, err := db.sql.ExecContext(ctx, "SELECT pg_notify("+writesChannel+", $1)", payload); err != nil {
		db.ownedWrites.add(records) // again next time
	}
}
