package domain

import "testing"

// TestTheCacheKeepsTheLastClosedTablesOnly: a finished or cancelled
// table's last deal read from the rows is kept (keepRead) among the last
// maxClosedGames such, the oldest dropped first, and never in place of a
// playing table's game; put keeps no closed table's.
func TestTheCacheKeepsTheLastClosedTablesOnly(t *testing.T) {
	c := newGameCache()
	p := &playing{deal: TableDeal{Number: 1}}
	c.keepRead(Table{ID: 1, Status: TablePlaying, Version: 3, DealNumber: 1}, p)
	c.put(Table{ID: 2, Status: TableFinished, Version: 9, DealNumber: 1}, p)
	if _, ok := c.version(2); ok {
		t.Fatal("put kept a finished table's deal")
	}
	for id := int64(100); id < 100+maxClosedGames+10; id++ {
		status := TableFinished
		if id%2 == 0 {
			status = TableCancelled
		}
		c.keepRead(Table{ID: id, Status: status, Version: 5, DealNumber: 1}, p)
	}
	for id := int64(100); id < 110; id++ {
		if _, ok := c.version(id); ok {
			t.Errorf("table %d, among the oldest closed ones, is still kept past %d newer", id, maxClosedGames)
		}
	}
	for _, id := range []int64{110, 100 + maxClosedGames + 9} {
		if _, ok := c.version(id); !ok {
			t.Errorf("closed table %d, among the last %d, is not kept", id, maxClosedGames)
		}
	}
	if v, ok := c.version(1); !ok || v != 3 {
		t.Errorf("the playing table's game: version %d, kept %v; want version 3 kept", v, ok)
	}
	// A closed table's entry replaced by a playing one's (the id reused in
	// a test, or a status read back) is not dropped with the ring's slot.
	c.keepRead(Table{ID: 110, Status: TablePlaying, Version: 6, DealNumber: 1}, p)
	for id := int64(5000); id < 5000+maxClosedGames; id++ {
		c.keepRead(Table{ID: id, Status: TableFinished, Version: 5, DealNumber: 1}, p)
	}
	if _, ok := c.version(110); !ok {
		t.Error("a playing table's game was dropped as the closed entry it replaced")
	}
}
