package store

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The owners' list (docs/SCALE-OUT.md §7): a table's owner (a write
// transaction fenced by its lease, leases.go) sends no burraco_tables
// notice per move. Nobody but the owner serves the table's polls, so the
// other processes need its versions only for the lobby (the notifier's
// floors, newestTables), and a second late is what §7 allows there. Each
// process sends, once a second while it follows the tables
// (FollowTables), one notice listing its tables whose version moved
// since the last ("id:version,id:version", split under pg_notify's
// 8,000 bytes), on the same channel: the listeners read both forms.
//
// What else learns from it: a process that lost a table (deposed, or
// holding polls it no longer owns) hears the new owner's versions within
// a second, which wakes those polls (they read the table again and are
// answered, or forwarded at their next request).

// ownedEvery is how often the list is sent.
const ownedEvery = time.Second

// maxNoticePayload keeps a list under pg_notify's limit (8,000 bytes).
const maxNoticePayload = 7_900

// tableVersion is a table's version committed by a fenced transaction.
type tableVersion struct{ id, version int64 }

// ownedVersions are the versions committed by this process's fenced
// transactions since the last list. The zero value is ready.
type ownedVersions struct {
	mu sync.Mutex
	m  map[int64]int64
}

// add notes versions committed (the newest of a table wins: commits may
// end out of order).
func (o *ownedVersions) add(vs []tableVersion) {
	if len(vs) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil {
		o.m = map[int64]int64{}
	}
	for _, v := range vs {
		o.m[v.id] = max(o.m[v.id], v.version)
	}
}

// take returns the versions noted and starts a new list.
func (o *ownedVersions) take() map[int64]int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	m := o.m
	o.m = nil
	return m
}

// ownedPayloads is the list as notices' payloads, each under
// maxNoticePayload.
func ownedPayloads(m map[int64]int64) []string {
	var out []string
	var b strings.Builder
	for id, v := range m {
		entry := strconv.FormatInt(id, 10) + ":" + strconv.FormatInt(v, 10)
		if b.Len() > 0 && b.Len()+1+len(entry) > maxNoticePayload {
			out = append(out, b.String())
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(entry)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// announceOwned sends the list every ownedEvery until ctx ends, and once
// more then (a clean stop's last moves). A list that fails to go is
// merged back into the next: the versions only grow.
func (db *DB) announceOwned(ctx context.Context) {
	tick := time.NewTicker(ownedEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), time.Second)
			db.sendOwned(sctx)
			db.sendOwnedWrites(sctx)
			cancel()
			return
		case <-tick.C:
			db.sendOwned(ctx)
			db.sendOwnedWrites(ctx) // write_marks_owned.go
		}
	}
}

// sendOwned sends the versions noted since the last list.
func (db *DB) sendOwned(ctx context.Context) {
	m := db.owned.take()
	if len(m) == 0 {
		return
	}
	for _, p := range ownedPayloads(m) {
		if _, err := db.sql.ExecContext(ctx, "SELECT pg_notify("+tablesChannel+", $1)", p); err != nil {
			vs := make([]tableVersion, 0, len(m))
			for id, v := range m {
				vs = append(vs, tableVersion{id, v})
			}
			db.owned.add(vs) // again next time (what went already is harmless twice)
			return
		}
	}
}

// parseTableChanges reads a payload: one "id:version", or the owners'
// list of them separated by commas.
func parseTableChanges(payload string, changed func(id, version int64)) {
	for entry := range strings.SplitSeq(payload, ",") {
		if id, version, err := parseTableChange(entry); err == nil {
			changed(id, version)
		}
	}
}
