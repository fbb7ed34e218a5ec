package engine

// MeldKind tells a sequence (scala) from a set (combinazione, tris).
type MeldKind uint8

// Meld kinds.
const (
	Sequence MeldKind = iota + 1
	Set
)

// MeldRules are the meld laws of a rule set (RULES §2, §5, §9, §11). The
// rule set fills them in; the meld code knows nothing else of rule sets.
type MeldRules struct {
	Sets        bool   // sets are allowed at all (fibur, fechado; aberto only via SetRanks)
	SetRanks    []Rank // when non-nil, sets are allowed only of these ranks (aberto_sets: threes_and_aces)
	SetsOfTwos  bool   // fechado: a set made only of 2s (and possibly jokers) is legal
	AceBothEnds bool   // reale, aberto, fechado: A-2-…-K-A, a natural ace may stand at both ends
}

// Meld is a meld (gioco) on the table.
//
// Cards holds the cards in notation order: a sequence from low to high, each
// card at the position it occupies, so a wild's index says what it stands for;
// a set in the order its cards were laid. Wild is the index in Cards of the
// one wild card (a joker, or a 2 not in its natural place), or -1 when the
// meld is clean. For a sequence, Suit is its suit and Low the position rank of
// Cards[0] (Ace=1 … King=13; a high ace is HighAce=14); for a set, SetRank is
// its rank (Two for a fechado set of 2s).
//
// A Meld is a value: its methods never modify it; Attach returns a new one.
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
	SemiClean              // semi-pulito (fibur): wild at one end of 7+ consecutive naturals, or a set of exactly 8 naturals+wild
	Clean                  // pulito: no wild (a natural 2 is fine)
)

// NewMeld lays cards as a new meld. wildAs, when not 0, names the card the
// one wild stands for (RULES §5 "a client may name the position"); otherwise
// a free wild goes at the low end by convention, or high when low is
// impossible. Errors: ErrInvalidMeld, ErrTooManyWilds (RuleError codes).
func NewMeld(mr MeldRules, cards []Card, wildAs Card) (Meld, error) {
	return Meld{}, ruleErr(ErrInvalidMeld, "not implemented")
}

// Attach adds cards to m and returns the resulting meld, applying RULES §5:
// replacement moves the wild inside the meld, a free wild may slide to the
// other end, an imprisoned wild moves only by replacement, a 2 of the suit
// becomes natural in the 2 position, the end-pinella exception. Errors:
// ErrInvalidMeld, ErrTooManyWilds, ErrWildLocked.
func (m Meld) Attach(mr MeldRules, cards []Card, wildAs Card) (Meld, error) {
	return Meld{}, ruleErr(ErrInvalidMeld, "not implemented")
}

// LoadMeld reads a meld already on the table, written in notation (positions
// as given: a sequence low to high, a wild's index saying what it stands for).
// Used to load positions. Errors: ErrInvalidMeld, ErrTooManyWilds.
func LoadMeld(mr MeldRules, cards []Card) (Meld, error) {
	return Meld{}, ruleErr(ErrInvalidMeld, "not implemented")
}

// StandsFor returns the card the meld's wild stands for (0 when the meld is
// clean). In a set it is the set's rank with NoSuit.
func (m Meld) StandsFor() Card { return 0 }

// Clean reports whether the meld has no wild.
func (m Meld) Clean() bool { return m.Wild < 0 }

// Burraco classifies the meld; semiClean and semiCleanSetAtLeast8 come from
// the options semi_clean and semi_clean_set.
func (m Meld) Burraco(semiClean, semiCleanSetAtLeast8 bool) BurracoKind { return NotBurraco }
