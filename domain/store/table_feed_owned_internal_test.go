package store

import (
	"maps"
	"testing"
)

// TestTheOwnersListIsSplitUnderTheNoticeLimit: a list of thousands of
// tables goes in several notices, each under pg_notify's 8,000 bytes, and
// reads back whole.
func TestTheOwnersListIsSplitUnderTheNoticeLimit(t *testing.T) {
	for _, c := range []struct {
		name   string
		tables int
		want   int // notices
	}{
		{"NoneSendsNothing", 0, 0},
		{"OneIsOneNotice", 1, 1},
		{"ThousandsAreSplit", 3000, 0}, // several: counted below
	} {
		t.Run(c.name, func(t *testing.T) {
			in := map[int64]int64{}
			for i := range c.tables {
				in[int64(1_000_000_000+i)] = int64(100_000 + i)
			}
			ps := ownedPayloads(in)
			if c.want > 0 && len(ps) != c.want || c.tables == 0 && len(ps) != 0 || c.tables > 1000 && len(ps) < 2 {
				t.Errorf("%d notices for %d tables", len(ps), c.tables)
			}
			out := map[int64]int64{}
			for _, p := range ps {
				if len(p) > maxNoticePayload {
					t.Errorf("a notice of %d bytes", len(p))
				}
				parseTableChanges(p, func(id, v int64) { out[id] = v })
			}
			if !maps.Equal(in, out) {
				t.Errorf("read back %d tables of %d", len(out), len(in))
			}
		})
	}
}
