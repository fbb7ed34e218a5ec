package store

import (
	"sync"
	"sync/atomic"

	"github.com/burraco/burraco/domain"
)

// A table's data version (data_versions, migration 0007) grows with every
// change of its rows: triggers bump it, so it counts every writer, this
// process or another, the repositories or a foreign key's ON DELETE
// action. What was read of the table at a version holds for as long as the
// version is the same; reading the version alone is a point read, where
// the page it vouches for is a sorted scan and a count.

// dataVersion reads the version of table's data.
func (t *tx) dataVersion(table string) (int64, error) {
	var v int64
	if err := t.queryRow(false, "SELECT version FROM data_versions WHERE name = $1", []any{table}, &v); err != nil {
		return 0, translate(err, table)
	}
	return v, nil
}

// maxVersionedItems bounds a versionedCache; past it the cache starts
// afresh.
const maxVersionedItems = 1024

// versionedCache keeps results read from one table at one data version:
// a result is returned only at the version it was read at. It holds the
// newest version it was given; a result of an older one is not kept.
//
// Only reads that see committed rows alone may fill it (View and ViewOne,
// never InTx): a write transaction sees its own rows, which may roll back.
// A read of the version and then of the rows in two statements (ViewOne)
// may keep, under the version it read, rows of a newer one committed in
// between: those are only newer than what a reader of that version expects,
// and the next reader of the newer version reads again.
type versionedCache[K comparable, V any] struct {
	mu      sync.RWMutex
	version int64
	items   map[K]V
	hits    atomic.Int64 // answers given from the cache (tests)
}

func newVersionedCache[K comparable, V any]() *versionedCache[K, V] {
	return &versionedCache[K, V]{items: map[K]V{}}
}

// get returns the result kept for key at version, if any.
func (c *versionedCache[K, V]) get(key K, version int64) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.items[key]
	if !ok || c.version != version {
		var zero V
		return zero, false
	}
	c.hits.Add(1)
	return v, true
}

// put keeps v for key at version, forgetting every result of an older one.
func (c *versionedCache[K, V]) put(key K, version int64, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case version < c.version:
		return
	case version > c.version || len(c.items) >= maxVersionedItems:
		clear(c.items)
		c.version = version
	}
	c.items[key] = v
}

// playerPageKey is a PlayerFilter as a map key.
type playerPageKey struct {
	query         string
	clubID        int64
	byClub        bool
	limit, offset int
}

func playerPageKeyOf(f domain.PlayerFilter) playerPageKey {
	k := playerPageKey{query: f.Query, limit: f.Limit, offset: f.Offset}
	if f.ClubID != nil {
		k.clubID, k.byClub = *f.ClubID, true
	}
	return k
}

// playerPage is a page of players with the number of players that match.
type playerPage struct {
	items []domain.Player
	total int
}

// playerPages are the pages of the players list, by filter.
type playerPages = versionedCache[playerPageKey, playerPage]
