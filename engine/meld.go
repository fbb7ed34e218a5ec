package engine

import "strings"

// MeldKind tells a sequence (scala) from a set (combinazione, tris).
type MeldKind uint8

// Meld kinds.
const (
	Sequence MeldKind = iota + 1
	Set
)

// MeldRules are the meld laws of a rule set (RULES §2, §5, §9, §11). The
// rule set fills them in; the meld code knows nothing else of rule sets.
//
// Sets of rank r (other than 2) are legal when Sets is true or SetRanks is
// non-nil, and SetRanks (when non-nil) contains r. A set of 2s is legal
// exactly when SetsOfTwos is true: in it the 2s are natural cards and one
// joker may join as its wild.
type MeldRules struct {
	Sets        bool   // sets are allowed at all (fibur, fechado; aberto only via SetRanks)
	SetRanks    []Rank // when non-nil, sets are allowed only of these ranks (aberto_sets: threes_and_aces)
	SetsOfTwos  bool   // fechado: a set made only of 2s (and possibly one joker) is legal
	AceBothEnds bool   // reale, aberto, fechado: A-2-…-K-A, a natural ace may stand at both ends
}

// setAllowed reports whether a set of rank r (not Two) may be laid.
func (mr MeldRules) setAllowed(r Rank) bool {
	if mr.SetRanks == nil {
		return mr.Sets
	}
	for _, sr := range mr.SetRanks {
		if sr == r {
			return true
		}
	}
	return false
}

// Meld is a meld (gioco) on the table.
//
// Cards holds the cards in notation order: a sequence from low to high, each
// card at the position it occupies, so a wild's index says what it stands for;
// a set in the order its cards were laid. Wild is the index in Cards of the
// one wild card (a joker, or a 2 not in its natural place), or -1 when the
// meld is clean. For a sequence, Suit is its suit and Low the position rank of
// Cards[0] (Ace=1 … King=13; a high ace is HighAce=14) and SetRank is NoRank;
// for a set, SetRank is its rank (Two for a fechado set of 2s, the only set
// in which 2s are natural), Suit is NoSuit and Low is NoRank.
//
// A Meld is a value: its methods never modify it; Attach returns a new one
// whose Cards never share memory with the receiver's. Build melds with
// NewMeld or LoadMeld; Attach refuses (ErrInvalidMeld) a receiver whose
// fields do not describe a legal meld.
type Meld struct {
	Kind    MeldKind
	Cards   []Card
	Wild    int
	Suit    Suit
	Low     Rank
	SetRank Rank
}

// BurracoKind classifies a meld of 7 or more cards (burraco, canastra).
type BurracoKind uint8

// Burraco kinds.
const (
	NotBurraco BurracoKind = iota
	Dirty                  // sporco: with a wild
	SemiClean              // semi-pulito (fibur): wild at one end of 7+ consecutive naturals, or a set of exactly 8 cards (7 naturals + the wild)
	Clean                  // pulito: no wild (a natural 2 is fine)
)

// NewMeld lays cards as a new meld; the order of cards does not matter for a
// sequence, and a set keeps it. The kind is decided by content: naturals of
// one suit make a sequence, naturals of one rank a set; a meld of 2s only
// (plus at most one joker) is a set of 2s where mr.SetsOfTwos.
//
// Among the legal arrangements of a sequence NewMeld prefers, in order: a 2
// of the suit natural in the 2 position; an ace low; the wild in the one gap,
// else at the low end, else at the high end (RULES §5). wildAs, when not 0,
// names the card the one wild must stand for (RULES §5 "a client may name the
// position"): a card of the sequence's suit, or for a set a card of its rank
// (any suit, or NoSuit as StandsFor returns). A wildAs that no legal
// arrangement satisfies, or given for a meld without a wild, is refused.
// Errors: ErrInvalidMeld, ErrTooManyWilds (RuleError codes). cards is not
// modified nor retained.
func NewMeld(mr MeldRules, cards []Card, wildAs Card) (Meld, error) {
	m, f := newMeld(mr, cards, wildAs)
	if f != okay {
		return Meld{}, f.err()
	}
	return m, nil
}

func newMeld(mr MeldRules, cards []Card, wildAs Card) (Meld, fail) {
	c, f := classify(cards)
	if f != okay {
		return Meld{}, f
	}
	if c.naturals == 0 {
		return newTwosSet(mr, cards, wildAs)
	}
	seqF := failMixed
	if c.sameSuit {
		m, f := newSeq(mr, cards, c.suit, wildAs)
		if f == okay {
			return m, okay
		}
		seqF = f
	}
	if c.sameRank {
		m, f := newSet(mr, cards, c.rank, wildAs)
		if f == okay || c.naturals > 1 || !c.sameSuit {
			return m, f
		}
	}
	return Meld{}, seqF
}

// Attach adds cards (in any order) to m and returns the resulting meld,
// applying RULES §5. In a sequence the naturals already on the table stay
// where they are, but for a natural 2 at the low end of a meld without a
// wild and without an ace below it: when the new cards do not fit with it in
// place, it may move into the one gap a new end card opens, becoming the
// meld's wild (2C 3C 4C + 6C → 3C 4C 2C(=5C) 6C). The wild moves only when
// it must: when the card it stands for is attached it moves to another legal
// place, becoming natural if it is a 2 of the suit and the 2 position lets
// it (compulsory: a wildAs that would keep it wild is refused); a free wild
// (at an end) stays where it is when the new cards fit around it (an ace
// goes high beside a wild king), and moves only when they need it in a gap,
// or wildAs names another place (the free-wild slide and the end-pinella
// exception); an imprisoned wild (naturals on both sides) that is not
// replaced stays, and cannot be displaced by another wild. The kind, suit and
// set rank never change; a set keeps its order and gets the new cards
// appended. wildAs is as for NewMeld and names where the meld's wild must end
// up. Errors: ErrInvalidMeld, ErrTooManyWilds, ErrWildLocked (the attach
// would be legal if the imprisoned wild could move).
func (m Meld) Attach(mr MeldRules, cards []Card, wildAs Card) (Meld, error) {
	var r Meld
	f := failEmpty
	switch {
	case len(cards) == 0:
	case m.Kind == Sequence:
		r, f = m.attachSeq(mr, cards, wildAs)
	case m.Kind == Set:
		r, f = m.attachSet(mr, cards, wildAs)
	default:
		f = failBadMeld
	}
	if f != okay {
		return Meld{}, f.err()
	}
	return r, nil
}

// LoadMeld reads a meld already on the table, written in notation (positions
// as given: a sequence low to high, a wild's index saying what it stands for;
// a set in any order), and checks it against mr. A 2 of the sequence's suit
// is natural in the 2 position and wild anywhere else, so ["2H","2H","3H"]
// reads 2H(=AH) 2H 3H. It never panics on bad input. Used to load positions.
// Errors: ErrInvalidMeld, ErrTooManyWilds. cards is not retained.
func LoadMeld(mr MeldRules, cards []Card) (Meld, error) {
	m, f := loadMeld(mr, cards)
	if f != okay {
		return Meld{}, f.err()
	}
	return m, nil
}

func loadMeld(mr MeldRules, cards []Card) (Meld, fail) {
	c, f := classify(cards)
	if f != okay {
		return Meld{}, f
	}
	if c.naturals == 0 {
		return newTwosSet(mr, cards, 0)
	}
	seqF := failMixed
	if c.sameSuit {
		m, f := loadSeq(mr, cards, c)
		if f == okay {
			return m, okay
		}
		seqF = f
	}
	if c.sameRank {
		m, f := newSet(mr, cards, c.rank, 0)
		if f == okay || c.naturals > 1 || !c.sameSuit {
			return m, f
		}
	}
	return Meld{}, seqF
}

// StandsFor returns the card the meld's wild stands for (0 when the meld is
// clean). In a sequence it is the card of the wild's position (an ace for
// position 1 or 14); in a set it is the set's rank with NoSuit (not a Valid
// card: only its Rank means something).
func (m Meld) StandsFor() Card {
	if m.Wild < 0 || m.Wild >= len(m.Cards) {
		return 0
	}
	if m.Kind == Set {
		return Card(uint8(NoSuit)<<4 | uint8(m.SetRank))
	}
	return posCard(m.Low+Rank(m.Wild), m.Suit)
}

// Clean reports whether the meld has no wild.
func (m Meld) Clean() bool { return m.Wild < 0 }

// Len returns the number of cards in the meld.
func (m Meld) Len() int { return len(m.Cards) }

// Naturals returns the number of natural (non-wild) cards in the meld.
func (m Meld) Naturals() int {
	if m.Wild >= 0 {
		return len(m.Cards) - 1
	}
	return len(m.Cards)
}

// High returns the position of a sequence's last card (HighAce for an ace
// above the king), or NoRank for a set.
func (m Meld) High() Rank {
	if m.Kind != Sequence || len(m.Cards) == 0 {
		return NoRank
	}
	return m.Low + Rank(len(m.Cards)-1)
}

// Burraco classifies the meld (RULES §7a); semiClean and semiCleanSetAtLeast8
// come from the options semi_clean and semi_clean_set. A meld of 7+ cards is
// Clean without a wild; with one it is SemiClean when semiClean holds and
// either it is a sequence of 8+ cards with the wild at an end (7+ consecutive
// naturals), or a set of exactly 8 cards (semi_clean_set=exactly8) or of 8 or
// 9 cards (at_least8); Dirty otherwise. A fechado canastra of 2s is a set
// with SetRank Two: scoring it (1000) is the scorer's business.
func (m Meld) Burraco(semiClean, semiCleanSetAtLeast8 bool) BurracoKind {
	n := len(m.Cards)
	switch {
	case n < 7:
		return NotBurraco
	case m.Wild < 0:
		return Clean
	case !semiClean:
		return Dirty
	case m.Kind == Sequence && n >= 8 && (m.Wild == 0 || m.Wild == n-1):
		return SemiClean
	case m.Kind == Set && (n == 8 || n > 8 && semiCleanSetAtLeast8):
		return SemiClean
	}
	return Dirty
}

// Equal reports whether m and o are the same meld: sequences position by
// position, sets as multisets (the order of laying aside) with a wild in both
// or in neither.
func (m Meld) Equal(o Meld) bool {
	if m.Kind != o.Kind || m.Suit != o.Suit || m.Low != o.Low || m.SetRank != o.SetRank ||
		len(m.Cards) != len(o.Cards) || (m.Wild < 0) != (o.Wild < 0) {
		return false
	}
	if m.Kind == Set {
		return sameMultiset(m.Cards, o.Cards)
	}
	if m.Wild != o.Wild {
		return false
	}
	for i, c := range m.Cards {
		if o.Cards[i] != c {
			return false
		}
	}
	return true
}

// sameMultiset reports whether a and b hold the same cards, counted.
func sameMultiset(a, b []Card) bool {
	if len(a) != len(b) {
		return false
	}
	var n [256]int16
	for i := range a {
		n[a[i]]++
		n[b[i]]--
	}
	for _, v := range n {
		if v != 0 {
			return false
		}
	}
	return true
}

// String returns the meld in notation, the wild annotated with what it
// stands for: "[5H JK(=6H) 7H]", "[7H 7D 2C(=7) 7S]".
func (m Meld) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, c := range m.Cards {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
		if i != m.Wild {
			continue
		}
		b.WriteString("(=")
		if s := m.StandsFor(); m.Kind == Set {
			b.WriteString(s.Rank().String())
		} else {
			b.WriteString(s.String())
		}
		b.WriteByte(')')
	}
	b.WriteByte(']')
	return b.String()
}

// cardsInfo summarises the natural cards (neither joker nor 2) of a meld to
// be: how many, and whether they share a suit or a rank.
type cardsInfo struct {
	naturals           int
	suit               Suit
	rank               Rank
	first              int // index of the first of them
	sameSuit, sameRank bool
}

// classify checks the size and the cards of a meld to be and summarises them.
func classify(cards []Card) (cardsInfo, fail) {
	c := cardsInfo{sameSuit: true, sameRank: true, first: -1}
	switch {
	case len(cards) < 3:
		return c, failShort
	case len(cards) > maxSeqLen:
		return c, failLong
	}
	for i, x := range cards {
		switch {
		case !x.Valid():
			return c, failNotCard
		case x == Joker || x.Rank() == Two:
			continue
		case c.naturals == 0:
			c.suit, c.rank, c.first = x.Suit(), x.Rank(), i
		default:
			c.sameSuit = c.sameSuit && x.Suit() == c.suit
			c.sameRank = c.sameRank && x.Rank() == c.rank
		}
		c.naturals++
	}
	return c, okay
}
