package pairing

// pairKey is an unordered pair of ids.
type pairKey struct{ lo, hi int64 }

func key(a, b int64) pairKey {
	if a > b {
		a, b = b, a
	}
	return pairKey{a, b}
}

// index is what the movements ask of a field, computed once: entries by
// position, who met whom and when, byes, NS seats, forbidden pairs.
type index struct {
	ids       []int64
	pos       map[int64]int
	club      []string
	sameClub  bool
	forbidden map[pairKey]bool
	met       map[pairKey]int // number of meetings
	lastRound map[pairKey]bool
	byes      []int
	ns        []int
}

func newIndex(f Field, minEntries int) (*index, error) {
	x := &index{
		pos: make(map[int64]int, len(f.Entries)), sameClub: f.ForbidSameClub,
		forbidden: make(map[pairKey]bool), met: make(map[pairKey]int), lastRound: make(map[pairKey]bool),
	}
	var bad []int64
	for _, e := range f.Entries {
		if _, dup := x.pos[e.ID]; dup || e.ID == 0 {
			bad = append(bad, e.ID)
			continue
		}
		x.pos[e.ID] = len(x.ids)
		x.ids = append(x.ids, e.ID)
		x.club = append(x.club, e.Club)
	}
	if len(bad) > 0 {
		return nil, errorf(CodeBadField, bad, "entry ids must be unique and not 0")
	}
	if len(x.ids) < minEntries {
		return nil, errorf(CodeBadField, nil, "%d entries; this movement needs at least %d", len(x.ids), minEntries)
	}
	for _, p := range f.Forbidden {
		x.forbidden[key(p[0], p[1])] = true
	}
	x.byes, x.ns = make([]int, len(x.ids)), make([]int, len(x.ids))
	for r, round := range f.History {
		x.addRound(round, r == len(f.History)-1)
	}
	return x, nil
}

func (x *index) addRound(r Round, last bool) {
	for _, t := range r.Tables {
		k := key(t.NS, t.EW)
		x.met[k]++
		if last {
			x.lastRound[k] = true
		}
		if i, ok := x.pos[t.NS]; ok {
			x.ns[i]++
		}
	}
	for _, id := range r.Byes {
		if i, ok := x.pos[id]; ok {
			x.byes[i]++
		}
	}
}

// isForbidden reports whether entries at positions i and j must not meet.
func (x *index) isForbidden(i, j int) bool {
	if x.sameClub && x.club[i] != "" && x.club[i] == x.club[j] {
		return true
	}
	return x.forbidden[key(x.ids[i], x.ids[j])]
}

// order is the positions of the entries in standings order: those listed,
// best first, then the others in entry order.
func (x *index) order(standings []int64) []int {
	seen := make([]bool, len(x.ids))
	out := make([]int, 0, len(x.ids))
	for _, id := range standings {
		if i, ok := x.pos[id]; ok && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	for i := range x.ids {
		if !seen[i] {
			out = append(out, i)
		}
	}
	return out
}

// table seats a and b (positions) at table number n, the one that sat NS
// less often taking NS (the first on a tie).
func (x *index) table(n, a, b int) Table {
	if x.ns[b] < x.ns[a] {
		a, b = b, a
	}
	return Table{Number: n, NS: x.ids[a], EW: x.ids[b]}
}
