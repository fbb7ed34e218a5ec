package pairing

// RoundRobin seats round (1-based) of a round robin (all'italiana) by the
// circle method: the first entry stays, the others turn one place each
// round, so in n−1 rounds (n even; an odd field adds a phantom whose
// opponent has the bye) every two entries meet once. Rounds beyond that
// start the cycle again (a double round robin).
//
// The schedule is fixed by the entries' order. In a full round robin every
// pair meets, so a forbidden pair cannot be avoided: a round that puts one
// together fails with CodeForbidden (the referee reorders the entries or
// lets them play). For a partial round robin, SeatRoundRobin finds an order
// of the entries in which forbidden pairs meet only after the rounds played.
func RoundRobin(f Field, round int) (Round, error) {
	x, err := newIndex(f, 2)
	if err != nil {
		return Round{}, err
	}
	if round < 1 {
		return Round{}, errorf(CodeBadRound, nil, "round %d: rounds start at 1", round)
	}
	n := len(x.ids)
	m := n + n%2 // with the phantom, position n
	rr := (round - 1) % (m - 1)
	at := func(p int) int { // entry position at circle place p
		if p == 0 {
			return 0
		}
		return 1 + (p-1+rr)%(m-1)
	}
	var r Round
	var met []int64
	for i := range m / 2 {
		a, b := at(i), at(m-1-i)
		if b == n || a == n {
			r.Byes = append(r.Byes, x.ids[min(a, b)])
			continue
		}
		if (i+rr)%2 == 1 { // alternate the seats
			a, b = b, a
		}
		if x.isForbidden(a, b) {
			met = append(met, x.ids[a], x.ids[b])
		}
		r.Tables = append(r.Tables, Table{Number: len(r.Tables) + 1, NS: x.ids[a], EW: x.ids[b]})
	}
	if met != nil {
		return Round{}, errorf(CodeForbidden, met, "forbidden pairs meet in round %d of the round robin", round)
	}
	return r, nil
}
