package store

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/burraco/burraco/domain"
)

// tableCache keeps table rows by id, each as it was at its version. A
// version is made by exactly one committed transaction (the version grows
// under the row's lock, and every change of a table's row or seats bumps
// it), so a row read or written at a version is the row of that version
// for good: a read that finds the version it holds needs only the version
// (and its seats, also kept by version).
// Rows enter the cache after the transaction that read or wrote them
// commits, never before: a rolled-back version may be reused by another
// transaction (another process, on PostgreSQL) with other contents.
//
// It keeps the seats of a version too, with their users' names, for the
// lobby (table_lobby.go) and the state reads (tableRepo.Cached): a table's
// seats change only with its version, users are never renamed, and a
// seated user cannot be deleted.
type tableCache struct {
	mu    sync.RWMutex
	rows  map[int64]tableRow
	seats map[int64]tableSeats
}

// tableSeats are a table's seats at a version.
type tableSeats struct {
	id, version int64
	seats       []domain.Seat
}

// maxCachedTables bounds the cache (a few hundred bytes a row); past it
// the cache starts afresh.
const maxCachedTables = 10_000

func newTableCache() *tableCache {
	return &tableCache{rows: map[int64]tableRow{}, seats: map[int64]tableSeats{}}
}

// get returns the row of table id at version, if held.
func (c *tableCache) get(id, version int64) (tableRow, bool) {
	c.mu.RLock()
	row, ok := c.rows[id]
	c.mu.RUnlock()
	return row, ok && row.Version == version
}

// put keeps row, unless a newer version of it is held.
func (c *tableCache) put(row tableRow) {
	if row.clock == nil {
		_ = json.Unmarshal([]byte(row.ClockUsed), &row.clock) // written by tableRowOf
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.rows[row.ID]; ok && old.Version > row.Version {
		return
	}
	if len(c.rows) >= maxCachedTables {
		clear(c.rows)
	}
	c.rows[row.ID] = row
}

// seatsAt returns a copy of the seats of table id at version, if held.
func (c *tableCache) seatsAt(id, version int64) ([]domain.Seat, bool) {
	c.mu.RLock()
	s, ok := c.seats[id]
	c.mu.RUnlock()
	if !ok || s.version != version {
		return nil, false
	}
	return slices.Clone(s.seats), true
}

// putSeats keeps s, unless a newer version of its table's seats is held.
func (c *tableCache) putSeats(s tableSeats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.seats[s.id]; ok && old.version > s.version {
		return
	}
	if len(c.seats) >= maxCachedTables {
		clear(c.seats)
	}
	c.seats[s.id] = s
}

// forget empties the cache (tests).
func (c *tableCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.rows)
	clear(c.seats)
}
