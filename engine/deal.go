package engine

import (
	"fmt"
	"math/bits"
	"slices"
)

// Rand is the engine's own random source: splitmix64. It is defined here,
// not taken from math/rand, so that a recorded seed gives the same deal
// forever, whatever the Go version.
type Rand struct{ state uint64 }

// NewRand returns a source seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{state: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// IntN returns a uniform integer in [0, n); n must be positive (0 for n <= 0).
// It uses Lemire's multiply-and-reject method, so it is unbiased.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		return 0
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound {
		thresh := -bound % bound
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), bound)
		}
	}
	return int(hi)
}

// Shuffle shuffles cards in place (Fisher–Yates).
func (r *Rand) Shuffle(cards []Card) {
	for i := len(cards) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
}

const (
	handSize = 11
	potSize  = 11
)

// Deal deals a new deal (smazzata) by the procedure of RULES §3, with every
// random choice drawn from seed: the shuffle of the full deck, then the cut
// (by the player on the dealer's right) at a random point; from the bottom
// of the cut part two pots (pozzetti) of 11 are formed, one card to each
// alternately, the first-formed pot on top (taken first); the rest (the
// lower part, then what is left of the cut part) is dealt from the top, 11
// cards to each player one at a time clockwise from the dealer's left. In
// fibur-row 11 face-up row cards then go beside each player alternately.
// Italian rule sets turn one card up to start the discard pile; the rest is
// the stock. The first player is the dealer's left (right with
// direction=anticlockwise). totals are the running match totals per team
// (vulnerability); nil means zeros.
func Deal(r Rules, dealer int, seed uint64, totals []int) (*Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	n, teams := r.Players, r.Teams()
	if dealer < 0 || dealer >= n {
		return nil, ruleErr(ErrBadPosition, fmt.Sprintf("dealer %d out of range", dealer))
	}
	if totals != nil && len(totals) != teams {
		return nil, ruleErr(ErrBadPosition, fmt.Sprintf("%d totals for %d teams", len(totals), teams))
	}
	rng := NewRand(seed)
	deck := r.Deck()
	rng.Shuffle(deck)

	cutAt := 2*potSize + rng.IntN(len(deck)-4*potSize+1)
	cut, lower := deck[:cutAt], deck[cutAt:]
	pots := [][]Card{make([]Card, 0, potSize), make([]Card, 0, potSize)}
	for i := range 2 * potSize {
		pots[i%2] = append(pots[i%2], cut[cutAt-1-i])
	}
	rest := append(slices.Clone(lower), cut[:cutAt-2*potSize]...)

	g := &Game{rules: r, mr: r.MeldRules(), dealer: dealer, closer: -1}
	g.hands = make([][]Card, n)
	pos := 0
	for range handSize {
		for k := range n {
			seat := (dealer + 1 + k) % n
			g.hands[seat] = append(g.hands[seat], rest[pos])
			pos++
		}
	}
	if r.ID == FiburRow {
		g.rows = make([][]Card, n)
		for range handSize {
			for k := range n {
				seat := (dealer + 1 + k) % n
				g.rows[seat] = append(g.rows[seat], rest[pos])
				pos++
			}
		}
	}
	if r.ID.Italian() {
		g.pile = append(g.pile, rest[pos])
		pos++
	}
	stock := rest[pos:]
	g.stock = make([]Card, len(stock))
	for i, c := range stock {
		g.stock[len(stock)-1-i] = c
	}
	g.pots = pots[:min(2, teams)]
	g.potTaken = make([]bool, teams)
	g.potUnplayed = make([]bool, teams)
	g.potSeat = slices.Repeat([]int{-1}, teams)
	g.melds = make([][]Meld, teams)
	g.totals = make([]int, teams)
	copy(g.totals, totals)
	g.turn = r.next(dealer)
	g.firstTurn = r.ID.Brazilian()
	return g, nil
}
