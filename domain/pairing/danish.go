package pairing

import "sort"

// Danish pairs a round by standings (pure Danish, RULES §10): 1–2, 3–4, …
// Rematches are allowed; forbidden pairs are not, and an entry that may not
// meet its neighbour meets the nearest one it may. With an odd field the bye
// goes to the lowest-ranked entry among those with the fewest byes.
func Danish(f Field) (Round, error) {
	x, err := newIndex(f, 2)
	if err != nil {
		return Round{}, err
	}
	return x.danish(f.Standings, []allowFunc{x.notForbidden})
}

// ModifiedDanish pairs a round as RULES §10's modified Danish: by
// standings, with no rematch of the previous round (older meetings are
// allowed and not avoided); the last round (last) is paired as pure
// Danish, rematches included. Forbidden pairs never meet.
func ModifiedDanish(f Field, last bool) (Round, error) {
	x, err := newIndex(f, 2)
	if err != nil {
		return Round{}, err
	}
	if last {
		return x.danish(f.Standings, []allowFunc{x.notForbidden})
	}
	return x.danish(f.Standings, []allowFunc{x.notLastOpponent})
}

// ModifiedDanishAvoidingRepeats is the stricter variant an event may choose
// (its avoid_repeat_opponents setting), beyond RULES §10: it avoids every
// earlier opponent while it can, then allows older rematches but never the
// previous round's opponent, except in the last round (last), where that
// too gives way. Forbidden pairs never meet.
func ModifiedDanishAvoidingRepeats(f Field, last bool) (Round, error) {
	x, err := newIndex(f, 2)
	if err != nil {
		return Round{}, err
	}
	levels := []allowFunc{x.noRematch, x.notLastOpponent}
	if last {
		levels = append(levels, x.notForbidden)
	}
	return x.danish(f.Standings, levels)
}

func (x *index) danish(standings []int64, levels []allowFunc) (Round, error) {
	order := x.order(standings)
	byes := x.byeOrder(order)
	pairs, bye, stuck := pairLevels(len(x.ids), order, byes, x.fewestGroup(byes), levels)
	if stuck != nil {
		return Round{}, errorf(CodeUnpairable, x.idsOf(stuck), "no pairing keeps these entries from a forbidden pair or a rematch the movement refuses")
	}
	return x.roundOf(pairs, bye), nil
}

// byeOrder is who gets the bye first: the fewest byes, then the lowest in
// order (the last of the standings).
func (x *index) byeOrder(order []int) []int {
	out := make([]int, len(order))
	for i := range order {
		out[i] = order[len(order)-1-i]
	}
	sort.SliceStable(out, func(i, j int) bool { return x.byes[out[i]] < x.byes[out[j]] })
	return out
}

func (x *index) notForbidden(a, b int) bool { return !x.isForbidden(a, b) }

func (x *index) noRematch(a, b int) bool {
	return x.met[key(x.ids[a], x.ids[b])] == 0 && !x.isForbidden(a, b)
}

func (x *index) notLastOpponent(a, b int) bool {
	return !x.lastRound[key(x.ids[a], x.ids[b])] && !x.isForbidden(a, b)
}
