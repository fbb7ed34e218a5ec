package pairing

// seatAttempts bounds SeatRoundRobin's local search (swaps tried).
const seatAttempts = 20_000

// SeatRoundRobin orders the entries for a round robin of only rounds rounds
// (fewer than a full cycle), so that no forbidden pair meets in those
// rounds: RoundRobin then plays the returned order. It starts from the
// entries' order and swaps entries of a pair that meets too early with
// others (a bounded local search drawing from rnd), keeping a swap that
// does not add meetings. When it cannot, it fails with CodeForbidden naming
// the pairs that still meet. A full round robin (rounds ≥ n−1) cannot keep
// anyone apart.
func SeatRoundRobin(f Field, rounds int, rnd Rand) ([]Entry, error) {
	x, err := newIndex(f, 2)
	if err != nil {
		return nil, err
	}
	seat := make([]int, len(x.ids)) // seat[circle position] = entry position
	for i := range seat {
		seat[i] = i
	}
	m := len(seat) + len(seat)%2
	clashes := func() [][2]int { return x.clashes(seat, m, rounds) }
	c := clashes()
	for try := 0; len(c) > 0 && try < seatAttempts; try++ {
		p := c[rnd.IntN(len(c))][rnd.IntN(2)]
		q := rnd.IntN(len(seat))
		seat[p], seat[q] = seat[q], seat[p]
		if next := clashes(); len(next) <= len(c) {
			c = next
		} else {
			seat[p], seat[q] = seat[q], seat[p]
		}
	}
	if len(c) > 0 {
		var met []int64
		for _, pq := range c {
			met = append(met, x.ids[seat[pq[0]]], x.ids[seat[pq[1]]])
		}
		return nil, errorf(CodeForbidden, met, "no order keeps these pairs apart for %d rounds", rounds)
	}
	out := make([]Entry, len(seat))
	for p, i := range seat {
		out[p] = f.Entries[i]
	}
	return out, nil
}

// clashes is the circle positions of the forbidden pairs that meet within
// the first rounds rounds.
func (x *index) clashes(seat []int, m, rounds int) [][2]int {
	var out [][2]int
	for a := range seat {
		for b := a + 1; b < len(seat); b++ {
			if x.isForbidden(seat[a], seat[b]) && meetRound(a, b, m) <= rounds {
				out = append(out, [2]int{a, b})
			}
		}
	}
	return out
}

// meetRound is the round (1-based, within the first cycle) in which the
// entries at circle positions a < b meet under RoundRobin with m places
// (m even). Place 0 meets the place holding position rr (mod m−1) in round
// rr+1; positions a, b ≥ 1 meet when a+b ≡ 2·rr (mod m−1), and m/2 is the
// inverse of 2 modulo m−1.
func meetRound(a, b, m int) int {
	if a == 0 {
		return b%(m-1) + 1
	}
	return (a+b)*(m/2)%(m-1) + 1
}
