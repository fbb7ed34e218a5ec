package standings

import "sort"

// rank is the rows' indexes in final order, with s.ahead filled.
func (s *state) rank() []int {
	order := make([]int, len(s.rows))
	for i := range order {
		order[i] = i
	}
	// A stable base, so entries tied on everything come in id order.
	sort.Slice(order, func(a, b int) bool { return s.rows[order[a]].Entry < s.rows[order[b]].Entry })
	s.ahead = make([]Criterion, len(order))
	s.key = make([]int, len(order))
	s.order(order, 0, 0)
	return order
}

// order sorts group (the entries at final positions from..from+len(group)
// that no earlier criterion separated) by criteria ci on, recording at each
// boundary the criterion that made it.
func (s *state) order(group []int, from, ci int) {
	for len(group) > 1 && ci < len(s.crits) {
		c := s.crits[ci]
		s.keys(c, group)
		key := s.key
		sort.SliceStable(group, func(a, b int) bool { return key[group[a]] > key[group[b]] })
		runs := 0
		for start := 0; start < len(group); {
			end := start + 1
			for end < len(group) && key[group[end]] == key[group[start]] {
				end++
			}
			if end < len(group) {
				s.ahead[from+end-1] = c
			}
			runs++
			if runs > 1 || end < len(group) {
				s.order(group[start:end], from+start, ci)
			}
			start = end
		}
		if runs > 1 {
			return
		}
		ci++
	}
}

// keys sets s.key of each entry of group to its value under criterion c
// within the group (higher is better). Only the group's keys are written, so
// the caller's keys of entries outside it stay as they were.
func (s *state) keys(c Criterion, group []int) {
	key := s.key
	if c == ByHeadToHead {
		h := s.headToHead(group)
		for _, i := range group {
			key[i] = h[i]
		}
		return
	}
	for _, i := range group {
		r := &s.rows[i]
		switch c {
		case ByVP:
			key[i] = r.VP
		case ByMPDiff:
			key[i] = r.MPDiff
		case ByMPFor:
			key[i] = r.MPFor
		case ByOpponentsVP:
			key[i] = r.OpponentsVP
		case ByLots:
			key[i] = -r.Lot
		}
	}
}

// headToHead is the mini-table among the group: each entry's VP won against
// the others of the group. When two entries of the group never met, or
// pairs met unequal numbers of times, everyone scores 0 (it separates
// nobody).
func (s *state) headToHead(group []int) map[int]int {
	in := make(map[int64]int, len(group))
	for _, i := range group {
		in[s.rows[i].Entry] = i
	}
	meetings := map[[2]int]int{}
	key := make(map[int]int, len(group))
	for _, i := range group {
		for _, l := range s.rows[i].Lines {
			j, ok := in[l.Opponent]
			if l.Bye || !ok {
				continue
			}
			key[i] += l.VPFor
			meetings[[2]int{min(i, j), max(i, j)}]++
		}
	}
	want := -1
	for a := range group {
		for b := a + 1; b < len(group); b++ {
			n := meetings[[2]int{min(group[a], group[b]), max(group[a], group[b])}]
			if n == 0 || (want >= 0 && n != want) {
				return map[int]int{}
			}
			want = n
		}
	}
	return key
}
