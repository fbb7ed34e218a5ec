package pairing

// Mitchell seats round (1-based) of a Mitchell movement: the NS line stays,
// the EW line moves step tables up each round (1 is the classic move). With
// T tables, step must share no factor with T, so that over T rounds each EW
// entry visits every table and meets every NS entry once; round T+1 starts
// the cycle again.
//
// The lines depend only on the entries (in their order) and the forbidden
// pairs, so every round of an event gets the same lines as long as those are
// unchanged: the first half of the entries sits NS, except that entries that
// must not meet are put on the same line (they never meet) when the lines
// can be split that way. When they cannot, a forbidden pair that meets this
// round fails the call (CodeForbidden).
//
// An odd field has a phantom EW entry; the NS entry it visits has the bye,
// so the bye rotates over the NS line.
func Mitchell(f Field, round, step int) (Round, error) {
	x, err := newIndex(f, 2)
	if err != nil {
		return Round{}, err
	}
	n := len(x.ids)
	tables := (n + 1) / 2
	if round < 1 || step < 1 || gcd(step, tables) != 1 {
		return Round{}, errorf(CodeBadRound, nil, "round %d, step %d: the round must be 1 or more and the step 1 or more, sharing no factor with the %d tables", round, step, tables)
	}
	ns, ew := x.mitchellLines()
	r := Round{Tables: make([]Table, 0, tables)}
	at := make([]int, tables) // EW position at each table
	for k := range at {
		at[(k+(round-1)*step)%tables] = k
	}
	var met []int64
	for t := range tables {
		k := at[t]
		if k >= len(ew) { // the phantom
			r.Byes = append(r.Byes, x.ids[ns[t]])
			continue
		}
		if x.isForbidden(ns[t], ew[k]) {
			met = append(met, x.ids[ns[t]], x.ids[ew[k]])
		}
		r.Tables = append(r.Tables, Table{Number: t + 1, NS: x.ids[ns[t]], EW: x.ids[ew[k]]})
	}
	if met != nil {
		return Round{}, errorf(CodeForbidden, met, "forbidden pairs meet in round %d of this Mitchell; the lines cannot keep them apart", round)
	}
	return r, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mitchellLines splits the positions into the NS line (ceil(n/2)) and the EW
// line, keeping each group of entries linked by forbidden pairs on one line
// when some choice of groups fills the NS line exactly; else the first half
// of the entries sits NS.
func (x *index) mitchellLines() (ns, ew []int) {
	n := len(x.ids)
	size := (n + 1) / 2
	groups := x.forbiddenGroups()
	pick := subsetOfSize(groups, size)
	onNS := make([]bool, n)
	if pick == nil {
		for i := range size {
			onNS[i] = true
		}
	} else {
		for _, g := range pick {
			for _, p := range groups[g] {
				onNS[p] = true
			}
		}
	}
	for p := range n {
		if onNS[p] {
			ns = append(ns, p)
		} else {
			ew = append(ew, p)
		}
	}
	return ns, ew
}

// forbiddenGroups is the connected groups of the forbidden-pair graph, each
// in entry order, the groups ordered by their first entry.
func (x *index) forbiddenGroups() [][]int {
	n := len(x.ids)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) { parent[find(a)] = find(b) }
	for k := range x.forbidden {
		a, okA := x.pos[k.lo]
		b, okB := x.pos[k.hi]
		if okA && okB {
			union(a, b)
		}
	}
	if x.sameClub {
		first := map[string]int{}
		for i, c := range x.club {
			if c == "" {
				continue
			}
			if j, ok := first[c]; ok {
				union(i, j)
			} else {
				first[c] = i
			}
		}
	}
	byRoot := map[int]int{}
	var groups [][]int
	for i := range n {
		r := find(i)
		g, ok := byRoot[r]
		if !ok {
			g = len(groups)
			byRoot[r] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// subsetOfSize picks groups whose sizes add up to size exactly (subset sum,
// preferring the earliest groups), or nil.
func subsetOfSize(groups [][]int, size int) []int {
	// reach[i][s]: the first i groups can make s.
	reach := make([][]bool, len(groups)+1)
	reach[0] = make([]bool, size+1)
	reach[0][0] = true
	for i, g := range groups {
		reach[i+1] = append([]bool(nil), reach[i]...)
		for s := size; s >= len(g); s-- {
			reach[i+1][s] = reach[i+1][s] || reach[i][s-len(g)]
		}
	}
	if !reach[len(groups)][size] {
		return nil
	}
	var pick []int
	for i, s := len(groups), size; i > 0 && s > 0; i-- {
		if !reach[i-1][s] { // group i-1 is needed
			pick = append(pick, i-1)
			s -= len(groups[i-1])
		}
	}
	return pick
}
