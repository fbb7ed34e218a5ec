package pairing

import "sort"

// searchBudget bounds the backtracking of one search (candidate pairs
// tried). A round of 1,000 pairs needs about 500 when nothing blocks.
const searchBudget = 200_000

// maxByeTries bounds how many bye candidates a level tries before giving way.
const maxByeTries = 16

// allowFunc reports whether the entries at positions a and b may meet.
type allowFunc func(a, b int) bool

// searcher pairs positions in preference order: the first unpaired entry
// with the nearest allowed one after it, backtracking when the rest cannot
// be paired. The result is the pairing that keeps every entry as close to
// its place in the order as the constraints allow, top first.
type searcher struct {
	order   []int
	allowed allowFunc
	budget  int
	used    []bool
	pairs   [][2]int
	best    [][2]int // the deepest partial pairing, to say who could not be paired
}

func newSearcher(order []int, n int, allowed allowFunc, budget int) *searcher {
	return &searcher{order: order, allowed: allowed, budget: budget, used: make([]bool, n),
		pairs: make([][2]int, 0, len(order)/2)}
}

// run pairs every position of order from start on, reporting success.
func (s *searcher) run(start int) bool {
	for start < len(s.order) && s.used[s.order[start]] {
		start++
	}
	if start == len(s.order) {
		return true
	}
	a := s.order[start]
	s.used[a] = true
	for k := start + 1; k < len(s.order) && s.budget > 0; k++ {
		b := s.order[k]
		if s.used[b] || !s.allowed(a, b) {
			continue
		}
		s.budget--
		s.used[b] = true
		s.pairs = append(s.pairs, [2]int{a, b})
		if len(s.pairs) > len(s.best) {
			s.best = append(s.best[:0], s.pairs...)
		}
		if s.run(start + 1) {
			return true
		}
		s.pairs = s.pairs[:len(s.pairs)-1]
		s.used[b] = false
	}
	s.used[a] = false
	return false
}

// stuck is the entries the search could not pair: those with no allowed
// partner at all when there are any, else those left over by the deepest
// partial pairing it found.
func (s *searcher) stuck() []int {
	var alone []int
	for i, a := range s.order {
		ok := false
		for j, b := range s.order {
			if i != j && s.allowed(a, b) {
				ok = true
				break
			}
		}
		if !ok {
			alone = append(alone, a)
		}
	}
	if len(alone) > 0 {
		return alone
	}
	paired := make(map[int]bool, 2*len(s.best))
	for _, p := range s.best {
		paired[p[0]], paired[p[1]] = true, true
	}
	var left []int
	for _, a := range s.order {
		if !paired[a] {
			left = append(left, a)
		}
	}
	return left
}

// pairLevels pairs the entries of order, leaving out one of byeOrder when
// the count is odd, trying the levels from the strictest. The bye goes to
// the first of byeOrder's leading group (firstGroup entries: those with the
// fewest byes) that lets the rest be paired at the strictest level possible;
// only when none of them can, to one of the others. It returns the pairs in
// table order and the bye (-1 for none), or the positions it could not pair.
func pairLevels(n int, order, byeOrder []int, firstGroup int, levels []allowFunc) (pairs [][2]int, bye int, stuck []int) {
	passes := [][]int{{-1}}
	if len(order)%2 == 1 {
		passes = [][]int{limit(byeOrder[:firstGroup]), limit(byeOrder[firstGroup:])}
	}
	var failed *searcher
	for _, tries := range passes {
		for _, allowed := range levels {
			pairs, bye, s := pairLevel(n, order, tries, allowed)
			if s == nil {
				return pairs, bye, nil
			}
			if failed == nil {
				failed = s
			}
		}
	}
	if failed == nil {
		return nil, -1, order
	}
	return nil, -1, failed.stuck()
}

// pairLevel tries one level: for each bye candidate, the search in order;
// when none succeeds, the search again with the most constrained entries
// first (fewest allowed opponents, ties in order). The second search finds
// pairings the first misses within its budget when a constraint is tight
// (half the field from one club): it moves entries further from their place
// in the order, so it comes only after the first has failed.
func pairLevel(n int, order, tries []int, allowed allowFunc) (pairs [][2]int, bye int, failed *searcher) {
	for _, constrainedFirst := range []bool{false, true} {
		budget := searchBudget
		for _, b := range tries {
			rest := without(order, b)
			if constrainedFirst {
				rest = byDegree(n, rest, allowed)
			}
			s := newSearcher(rest, n, allowed, budget)
			if s.run(0) {
				return s.pairs, b, nil
			}
			budget = s.budget
			if failed == nil {
				failed = s
			}
			if budget <= 0 {
				break
			}
		}
	}
	return nil, -1, failed
}

// byDegree is order sorted by the number of entries of order each may meet,
// fewest first, stable.
func byDegree(n int, order []int, allowed allowFunc) []int {
	deg := make([]int, n)
	for i, a := range order {
		for _, b := range order[i+1:] {
			if allowed(a, b) {
				deg[a]++
				deg[b]++
			}
		}
	}
	out := append([]int(nil), order...)
	sort.SliceStable(out, func(i, j int) bool { return deg[out[i]] < deg[out[j]] })
	return out
}

func limit(s []int) []int {
	if len(s) > maxByeTries {
		return s[:maxByeTries]
	}
	return s
}

// fewestGroup is how many of byeOrder (sorted by byes) share the fewest.
func (x *index) fewestGroup(byeOrder []int) int {
	k := 0
	for k < len(byeOrder) && x.byes[byeOrder[k]] == x.byes[byeOrder[0]] {
		k++
	}
	return k
}

// without is order less position p (order itself when p < 0).
func without(order []int, p int) []int {
	if p < 0 {
		return order
	}
	out := make([]int, 0, len(order))
	for _, q := range order {
		if q != p {
			out = append(out, q)
		}
	}
	return out
}

// ids turns positions into entry ids.
func (x *index) idsOf(ps []int) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = x.ids[p]
	}
	return out
}

// roundOf numbers the pairs' tables in order and records the bye.
func (x *index) roundOf(pairs [][2]int, bye int) Round {
	r := Round{Tables: make([]Table, len(pairs))}
	for i, p := range pairs {
		r.Tables[i] = x.table(i+1, p[0], p[1])
	}
	if bye >= 0 {
		r.Byes = []int64{x.ids[bye]}
	}
	return r
}
