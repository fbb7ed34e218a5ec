package engine

import (
	"math/bits"
	"slices"
)

// The complete search behind Summary: does a legal meld, attach or fechado
// pickup exist? It works on multisets of cards (counts by card value) and
// hands every move it settles on to check, the one place that decides, so it
// never reports a move that check refuses. It is complete because it
// proposes, up to cards that are interchangeable, every meld the cards allow:
//
//   - every set of each permitted rank (each choice of naturals by suit, with
//     no wild or each kind of wild: joker, 2 of each suit; jokers only in a
//     fechado set of 2s), except ranks the team already has a set of;
//   - every sequence window of each suit (positions A=1 … K=13, high ace 14,
//     the suit's 2 natural at 2) in which at most one position is not filled
//     by a natural card: that one, or any one when all are, holds a wild of
//     each available kind; both aces natural only where the rule set allows.
//
// Any meld of four or more cards contains a legal meld of three (a window of
// three positions, or three cards of the set), so a player with two cards to
// spare can meld iff a three-card meld exists; the search looks at larger
// melds only when the hand is small (must_keep_card) or when a vulnerable
// team's first melds must reach 75 points (RULES §9), where it searches the
// combinations of disjoint melds, richest first, pruned by the points still
// reachable.

// cardSet is a multiset of cards counted by card value (the joker is 64).
type cardSet [Joker + 1]uint8

func (s *cardSet) add(cs []Card) {
	for _, c := range cs {
		s[c]++
	}
}

// wildKinds are the cards that can be a meld's wild.
var wildKinds = [...]Card{Joker, NewCard(Two, Spades), NewCard(Two, Hearts), NewCard(Two, Diamonds), NewCard(Two, Clubs)}

// meldEnum proposes melds from a pool of cards; yield gets each (in a
// buffer it may not keep) and returns false to stop.
type meldEnum struct {
	mr     MeldRules
	pool   *cardSet
	noSet  uint16 // bit r: the team already has a set of rank r
	maxLen int
	buf    [maxSeqLen]Card
	yield  func(cards []Card, setRank Rank) bool
}

// run proposes every meld; it returns false when yield stopped it.
func (e *meldEnum) run() bool {
	for s := Spades; s < NoSuit; s++ {
		if !e.seqs(s) {
			return false
		}
	}
	for r := Ace; r <= King; r++ {
		if !e.sets(r) {
			return false
		}
	}
	return true
}

func (e *meldEnum) sets(r Rank) bool {
	if e.noSet&(1<<r) != 0 || setPermitted(e.mr, r) != okay {
		return true
	}
	var k [NoSuit]uint8
	for s := range k {
		k[s] = min(e.pool[NewCard(r, Suit(s))], 2)
	}
	for a := range k[0] + 1 {
		for b := range k[1] + 1 {
			for c := range k[2] + 1 {
				for d := range k[3] + 1 {
					if !e.set(r, [NoSuit]uint8{a, b, c, d}) {
						return false
					}
				}
			}
		}
	}
	return true
}

// set proposes the set of rank r with n[s] naturals of each suit s, without
// and with each kind of wild.
func (e *meldEnum) set(r Rank, n [NoSuit]uint8) bool {
	k := 0
	for s, m := range n {
		for range m {
			e.buf[k] = NewCard(r, Suit(s))
			k++
		}
	}
	if k < 2 || k > e.maxLen || k > maxSetNaturals {
		return true
	}
	if k >= 3 && !e.yield(e.buf[:k], r) {
		return false
	}
	if k+1 > e.maxLen {
		return true
	}
	for _, w := range wildKinds {
		if e.pool[w] == 0 || (r == Two && w != Joker) {
			continue
		}
		e.buf[k] = w
		if !e.yield(e.buf[:k+1], r) {
			return false
		}
	}
	return true
}

func (e *meldEnum) seqs(s Suit) bool {
	var avail [HighAce + 1]uint8
	for p := Ace; p <= King; p++ {
		avail[p] = e.pool[NewCard(p, s)]
	}
	avail[HighAce] = avail[Ace]
	for a := Ace; a+2 <= HighAce; a++ {
		missing, hole := 0, NoRank
		for b := a; b <= HighAce && int(b-a) < min(e.maxLen, maxSeqLen); b++ {
			if avail[b] == 0 {
				missing, hole = missing+1, b
			}
			if missing > 1 {
				break
			}
			if b-a >= 2 && !e.window(s, a, b, hole) {
				return false
			}
		}
	}
	return true
}

// window proposes the sequences of suit s on positions a..b: with the wild
// at hole when a position lacks its natural, else all natural and with a
// wild at each position in turn.
func (e *meldEnum) window(s Suit, a, b, hole Rank) bool {
	if hole != NoRank {
		return e.withWild(s, a, b, hole)
	}
	if e.acesOK(s, a, b, NoRank) && !e.yield(e.naturals(s, a, b, NoRank), NoRank) {
		return false
	}
	for h := a; h <= b; h++ {
		if !e.withWild(s, a, b, h) {
			return false
		}
	}
	return true
}

// acesOK reports whether the naturals of a..b but hole have the aces they
// need, and may hold both where the rule set allows it.
func (e *meldEnum) acesOK(s Suit, a, b, hole Rank) bool {
	n := uint8(0)
	for _, p := range [2]Rank{Ace, HighAce} {
		if a <= p && p <= b && p != hole {
			n++
		}
	}
	return n <= e.pool[NewCard(Ace, s)] && (n < 2 || e.mr.AceBothEnds)
}

// naturals fills the buffer with the naturals of positions a..b but hole.
func (e *meldEnum) naturals(s Suit, a, b, hole Rank) []Card {
	k := 0
	for p := a; p <= b; p++ {
		if p != hole {
			e.buf[k] = posCard(p, s)
			k++
		}
	}
	return e.buf[:k]
}

func (e *meldEnum) withWild(s Suit, a, b, hole Rank) bool {
	if !e.acesOK(s, a, b, hole) {
		return true
	}
	two := NewCard(Two, s)
	for _, w := range wildKinds {
		var used uint8
		if w == two && a <= Two && Two <= b && hole != Two {
			used = 1 // one 2 of the suit is the natural at 2
		}
		if e.pool[w] <= used || (w == two && hole == Two) {
			continue
		}
		cs := e.naturals(s, a, b, hole)
		cs = append(cs, w)
		if !e.yield(cs, NoRank) {
			return false
		}
	}
	return true
}

// searchMode is the kind of move a meldSearch builds.
type searchMode uint8

const (
	searchHand   searchMode = iota // melds from the hand
	searchRow                      // fibur-row: the row card and two hand cards, then melds from the hand
	searchPickup                   // fechado: the pile's top card with pool cards, then more melds
)

// meldOpt is a proposed meld: cards arena[at:at+n], worth pts.
type meldOpt struct {
	at, n   int
	pts     int
	setRank Rank
	mask    uint64 // the card values it uses (cardBit)
}

// meldSearch looks for a legal move that lays new melds.
type meldSearch struct {
	g     *Game
	seat  int
	mode  searchMode
	req   Card // the card the first meld must hold (row card, pile top), 0 for none
	need  int  // points the new melds must reach together (0: no minimum)
	noSet uint16
	pool  cardSet
	left  cardSet // pool cards not in the chosen melds
	opts  []meldOpt
	arena []Card
	pick  []int            // chosen options; the first holds req
	after []uint64         // after[i]: the cards used by opts[i:]
	value [Joker + 1]int16 // card points
	found Move
}

func cardBit(c Card) uint64 {
	if c == Joker {
		return 1
	}
	return 1 << (c & 63)
}

// newMeldSearch prepares a search for seat, whose team may lay melds from
// pool (req, when not 0, is a card of pool the first meld must hold).
func (g *Game) newMeldSearch(seat int, mode searchMode, pool [][]Card, req Card) *meldSearch {
	s := &meldSearch{g: g, seat: seat, mode: mode, req: req}
	team := g.rules.Team(seat)
	for _, p := range pool {
		s.pool.add(p)
	}
	for _, m := range g.melds[team] {
		if m.Kind == Set {
			s.noSet |= 1 << m.SetRank
		}
	}
	if len(g.melds[team]) == 0 && g.vulnerable(team) {
		s.need = 75
	}
	return s
}

// run reports whether a legal move exists; found is one.
func (s *meldSearch) run() bool {
	if s.need > 0 {
		return s.combined()
	}
	// Without a minimum one meld is enough: a move with more melds is legal
	// only if its first meld alone is (it leaves more cards in the hand).
	seen := false
	for _, maxLen := range [2]int{3, maxSeqLen} {
		e := meldEnum{mr: s.g.mr, pool: &s.pool, noSet: s.noSet, maxLen: maxLen}
		e.yield = func(cs []Card, _ Rank) bool {
			if !s.firstOK(cs) {
				return true
			}
			seen = true
			return !s.try([][]Card{cs})
		}
		if !e.run() {
			return true
		}
		if !seen {
			return false // no meld of three: no meld at all
		}
	}
	return false
}

// firstOK reports whether cs may be the first meld of the move.
func (s *meldSearch) firstOK(cs []Card) bool {
	if s.req == 0 {
		return true
	}
	return slices.Contains(cs, s.req) && (s.mode != searchRow || len(cs) == 3)
}

// try checks the move laying melds (the first holding req); the melds'
// cards are copied.
func (s *meldSearch) try(melds [][]Card) bool {
	m := Move{Kind: MeldCards}
	if s.mode == searchPickup {
		m.Kind = Pickup
	}
	first := slices.Clone(melds[0])
	if s.req != 0 {
		i := slices.Index(first, s.req)
		first = slices.Delete(first, i, i+1)
		m.Row = s.mode == searchRow
	}
	var more [][]Card
	for _, cs := range melds[1:] {
		more = append(more, slices.Clone(cs))
	}
	if len(more) > 0 && s.req == 0 {
		m.Melds = append([][]Card{first}, more...)
	} else {
		m.Cards, m.Melds = first, more
	}
	if _, err := s.g.check(s.seat, m); err != nil {
		return false
	}
	s.found = m
	return true
}

// combined searches the combinations of disjoint melds worth s.need.
func (s *meldSearch) combined() bool {
	for c := range s.value {
		if Card(c).Valid() {
			s.value[c] = int16(s.g.rules.CardPoints(Card(c)))
		}
	}
	e := meldEnum{mr: s.g.mr, pool: &s.pool, noSet: s.noSet, maxLen: maxSeqLen}
	e.yield = func(cs []Card, r Rank) bool {
		o := meldOpt{at: len(s.arena), n: len(cs), setRank: r}
		for _, c := range cs {
			o.pts += int(s.value[c])
			o.mask |= cardBit(c)
		}
		s.arena = append(s.arena, cs...)
		s.opts = append(s.opts, o)
		return true
	}
	e.run()
	slices.SortStableFunc(s.opts, func(a, b meldOpt) int { return b.pts - a.pts })
	s.after = make([]uint64, len(s.opts)+1)
	for i := len(s.opts) - 1; i >= 0; i-- {
		s.after[i] = s.after[i+1] | s.opts[i].mask
	}
	s.left = s.pool
	return s.reach(0) >= s.need && s.dfs(true, 0, 0)
}

// reach is the most points the options from i on could still add.
func (s *meldSearch) reach(i int) int {
	n := 0
	for m := s.after[i]; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		c := Card(b)
		if b == 0 {
			c = Joker
		}
		n += int(s.left[c]) * int(s.value[c])
	}
	return n
}

func (s *meldSearch) cards(o *meldOpt) []Card { return s.arena[o.at : o.at+o.n] }

// fits reports whether the option's cards are left and it lays no second
// set of a rank.
func (s *meldSearch) fits(o *meldOpt) bool {
	if o.setRank != NoRank {
		for _, i := range s.pick {
			if s.opts[i].setRank == o.setRank {
				return false
			}
		}
	}
	var need cardSet
	for _, c := range s.cards(o) {
		need[c]++
		if need[c] > s.left[c] {
			return false
		}
	}
	return true
}

func (s *meldSearch) use(o *meldOpt, sign int) {
	for _, c := range s.cards(o) {
		s.left[c] = uint8(int(s.left[c]) - sign)
	}
}

// dfs adds options from start on (an option may be chosen twice: two
// decks) to the chosen melds worth pts.
func (s *meldSearch) dfs(first bool, start, pts int) bool {
	for i := start; i < len(s.opts); i++ {
		o := &s.opts[i]
		if !first && pts+s.reach(i) < s.need {
			return false
		}
		if first && !s.firstOK(s.cards(o)) || !s.fits(o) {
			continue
		}
		s.use(o, 1)
		s.pick = append(s.pick, i)
		p := pts + o.pts
		next := i
		if first && s.req != 0 {
			next = 0 // the first meld is apart: the others may come before it
		}
		if p >= s.need && s.tryPick() || s.dfs(false, next, p) {
			return true
		}
		s.pick = s.pick[:len(s.pick)-1]
		s.use(o, -1)
	}
	return false
}

func (s *meldSearch) tryPick() bool {
	melds := make([][]Card, len(s.pick))
	for k, i := range s.pick {
		melds[k] = s.cards(&s.opts[i])
	}
	return s.try(melds)
}

// findMeld returns a legal move laying new melds from the hand (or, in
// fibur-row, with the next row card), if one exists.
func (g *Game) findMeld(seat int) (Move, bool) {
	if g.phase != PhasePlay {
		return Move{}, false
	}
	hand := g.hands[seat]
	if s := g.newMeldSearch(seat, searchHand, [][]Card{hand}, 0); s.run() {
		return s.found, true
	}
	if seat < len(g.rows) && len(g.rows[seat]) > 0 {
		r := g.rows[seat][:1]
		if s := g.newMeldSearch(seat, searchRow, [][]Card{hand, r}, r[0]); s.run() {
			return s.found, true
		}
	}
	return Move{}, false
}

// findPickupMeld returns a legal fechado pickup that lays the pile's top
// card in a new meld, if one exists.
func (g *Game) findPickupMeld(seat int) (Move, bool) {
	if g.phase != PhaseTake || g.rules.ID != Fechado || len(g.pile) == 0 {
		return Move{}, false
	}
	top := g.pile[len(g.pile)-1]
	s := g.newMeldSearch(seat, searchPickup, [][]Card{g.hands[seat], g.pile}, top)
	if s.run() {
		return s.found, true
	}
	return Move{}, false
}

// findAttach returns a legal attach, if one exists. A card that fits a meld
// alone is found by trying each card; more cards at once matter only to a
// hand of two or three (the card that would be left could not be kept), so
// those hands try every choice of cards.
func (g *Game) findAttach(seat int) (Move, bool) {
	if g.phase != PhasePlay {
		return Move{}, false
	}
	team := g.rules.Team(seat)
	ms := g.melds[team]
	ok := func(m Move) bool { _, err := g.check(seat, m); return err == nil }
	if seat < len(g.rows) && len(g.rows[seat]) > 0 {
		for i := range ms {
			if m := (Move{Kind: AttachCards, Meld: i, Row: true}); ok(m) {
				return m, true
			}
		}
	}
	hand := g.hands[seat]
	if len(hand) <= 3 {
		for set := 1; set < 1<<len(hand); set++ {
			var cs []Card
			for i, c := range hand {
				if set&(1<<i) != 0 {
					cs = append(cs, c)
				}
			}
			for i := range ms {
				if m := AttachMove(i, cs...); ok(m) {
					return m, true
				}
			}
		}
		return Move{}, false
	}
	for k, c := range hand {
		if slices.Contains(hand[:k], c) {
			continue
		}
		for i := range ms {
			if mightFit(ms[i], c) {
				if m := AttachMove(i, c); ok(m) {
					return m, true
				}
			}
		}
	}
	return Move{}, false
}

// mightFit is a quick test that c alone could be attached to m: a wild, a
// card of a set's rank, or a card of a sequence's suit within two places of
// it (the farthest a single card reaches: past a free wild that slides).
func mightFit(m Meld, c Card) bool {
	switch {
	case c.IsWildCard():
		return true
	case m.Kind == Set:
		return c.Rank() == m.SetRank
	case c.Suit() != m.Suit:
		return false
	}
	near := func(p Rank) bool { return p+2 >= m.Low && p <= m.High()+2 }
	return near(c.Rank()) || c.Rank() == Ace && near(HighAce)
}
