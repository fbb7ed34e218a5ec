package pairing

import "sort"

// Foursome is a table of an individual event: N and S partners against E
// and W partners.
type Foursome struct {
	Number int   `json:"number"`
	N      int64 `json:"n"`
	S      int64 `json:"s"`
	E      int64 `json:"e"`
	W      int64 `json:"w"`
}

// IndividualRound is the tables of a round of an individual event and the
// players who sit it out.
type IndividualRound struct {
	Tables []Foursome `json:"tables"`
	Byes   []int64    `json:"byes,omitempty"`
}

// IndividualField is what Individual pairs: the players, the rounds already
// played (oldest first) and the players who must not sit at one table.
type IndividualField struct {
	Players        []Entry
	History        []IndividualRound
	Forbidden      [][2]int64
	ForbidSameClub bool
}

// individualAttempts bounds the fresh shuffles Individual tries when the
// partnerships it formed cannot be seated.
const individualAttempts = 20

// Individual draws a round of an individual event (partners change each
// round). The method is a search, not a fixed schedule, so it works for any
// number of players: the players are shuffled with rnd; the n mod 4 with
// the fewest byes sit out (drawn among equals); the others are paired into
// partnerships with no repeated partner while that is possible (the
// backtracking search of the pairs movements); then partnerships are seated
// against each other with no repeated opponent while possible. Players who
// must not meet never share a table. Being greedy round by round, it does
// not plan ahead: late in a long event a repeat may become unavoidable that
// a fixed schedule would have avoided.
func Individual(f IndividualField, rnd Rand) (IndividualRound, error) {
	x, err := newIndividualIndex(f)
	if err != nil {
		return IndividualRound{}, err
	}
	var stuck []int
	for range individualAttempts {
		r, s, ok := x.attempt(rnd)
		if ok {
			return r, nil
		}
		stuck = s
	}
	return IndividualRound{}, errorf(CodeUnpairable, x.idsOf(stuck), "no seating keeps these players from a forbidden pair")
}

type individualIndex struct {
	*index
	partners map[pairKey]bool
}

func newIndividualIndex(f IndividualField) (*individualIndex, error) {
	x, err := newIndex(Field{Entries: f.Players, Forbidden: f.Forbidden, ForbidSameClub: f.ForbidSameClub}, 4)
	if err != nil {
		return nil, err
	}
	ix := &individualIndex{index: x, partners: make(map[pairKey]bool)}
	for _, r := range f.History {
		for _, t := range r.Tables {
			ix.partners[key(t.N, t.S)], ix.partners[key(t.E, t.W)] = true, true
			for _, a := range []int64{t.N, t.S} {
				for _, b := range []int64{t.E, t.W} {
					ix.met[key(a, b)]++
				}
			}
		}
		for _, id := range r.Byes {
			if i, ok := x.pos[id]; ok {
				x.byes[i]++
			}
		}
	}
	return ix, nil
}

// attempt is one shuffle: byes, partnerships, then tables.
func (x *individualIndex) attempt(rnd Rand) (IndividualRound, []int, bool) {
	order := make([]int, len(x.ids))
	for i := range order {
		order[i] = i
	}
	shuffle(rnd, order)
	sort.SliceStable(order, func(i, j int) bool { return x.byes[order[i]] < x.byes[order[j]] })
	sitOut := len(order) % 4
	byes, playing := order[:sitOut], append([]int(nil), order[sitOut:]...)
	shuffle(rnd, playing)

	fresh := func(a, b int) bool { return !x.partners[key(x.ids[a], x.ids[b])] && !x.isForbidden(a, b) }
	couples, _, stuck := pairLevels(len(x.ids), playing, nil, 0, []allowFunc{fresh, x.notForbidden})
	if stuck != nil {
		return IndividualRound{}, stuck, false
	}
	units := make([]int, len(couples))
	for i := range units {
		units[i] = i
	}
	newOpponents := func(a, b int) bool { return x.canFace(couples[a], couples[b], true) }
	anyOpponents := func(a, b int) bool { return x.canFace(couples[a], couples[b], false) }
	tables, _, stuckUnits := pairLevels(len(couples), units, nil, 0, []allowFunc{newOpponents, anyOpponents})
	if stuckUnits != nil {
		var players []int
		for _, u := range stuckUnits {
			players = append(players, couples[u][0], couples[u][1])
		}
		return IndividualRound{}, players, false
	}
	r := IndividualRound{Tables: make([]Foursome, len(tables))}
	for i, t := range tables {
		ns, ew := couples[t[0]], couples[t[1]]
		r.Tables[i] = Foursome{Number: i + 1, N: x.ids[ns[0]], S: x.ids[ns[1]], E: x.ids[ew[0]], W: x.ids[ew[1]]}
	}
	r.Byes = x.idsOf(byes)
	sort.Slice(r.Byes, func(i, j int) bool { return r.Byes[i] < r.Byes[j] })
	return r, nil, true
}

// canFace reports whether two partnerships may sit at one table: nobody
// forbidden to meet, and (fresh) nobody facing an earlier opponent.
func (x *individualIndex) canFace(p, q [2]int, fresh bool) bool {
	for _, a := range p {
		for _, b := range q {
			if x.isForbidden(a, b) || (fresh && x.met[key(x.ids[a], x.ids[b])] > 0) {
				return false
			}
		}
	}
	return true
}
