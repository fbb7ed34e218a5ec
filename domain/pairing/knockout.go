package pairing

import "sort"

// Bracket is a knockout draw: one slot per place in the bracket, in bracket
// order, 0 for an empty slot (its neighbour has a bye). Slots 2i and 2i+1
// meet; the winner takes slot i of the next round's bracket.
type Bracket struct {
	Slots []int64 `json:"slots"`
}

// SeedBracket is the first round of a knockout: the bracket is the next
// power of two, seeds placed the usual way (1 and 2 can only meet in the
// final; seed s meets seed size+1−s in the first round), so the byes of a
// field that isn't a power of two go to the top seeds. Entries are taken by
// Seed (unseeded last, in entry order). Forbidden pairs are not considered:
// a knockout follows its seeding.
func SeedBracket(entries []Entry) (Bracket, error) {
	x, err := newIndex(Field{Entries: entries}, 2)
	if err != nil {
		return Bracket{}, err
	}
	bySeed := append([]Entry(nil), entries...)
	sort.SliceStable(bySeed, func(i, j int) bool {
		si, sj := bySeed[i].Seed, bySeed[j].Seed
		return si != 0 && (sj == 0 || si < sj)
	})
	size := 2
	for size < len(x.ids) {
		size *= 2
	}
	b := Bracket{Slots: make([]int64, size)}
	for i, s := range seedOrder(size) {
		if s <= len(bySeed) {
			b.Slots[i] = bySeed[s-1].ID
		}
	}
	return b, nil
}

// seedOrder is the seed at each slot of a bracket of size (a power of two):
// [1 2], [1 4 2 3], [1 8 4 5 2 7 3 6], …
func seedOrder(size int) []int {
	order := []int{1}
	for n := 2; n <= size; n *= 2 {
		next := make([]int, 0, n)
		for _, s := range order {
			next = append(next, s, n+1-s)
		}
		order = next
	}
	return order
}

// Round is the tables of the bracket's round, and the byes.
func (b Bracket) Round() Round {
	var r Round
	for i := 0; i+1 < len(b.Slots); i += 2 {
		a, c := b.Slots[i], b.Slots[i+1]
		switch {
		case a != 0 && c != 0:
			r.Tables = append(r.Tables, Table{Number: len(r.Tables) + 1, NS: a, EW: c})
		case a != 0:
			r.Byes = append(r.Byes, a)
		case c != 0:
			r.Byes = append(r.Byes, c)
		}
	}
	return r
}

// Advance is the next round's bracket: the winner of each table (tie-break
// deals decide a drawn match, RULES §10, before it gets here) and each bye
// go through. Every table needs exactly one of its two entries in winners,
// and winners must hold nobody else.
func (b Bracket) Advance(winners []int64) (Bracket, error) {
	if len(b.Slots) < 2 {
		return Bracket{}, errorf(CodeBadResult, nil, "the knockout is over")
	}
	won := make(map[int64]bool, len(winners))
	for _, w := range winners {
		won[w] = true
	}
	next := Bracket{Slots: make([]int64, len(b.Slots)/2)}
	var bad []int64
	for i := range next.Slots {
		a, c := b.Slots[2*i], b.Slots[2*i+1]
		switch {
		case a != 0 && c != 0 && won[a] != won[c]:
			next.Slots[i] = map[bool]int64{true: a, false: c}[won[a]]
		case a != 0 && c != 0:
			bad = append(bad, a, c)
		case a != 0:
			next.Slots[i] = a
		default:
			next.Slots[i] = c
		}
		delete(won, a)
		delete(won, c)
	}
	for w := range won {
		bad = append(bad, w)
	}
	if bad != nil {
		sort.Slice(bad, func(i, j int) bool { return bad[i] < bad[j] })
		return Bracket{}, errorf(CodeBadResult, bad, "each table needs exactly one winner, and only entries of the round can win")
	}
	return next, nil
}

// Champion is the winner once one slot is left.
func (b Bracket) Champion() (int64, bool) {
	if len(b.Slots) == 1 && b.Slots[0] != 0 {
		return b.Slots[0], true
	}
	return 0, false
}
