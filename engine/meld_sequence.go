package engine

import "math/bits"

// A sequence is worked on as positions 1 (low ace) … 13 (king), 14 (high
// ace), held as bits of a uint16: a natural card's identity follows from its
// position and the suit, so only the one wild card needs remembering.

const maxSeqLen = 14

func bit(p Rank) uint16 { return 1 << p }

// posCard returns the natural card of suit s at sequence position p.
func posCard(p Rank, s Suit) Card {
	if p == HighAce {
		return NewCard(Ace, s)
	}
	return NewCard(p, s)
}

// isSuitTwo reports whether c is the 2 of suit s (natural in the 2 position).
func isSuitTwo(c Card, s Suit) bool { return c.IsTwo() && c.Suit() == s }

// seqJob is a sequence to arrange: the naturals already fixed (an existing
// meld's), its wild, and the cards being added, by what they can become.
type seqJob struct {
	suit    Suit
	fixed   uint16 // positions of naturals that stay where they are
	nat     uint16 // positions of added naturals other than aces and 2s of the suit
	dup     bool   // an added natural repeats another
	aces    int    // added aces of the suit: each goes low (1) or high (14)
	twos    int    // added 2s of the suit: one may be natural at 2, the others are wild
	others  int    // added jokers and 2s of other suits: always wild
	other   Card   // one of those
	old     Card   // the existing meld's wild, or 0
	oldPos  Rank   // its position
	oldFree bool   // it stands at an end of the existing meld (not imprisoned)
	wildAs  Card   // the card the wild must stand for, or 0
}

// seqResult is an arrangement: positions lo..hi, the wild (if any) at wildPos.
// nat2 says a 2 of the suit is natural in the 2 position by this reading,
// replaced that the existing meld's wild was replaced by its card.
type seqResult struct {
	lo, hi   Rank
	wildPos  Rank
	wild     Card
	nat2     bool
	replaced bool
}

// add sorts an added card into the job.
func (j *seqJob) add(c Card) fail {
	switch {
	case !c.Valid():
		return failNotCard
	case c == Joker || (c.IsTwo() && c.Suit() != j.suit):
		j.others++
		j.other = c
	case c.Suit() != j.suit:
		return failSuit
	case c.Rank() == Two:
		j.twos++
	case c.Rank() == Ace:
		j.aces++
	default:
		b := bit(c.Rank())
		j.dup = j.dup || j.nat&b != 0
		j.nat |= b
	}
	return okay
}

// solve finds the preferred legal arrangement of the job (see NewMeld and
// Attach for the order of preference). On failure it says why: too many
// wilds when every reading needs two or more, else the first reason met.
//
// Attaching moves a wild only when it must (RULES §5): the readings that
// keep a free wild where it stands come first. A 2 of the suit standing as
// the wild, replaced by its card, becomes natural whenever a reading lets
// it: a wildAs that would keep it wild is refused.
func (j *seqJob) solve(mr MeldRules) (seqResult, fail) {
	r, f := j.solvePinned(mr)
	if f != okay || j.wildAs == 0 || r.nat2 || !isSuitTwo(j.old, j.suit) {
		return r, f
	}
	free := *j
	free.wildAs = 0
	if r2, f2 := free.solvePinned(mr); f2 == okay && r2.nat2 && r2.replaced {
		return seqResult{}, failWildAs
	}
	return r, okay
}

// solvePinned tries the readings that keep a free wild in place, then the
// others.
func (j *seqJob) solvePinned(mr MeldRules) (seqResult, fail) {
	if j.old != 0 && j.oldFree {
		pinned := *j
		pinned.oldFree = false
		if r, f := pinned.solveReadings(mr); f == okay {
			return r, okay
		}
	}
	return j.solveReadings(mr)
}

// solveReadings tries every reading (a 2 of the suit natural or not, each
// place of the added aces) in the order of preference.
func (j *seqJob) solveReadings(mr MeldRules) (seqResult, fail) {
	if j.dup || j.fixed&j.nat != 0 {
		return seqResult{}, failDup
	}
	var aceOpts [2]uint16
	nAce := 1
	switch j.aces {
	case 0:
	case 1:
		aceOpts, nAce = [2]uint16{bit(Ace), bit(HighAce)}, 2
	case 2:
		aceOpts[0] = bit(Ace) | bit(HighAce)
	default:
		return seqResult{}, failAces
	}
	oldIsTwo := isSuitTwo(j.old, j.suit)
	first, tooMany := okay, false
	for pass := 0; pass < 2; pass++ {
		nat2 := pass == 0
		if nat2 && j.twos == 0 && !oldIsTwo {
			continue
		}
		for a := 0; a < nAce; a++ {
			r, f := j.try(mr, aceOpts[a], nat2, oldIsTwo)
			switch {
			case f == okay:
				return r, okay
			case f == failTooManyWilds:
				tooMany = true
			case f != failNone && first == okay:
				first = f
			}
		}
	}
	switch {
	case first != okay:
		return seqResult{}, first
	case tooMany:
		return seqResult{}, failTooManyWilds
	}
	return seqResult{}, failDup
}

// try tests one reading: the added aces at aceBits, and whether a 2 of the
// suit is natural in the 2 position.
func (j *seqJob) try(mr MeldRules, aceBits uint16, nat2, oldIsTwo bool) (seqResult, fail) {
	occ := j.fixed | j.nat
	if occ&aceBits != 0 {
		return seqResult{}, failNone // an ace is there already: no such reading
	}
	occ |= aceBits
	if nat2 {
		if occ&bit(Two) != 0 {
			return seqResult{}, failNone // position 2 is taken: no such reading
		}
		occ |= bit(Two)
	}
	replaced := j.old != 0 && occ&bit(j.oldPos) != 0
	movable := j.old != 0 && (replaced || j.oldFree)
	twos, oldLeft := j.twos, j.old != 0
	if nat2 {
		switch {
		case twos > 0:
			twos--
		case movable && oldIsTwo:
			oldLeft = false
		default:
			return seqResult{}, failNone // no 2 may take the 2 position
		}
	}
	w := j.others + twos
	if oldLeft {
		w++
	}
	if w > 1 {
		return seqResult{}, failTooManyWilds
	}
	var r seqResult
	var f fail
	if oldLeft && !movable {
		r, f = j.placeFixed(mr, occ)
	} else {
		r, f = j.placeMovable(mr, occ, w, twos, oldLeft, replaced)
	}
	r.nat2, r.replaced = nat2, replaced
	return r, f
}

// placeMovable places the one wild of a reading (w wilds: 0 or 1), which
// may move: an added wild, or the existing meld's free or replaced wild.
func (j *seqJob) placeMovable(mr MeldRules, occ uint16, w, twos int, oldLeft, replaced bool) (seqResult, fail) {
	var wild Card
	switch {
	case w == 0:
	case j.others == 1:
		wild = j.other
	case twos == 1:
		wild = NewCard(Two, j.suit)
	default:
		wild = j.old
	}
	var stay Rank
	if oldLeft && !replaced {
		stay = j.oldPos
	}
	return j.place(mr, occ, wild, stay)
}

// span returns the bits of positions lo..hi.
func span(lo, hi Rank) uint16 { return (1<<(hi+1) - 1) &^ (1<<lo - 1) }

// bounds returns the lowest and highest position in occ (occ != 0).
func bounds(occ uint16) (lo, hi Rank) {
	return Rank(bits.TrailingZeros16(occ)), Rank(bits.Len16(occ) - 1)
}

// checkAces refuses natural aces at both ends where the rule set forbids it.
func checkAces(mr MeldRules, occ uint16) fail {
	if !mr.AceBothEnds && occ&bit(Ace) != 0 && occ&bit(HighAce) != 0 {
		return failBothAces
	}
	return okay
}

// placeFixed places an imprisoned wild that was not replaced: it stays.
func (j *seqJob) placeFixed(mr MeldRules, occ uint16) (seqResult, fail) {
	if f := checkAces(mr, occ); f != okay {
		return seqResult{}, f
	}
	all := occ | bit(j.oldPos)
	lo, hi := bounds(all)
	if all != span(lo, hi) {
		return seqResult{}, failGap
	}
	if j.wildAs != 0 && posCard(j.oldPos, j.suit) != j.wildAs {
		return seqResult{}, failWildAs
	}
	return seqResult{lo: lo, hi: hi, wildPos: j.oldPos, wild: j.old}, okay
}

// place places a movable wild (or none) around the naturals at occ: in the
// one gap; else where it stood (stay, 0 for none) if still at an end; else at
// the low end; else at the high end. wildAs filters the places.
func (j *seqJob) place(mr MeldRules, occ uint16, wild Card, stay Rank) (seqResult, fail) {
	if occ == 0 {
		return seqResult{}, failWildsOnly
	}
	if f := checkAces(mr, occ); f != okay {
		return seqResult{}, f
	}
	lo, hi := bounds(occ)
	gaps := span(lo, hi) &^ occ
	if wild == 0 {
		switch {
		case j.wildAs != 0:
			return seqResult{}, failWildAs
		case gaps != 0:
			return seqResult{}, failGap
		case hi-lo < 2:
			return seqResult{}, failShort
		}
		return seqResult{lo: lo, hi: hi}, okay
	}
	var cand [3]Rank
	n := 0
	switch {
	case gaps&(gaps-1) != 0:
		return seqResult{}, failGap
	case gaps != 0:
		cand[0], n = Rank(bits.TrailingZeros16(gaps)), 1
	default:
		if stay != 0 && (stay+1 == lo || stay == hi+1) {
			cand[n], n = stay, n+1
		}
		if lo > Ace {
			cand[n], n = lo-1, n+1
		}
		if hi < HighAce {
			cand[n], n = hi+1, n+1
		}
	}
	f := failNoRoom
	for _, p := range cand[:n] {
		switch {
		case p == Two && isSuitTwo(wild, j.suit):
			continue // there it is natural: another reading
		case j.wildAs != 0 && posCard(p, j.suit) != j.wildAs:
			f = failWildAs
			continue
		}
		nlo, nhi := min(lo, p), max(hi, p)
		if nhi-nlo < 2 {
			return seqResult{}, failShort
		}
		return seqResult{lo: nlo, hi: nhi, wildPos: p, wild: wild}, okay
	}
	return seqResult{}, f
}

// build returns the meld of an arrangement.
func (j *seqJob) build(r seqResult) Meld {
	cards := make([]Card, r.hi-r.lo+1)
	m := Meld{Kind: Sequence, Cards: cards, Wild: -1, Suit: j.suit, Low: r.lo}
	for i := range cards {
		p := r.lo + Rank(i)
		if p == r.wildPos {
			cards[i], m.Wild = r.wild, i
		} else {
			cards[i] = posCard(p, j.suit)
		}
	}
	return m
}

// checkWildAs refuses a wildAs that cannot name a place in a sequence of s.
func checkWildAs(wildAs Card, s Suit) fail {
	if wildAs != 0 && (!wildAs.Valid() || wildAs.Suit() != s) {
		return failWildAs
	}
	return okay
}

// newSeq arranges cards (naturals of suit s) as a new sequence.
func newSeq(mr MeldRules, cards []Card, s Suit, wildAs Card) (Meld, fail) {
	if f := checkWildAs(wildAs, s); f != okay {
		return Meld{}, f
	}
	j := seqJob{suit: s, wildAs: wildAs}
	for _, c := range cards {
		if f := j.add(c); f != okay {
			return Meld{}, f
		}
	}
	r, f := j.solve(mr)
	if f != okay {
		return Meld{}, f
	}
	return j.build(r), okay
}

// readSeq reads cards as a sequence of suit s whose first card stands at
// position low, returning the natural positions and the wild's index (-1).
func readSeq(mr MeldRules, cards []Card, low Rank, s Suit) (occ uint16, wild int, f fail) {
	wild = -1
	switch {
	case len(cards) < 3:
		return 0, -1, failShort
	case s >= NoSuit || low < Ace || int(low)+len(cards)-1 > int(HighAce):
		return 0, -1, failOrder
	}
	for i, c := range cards {
		p := low + Rank(i)
		switch {
		case !c.Valid():
			return 0, -1, failNotCard
		case c == Joker || (c.IsTwo() && (c.Suit() != s || p != Two)):
			if wild >= 0 {
				return 0, -1, failTooManyWilds
			}
			wild = i
		case c.Suit() != s:
			return 0, -1, failSuit
		case c.Rank() == p || (c.Rank() == Ace && p == HighAce):
			occ |= bit(p)
		default:
			return 0, -1, failOrder
		}
	}
	return occ, wild, checkAces(mr, occ)
}

// loadSeq reads cards as a sequence in notation; c describes them.
func loadSeq(mr MeldRules, cards []Card, c cardsInfo) (Meld, fail) {
	var lows [2]int
	lows[0] = int(c.rank) - c.first
	n := 1
	if c.rank == Ace {
		lows[1], n = int(HighAce)-c.first, 2
	}
	f := failOrder
	for _, low := range lows[:n] {
		if low < int(Ace) || low > int(HighAce) {
			continue
		}
		var w int
		if _, w, f = readSeq(mr, cards, Rank(low), c.suit); f == okay {
			cs := make([]Card, len(cards))
			copy(cs, cards)
			return Meld{Kind: Sequence, Cards: cs, Wild: w, Suit: c.suit, Low: Rank(low)}, okay
		}
	}
	return Meld{}, f
}

// attachSeq adds cards to the sequence m.
func (m Meld) attachSeq(mr MeldRules, cards []Card, wildAs Card) (Meld, fail) {
	n := len(m.Cards)
	if n+len(cards) > maxSeqLen {
		return Meld{}, failLong
	}
	occ, wild, f := readSeq(mr, m.Cards, m.Low, m.Suit)
	if f != okay || wild != m.Wild || m.SetRank != NoRank {
		return Meld{}, failBadMeld
	}
	if f := checkWildAs(wildAs, m.Suit); f != okay {
		return Meld{}, f
	}
	j := seqJob{suit: m.Suit, fixed: occ, wildAs: wildAs}
	if wild >= 0 {
		j.old, j.oldPos, j.oldFree = m.Cards[wild], m.Low+Rank(wild), wild == 0 || wild == n-1
	}
	for _, c := range cards {
		if f := j.add(c); f != okay {
			return Meld{}, f
		}
	}
	r, f := j.solve(mr)
	if f == okay {
		return j.build(r), okay
	}
	if wild < 0 && m.Low == Two {
		if r, ok := j.moveLowTwo(mr); ok {
			return j.build(r), okay
		}
	}
	if j.old != 0 && !j.oldFree {
		// Would it work were the imprisoned wild replaced? Then the wild is locked.
		relaxed := j
		relaxed.fixed |= bit(j.oldPos)
		if _, rf := relaxed.solve(mr); rf == okay {
			return Meld{}, failWildLocked
		}
	}
	return Meld{}, f
}

// moveLowTwo tries the exception for a natural 2 at the low end of a
// sequence with no wild and no ace below it (RULES §5, after seed 000's
// end pinella): when the added cards do not fit with the 2 in place, the 2
// may move to stand for the card a new end card needs, the meld turning
// dirty. It only fills a gap: a card that fits naturally keeps it natural
// (that arrangement is tried first, by the caller), and a wildAs cannot send
// it to an end.
func (j seqJob) moveLowTwo(mr MeldRules) (seqResult, bool) {
	j.fixed &^= bit(Two)
	j.twos++
	r, f := j.solve(mr)
	if f != okay || r.nat2 || !isSuitTwo(r.wild, j.suit) || r.wildPos <= r.lo || r.wildPos >= r.hi {
		return seqResult{}, false
	}
	return r, true
}
