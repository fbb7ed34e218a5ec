package pairing

import "sort"

// RandomDraw draws a round at random from rnd: no forbidden pair, no rematch
// while one can be avoided. With an odd field the bye goes to an entry drawn
// among those with the fewest byes.
func RandomDraw(f Field, rnd Rand) (Round, error) {
	x, err := newIndex(f, 2)
	if err != nil {
		return Round{}, err
	}
	order := make([]int, len(x.ids))
	for i := range order {
		order[i] = i
	}
	shuffle(rnd, order)
	byes := append([]int(nil), order...)
	sort.SliceStable(byes, func(i, j int) bool { return x.byes[byes[i]] < x.byes[byes[j]] })
	pairs, bye, stuck := pairLevels(len(x.ids), order, byes, x.fewestGroup(byes), []allowFunc{x.noRematch, x.notForbidden})
	if stuck != nil {
		return Round{}, errorf(CodeUnpairable, x.idsOf(stuck), "no draw keeps these entries from a forbidden pair")
	}
	return x.roundOf(pairs, bye), nil
}
