package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Meld laws of the rule sets, as rules.go derives them.
var (
	mrFibur      = MeldRules{Sets: true}
	mrReale      = MeldRules{AceBothEnds: true}
	mrAberto     = MeldRules{AceBothEnds: true}
	mrAbertoSets = MeldRules{Sets: true, SetRanks: []Rank{Three, Ace}, AceBothEnds: true}
	mrFechado    = MeldRules{Sets: true, SetsOfTwos: true, AceBothEnds: true}
)

// cards reads space-separated notation ("5H JK 7H"); "" is no cards.
func mcards(s string) []Card {
	var out []Card
	for _, f := range strings.Fields(s) {
		out = append(out, MustParseCard(f))
	}
	return out
}

// card reads one card; "" is 0 (no wild_as).
func mcard(s string) Card {
	if s == "" {
		return 0
	}
	return MustParseCard(s)
}

func mnotation(cs []Card) string { return strings.Join(FormatCards(cs), " ") }

// load reads a meld in notation or fails the test.
func mload(t *testing.T, mr MeldRules, s string) Meld {
	t.Helper()
	m, err := LoadMeld(mr, mcards(s))
	if err != nil {
		t.Fatalf("LoadMeld(%s): %v", s, err)
	}
	return m
}

// checkMeld checks the invariants of a meld NewMeld or Attach returned: it
// loads back identically from its notation, has at most one wild, and its
// Wild index agrees with StandsFor.
func checkMeldInvariants(t *testing.T, mr MeldRules, m Meld) {
	t.Helper()
	back, err := LoadMeld(mr, m.Cards)
	if err != nil {
		t.Fatalf("LoadMeld(%s) of a meld the engine made: %v", m, err)
	}
	if !slices.Equal(back.Cards, m.Cards) || back.Kind != m.Kind || back.Wild != m.Wild ||
		back.Suit != m.Suit || back.Low != m.Low || back.SetRank != m.SetRank {
		t.Fatalf("LoadMeld round trip: got %+v, want %+v", back, m)
	}
	if (m.Wild >= 0) != (m.StandsFor() != 0) {
		t.Fatalf("%s: Wild %d but StandsFor %v", m, m.Wild, m.StandsFor())
	}
}

// wantCode fails unless err is a RuleError with code.
func wantMeldCode(t *testing.T, err error, code Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	if got := ErrorCode(err); got != code {
		t.Fatalf("got error %v, want code %s", err, code)
	}
}

type meldWant struct {
	cards   string // notation of the result; "" when an error is wanted
	stands  string // what the wild stands for ("" for a clean meld); sets: the rank letter
	code    Code   // the wanted error code
	kind    MeldKind
	setRank Rank
}

// check compares a NewMeld or Attach outcome with w.
func (w meldWant) check(t *testing.T, mr MeldRules, m Meld, err error) {
	t.Helper()
	if w.code != "" {
		wantMeldCode(t, err, w.code)
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if got := mnotation(m.Cards); got != w.cards {
		t.Fatalf("cards %s, want %s (meld %s)", got, w.cards, m)
	}
	var stands string
	switch s := m.StandsFor(); {
	case s == 0:
	case m.Kind == Set:
		stands = s.Rank().String()
	default:
		stands = s.String()
	}
	if stands != w.stands {
		t.Fatalf("wild stands for %q, want %q (meld %s)", stands, w.stands, m)
	}
	if w.kind != 0 && m.Kind != w.kind {
		t.Fatalf("kind %d, want %d", m.Kind, w.kind)
	}
	if w.setRank != 0 && m.SetRank != w.setRank {
		t.Fatalf("set rank %v, want %v", m.SetRank, w.setRank)
	}
	checkMeldInvariants(t, mr, m)
}

const (
	mSpadesAK  = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
	mSpades2K  = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
	mSpades2KA = mSpades2K + " AS"
)

func TestNewMeld(t *testing.T) {
	tests := []struct {
		name   string
		mr     MeldRules
		cards  string
		wildAs string
		want   meldWant
	}{
		// Sequences: aces, wrap-around, limits.
		{"ok/ace low with natural 2", mrFibur, "AS 2S 3S", "", meldWant{cards: "AS 2S 3S", kind: Sequence}},
		{"ok/ace high", mrFibur, "QH KH AH", "", meldWant{cards: "QH KH AH"}},
		{"ok/K-A-2 is Q-K-A with the 2 wild", mrFibur, "KD AD 2D", "", meldWant{cards: "2D KD AD", stands: "QD"}},
		{"ok/cards in any order", mrFibur, "TD 8D 9D", "", meldWant{cards: "8D 9D TD"}},
		{"ok/fibur 13 naturals and a joker: joker is the high ace", mrFibur, "JK " + mSpadesAK, "", meldWant{cards: mSpadesAK + " JK", stands: "AS"}},
		{"ok/fibur 2..K, A and a joker: ace low by preference", mrFibur, mSpades2KA + " JK", "", meldWant{cards: mSpadesAK + " JK", stands: "AS"}},
		{"ok/fibur 2..K and a joker: joker is the low ace", mrFibur, mSpades2K + " JK", "", meldWant{cards: "JK " + mSpades2K, stands: "AS"}},
		{"ok/reale A..K,A: 14 naturals", mrReale, mSpadesAK + " AS", "", meldWant{cards: mSpadesAK + " AS"}},
		{"ok/reale A..K and a joker", mrReale, mSpadesAK + " JK", "", meldWant{cards: mSpadesAK + " JK", stands: "AS"}},
		{"ok/reale A-2-3 is still fine", mrReale, "3S AS 2S", "", meldWant{cards: "AS 2S 3S"}},
		{"ok/Q-K-A and a 2 of the suit: 2 is a wild below", mrFibur, "QS KS AS 2S", "", meldWant{cards: "2S QS KS AS", stands: "JS"}},
		{"ErrInvalidMeld/fibur A..K,A: ace not at both ends", mrFibur, mSpadesAK + " AS", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/fibur A-2-3 and Q-K-A", mrFibur, "AS 2S 3S QS KS AS", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/reale A-2-3 and Q-K-A do not join", mrReale, "AS 2S 3S QS KS AS", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/15 cards", mrReale, mSpadesAK + " AS JK", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wrap-around K-A-2-3", mrFibur, "KC AC 2C 3C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wrap-around K-A-2-3 in reale", mrReale, "KC AC 2C 3C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wrap-around K-A-2 with a joker", mrReale, "KC AC 2C JK", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/three aces", mrReale, "AS AS AS 2S 3S", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/same card twice", mrFibur, "8D 9D 9D TD", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/two cards", mrFibur, "5H 6H", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/no cards", mrFibur, "", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/mixed suits and ranks", mrFibur, "7H 8C 9H", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/a gap without a wild", mrFibur, "4C 5C 7C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/two gaps and one wild", mrFibur, "4C JK 6C 8C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/two naturals and a wild too far apart", mrFibur, "4C 8C JK", "", meldWant{code: ErrInvalidMeld}},

		// Wilds.
		{"ok/free wild goes low", mrFibur, "6C 7C JK", "", meldWant{cards: "JK 6C 7C", stands: "5C"}},
		{"ok/free wild goes high when the low end is the ace", mrFibur, "AC 2C JK", "", meldWant{cards: "AC 2C JK", stands: "3C"}},
		{"ok/free wild low below Q-K-A", mrFibur, "JK AH KH", "", meldWant{cards: "JK KH AH", stands: "QH"}},
		{"ok/wild fills the gap", mrFibur, "7H JK 5H", "", meldWant{cards: "5H JK 7H", stands: "6H"}},
		{"ok/wild stands for a 2", mrFibur, "AH JK 3H", "", meldWant{cards: "AH JK 3H", stands: "2H"}},
		{"ok/wildAs places a free wild high", mrFibur, "9H TH JK", "JH", meldWant{cards: "9H TH JK", stands: "JH"}},
		{"ok/wildAs names the low end", mrFibur, "6C 7C JK", "5C", meldWant{cards: "JK 6C 7C", stands: "5C"}},
		{"ok/wildAs names the gap", mrFibur, "5H JK 7H", "6H", meldWant{cards: "5H JK 7H", stands: "6H"}},
		{"ok/wildAs ace high of a 13-card fibur meld", mrFibur, mSpades2K + " JK", "AS", meldWant{cards: "JK " + mSpades2K, stands: "AS"}},
		{"ErrInvalidMeld/wildAs not next to the meld", mrFibur, "6C 7C JK", "TC", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wildAs elsewhere than the gap", mrFibur, "5H JK 7H", "8H", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wildAs of another suit", mrFibur, "6C 7C JK", "5H", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wildAs a joker", mrFibur, "6C 7C JK", "JK", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wildAs without a wild", mrFibur, "6C 7C 8C", "5C", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wildAs below the low ace", mrFibur, "AC 2C JK", "KC", meldWant{code: ErrInvalidMeld}},
		{"ErrTooManyWilds/two wilds in a sequence", mrFibur, "5S JK 2D 8S", "", meldWant{code: ErrTooManyWilds}},
		{"ErrTooManyWilds/joker and a 2 of another suit", mrFibur, "7S 8S JK 2H", "", meldWant{code: ErrTooManyWilds}},
		{"ErrInvalidMeld/joker and a 2 of the suit far from its place (the 2 could be natural)", mrFibur, "7S 8S JK 2S", "", meldWant{code: ErrInvalidMeld}},
		{"ErrTooManyWilds/three 2s of the suit", mrFibur, "2H 2H 2H 3H", "", meldWant{code: ErrTooManyWilds}},
		{"ErrInvalidMeld/wilds only", mrFibur, "2C 2D JK", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/jokers only", mrFechado, "JK JK JK", "", meldWant{code: ErrInvalidMeld}},

		// Natural 2s.
		{"ok/natural 2 and a joker", mrFibur, "AD 2D JK 4D", "", meldWant{cards: "AD 2D JK 4D", stands: "3D"}},
		{"ok/natural 2 and a 2 of another suit as a wild (low by convention)", mrFibur, "2S 2H 3S", "", meldWant{cards: "2H 2S 3S", stands: "AS"}},
		{"ok/natural 2 and a 2 of another suit, wildAs high", mrFibur, "2S 2H 3S", "4S", meldWant{cards: "2S 3S 2H", stands: "4S"}},
		{"ok/two 2s of the suit: one natural, one the low ace", mrFibur, "2H 3H 2H", "", meldWant{cards: "2H 2H 3H", stands: "AH"}},
		{"ok/two 2s of the suit, wildAs high", mrFibur, "2H 3H 2H", "4H", meldWant{cards: "2H 3H 2H", stands: "4H"}},
		{"ok/natural 2 under the joker-free run", mrFibur, "4H 3H 2H", "", meldWant{cards: "2H 3H 4H"}},
		{"ok/2 of the suit wild in a gap (seed 000)", mrFibur, "2H 3H 5H", "", meldWant{cards: "3H 2H 5H", stands: "4H"}},
		{"ok/2 of the suit wild as a free low wild", mrFibur, "2H 4H 5H", "", meldWant{cards: "2H 4H 5H", stands: "3H"}},
		{"ok/wildAs turns the natural 2 into a wild", mrFibur, "2H 3H 4H", "5H", meldWant{cards: "3H 4H 2H", stands: "5H"}},
		{"ok/two 2s of the suit fill the 2 position and a gap", mrFibur, "2H 2H 4H", "", meldWant{cards: "2H 2H 4H", stands: "3H"}},
		{"ok/ace, natural 2, and the other 2 above", mrFibur, "2H AH 2H", "", meldWant{cards: "AH 2H 2H", stands: "3H"}},
		{"ErrInvalidMeld/wildAs names the 2 position for the 2 itself", mrFibur, "2H 3H 4H", "2H", meldWant{code: ErrInvalidMeld}},

		// Sets.
		{"ok/set with repeated suits keeps its order", mrFibur, "7H 7H 7D 7C", "", meldWant{cards: "7H 7H 7D 7C", kind: Set, setRank: 7}},
		{"ok/set with a 2 as its wild", mrFibur, "7H 2C 7D", "", meldWant{cards: "7H 2C 7D", stands: "7", kind: Set}},
		{"ok/set of 8 naturals and a wild", mrFibur, "9S 9S 9H 9H 9D 9D 9C 9C JK", "", meldWant{cards: "9S 9S 9H 9H 9D 9D 9C 9C JK", stands: "9"}},
		{"ok/set of aces", mrFibur, "AH AS AD", "", meldWant{cards: "AH AS AD", setRank: Ace}},
		{"ok/set of two aces and a joker (not a sequence)", mrFibur, "AH AH JK", "", meldWant{cards: "AH AH JK", stands: "A", kind: Set}},
		{"ok/set wildAs names the rank", mrFibur, "7H 7D JK", "7S", meldWant{cards: "7H 7D JK", stands: "7"}},
		{"ErrInvalidMeld/set wildAs of another rank", mrFibur, "7H 7D JK", "8S", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/set wildAs without a wild", mrFibur, "7H 7D 7S", "7C", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/set of 9 naturals", mrFibur, "9S 9S 9H 9H 9D 9D 9C 9C 9C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/set with a third copy of a card", mrFibur, "9S 9S 9S", "", meldWant{code: ErrInvalidMeld}},
		{"ErrTooManyWilds/set with two wilds", mrFibur, "7H 7D JK 2C", "", meldWant{code: ErrTooManyWilds}},
		{"ErrTooManyWilds/one natural and two wilds", mrFibur, "7H 2D 2C", "", meldWant{code: ErrTooManyWilds}},
		{"ErrInvalidMeld/reale has no sets", mrReale, "7C 7D 7H", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/reale has no sets, with a wild", mrReale, "7C 7C JK", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/aberto has no sets", mrAberto, "9S 9H 9D", "", meldWant{code: ErrInvalidMeld}},
		{"ok/aberto threes_and_aces: set of 3s", mrAbertoSets, "3S 3H 3D", "", meldWant{cards: "3S 3H 3D", setRank: Three}},
		{"ok/aberto threes_and_aces: set of aces", mrAbertoSets, "AS AH JK", "", meldWant{cards: "AS AH JK", stands: "A"}},
		{"ErrInvalidMeld/aberto threes_and_aces: set of 9s", mrAbertoSets, "9S 9H 9D", "", meldWant{code: ErrInvalidMeld}},
		{"ok/aberto threes_and_aces: sequences as usual", mrAbertoSets, "9S TS JS", "", meldWant{cards: "9S TS JS"}},

		// Sets of 2s (fechado).
		{"ok/fechado set of 2s", mrFechado, "2C 2D 2H", "", meldWant{cards: "2C 2D 2H", kind: Set, setRank: Two}},
		{"ok/fechado set of 2s with a joker", mrFechado, "2C JK 2D", "", meldWant{cards: "2C JK 2D", stands: "2", setRank: Two}},
		{"ok/fechado set of eight 2s and a joker", mrFechado, "2S 2S 2H 2H 2D 2D 2C 2C JK", "", meldWant{cards: "2S 2S 2H 2H 2D 2D 2C 2C JK", stands: "2"}},
		{"ok/fechado sequence with 2s still a sequence", mrFechado, "2H 2H 3H", "", meldWant{cards: "2H 2H 3H", stands: "AH", kind: Sequence}},
		{"ok/fechado a 2 in a set of 7s is wild", mrFechado, "7S 7H 2C", "", meldWant{cards: "7S 7H 2C", stands: "7", setRank: 7}},
		{"ErrTooManyWilds/fechado set of 2s with two jokers", mrFechado, "2C 2D JK JK", "", meldWant{code: ErrTooManyWilds}},
		{"ErrTooManyWilds/fechado one 2 and two jokers", mrFechado, "2C JK JK", "", meldWant{code: ErrTooManyWilds}},
		{"ErrInvalidMeld/fibur set of 2s", mrFibur, "2C 2D 2H", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/fechado third copy of a 2", mrFechado, "2C 2C 2C", "", meldWant{code: ErrInvalidMeld}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := mcards(tt.cards)
			orig := slices.Clone(in)
			m, err := NewMeld(tt.mr, in, mcard(tt.wildAs))
			if !slices.Equal(in, orig) {
				t.Fatalf("NewMeld modified its input: %s", mnotation(in))
			}
			tt.want.check(t, tt.mr, m, err)
			if err == nil && len(in) > 0 {
				in[0] = 0 // the meld must not share the caller's slice
				if m.Cards[0] == 0 {
					t.Fatal("the meld shares memory with the cards given to NewMeld")
				}
			}
		})
	}
}

func TestNewMeldInvalidCards(t *testing.T) {
	for _, bad := range []Card{0, 0xFF, Card(0x0E), Card(0x0F), Card(uint8(NoSuit)<<4 | 5), Card(0x50)} {
		_, err := NewMeld(mrFibur, []Card{MustParseCard("5H"), MustParseCard("6H"), bad}, 0)
		wantMeldCode(t, err, ErrInvalidMeld)
		_, err = LoadMeld(mrFibur, []Card{MustParseCard("5H"), MustParseCard("6H"), bad})
		wantMeldCode(t, err, ErrInvalidMeld)
		_, err = mload(t, mrFibur, "5H 6H 7H").Attach(mrFibur, []Card{bad}, 0)
		wantMeldCode(t, err, ErrInvalidMeld)
		_, err = mload(t, mrFibur, "7H 7S 7D").Attach(mrFibur, []Card{bad}, 0)
		wantMeldCode(t, err, ErrInvalidMeld)
		_, err = NewMeld(mrFibur, mcards("5H 6H JK"), bad)
		if bad != 0 {
			wantMeldCode(t, err, ErrInvalidMeld)
		}
	}
}

func TestMeldAttach(t *testing.T) {
	tests := []struct {
		name   string
		mr     MeldRules
		meld   string
		cards  string
		wildAs string
		want   meldWant
	}{
		// RULES §5, in order.
		{"ok/replaced imprisoned 2 moves to the new gap (seed 001)", mrFibur, "QD 2D AD", "KD TD", "", meldWant{cards: "TD 2D QD KD AD", stands: "JD"}},
		{"ok/replacement works whatever the order of the cards", mrFibur, "QD 2D AD", "TD KD", "", meldWant{cards: "TD 2D QD KD AD", stands: "JD"}},
		{"ErrWildLocked/imprisoned 2 cannot move for TD", mrFibur, "QD 2D AD", "TD", "", meldWant{code: ErrWildLocked}},
		{"ok/free wild slides to the other end (seed 001)", mrFibur, "2C TC JC", "KC", "", meldWant{cards: "TC JC 2C KC", stands: "QC"}},
		{"ok/free wild slides up over a new gap", mrFibur, "2C 5C 6C", "8C", "", meldWant{cards: "5C 6C 2C 8C", stands: "7C"}},
		{"ErrWildLocked/imprisoned joker cannot move", mrFibur, "6C JK 8C", "TC", "", meldWant{code: ErrWildLocked}},
		{"ok/imprisoned joker replaced moves to the gap", mrFibur, "6C JK 8C", "7C TC", "", meldWant{cards: "6C 7C 8C JK TC", stands: "9C"}},
		{"ok/imprisoned joker replaced, cards in the other order", mrFibur, "6C JK 8C", "TC 7C", "", meldWant{cards: "6C 7C 8C JK TC", stands: "9C"}},
		{"ErrTooManyWilds/imprisoned joker cannot be displaced by another wild", mrFibur, "6C JK 8C", "2D", "", meldWant{code: ErrTooManyWilds}},
		{"ErrWildLocked/imprisoned 2 cannot be displaced by another wild (seed 000)", mrFibur, "3H 2H 5H", "2C", "", meldWant{code: ErrWildLocked}},
		{"ok/replaced 2 of the suit becomes natural", mrFibur, "3C 2C 5C 6C", "4C", "", meldWant{cards: "2C 3C 4C 5C 6C"}},
		{"ok/end-pinella exception (seed 000)", mrFibur, "2H 2H 3H", "5H", "", meldWant{cards: "2H 3H 2H 5H", stands: "4H"}},

		// Conformance case 004 and ace ends.
		{"ok/joker on A..K is the high ace", mrFibur, mSpadesAK, "JK", "", meldWant{cards: mSpadesAK + " JK", stands: "AS"}},
		{"ok/joker on 2..K is the low ace", mrFibur, mSpades2K, "JK", "", meldWant{cards: "JK " + mSpades2K, stands: "AS"}},
		{"ok/reale second ace on A..K", mrReale, mSpadesAK, "AS", "", meldWant{cards: mSpadesAK + " AS"}},
		{"ok/fechado second ace on 2..K,A", mrFechado, mSpades2KA, "AS", "", meldWant{cards: mSpadesAK + " AS"}},
		{"ok/ace on 2..K goes low by preference", mrFibur, mSpades2K, "AS", "", meldWant{cards: mSpadesAK}},
		{"ok/ace under a 2..K with its joker", mrFibur, "JK 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AS", "", meldWant{cards: "AS JK 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", stands: "2S"}},
		{"ErrInvalidMeld/fibur second ace on A..K", mrFibur, mSpadesAK, "AS", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/14 cards are full", mrFibur, mSpadesAK + " JK", "AS", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/reale A..A is full", mrReale, mSpadesAK + " AS", "JK", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/reale ace on Q-K-A", mrReale, "QS KS AS", "AS", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wrap-around on Q-K-A", mrFibur, "QS KS AS", "2S 3S", "", meldWant{code: ErrInvalidMeld}},
		{"ok/2 of the suit on Q-K-A is a wild below, not a wrap", mrFibur, "QS KS AS", "2S", "", meldWant{cards: "2S QS KS AS", stands: "JS"}},

		// Free wilds.
		{"ok/free wild stays when not needed", mrFibur, "JK 6C 7C", "8C", "", meldWant{cards: "JK 6C 7C 8C", stands: "5C"}},
		{"ok/free wild at the high end stays", mrFibur, "9H TH JK", "8H", "", meldWant{cards: "8H 9H TH JK", stands: "JH"}},
		{"ok/free wild slides on wildAs", mrFibur, "JK 6C 7C", "8C", "9C", meldWant{cards: "6C 7C 8C JK", stands: "9C"}},
		{"ErrInvalidMeld/free wild needed in a gap cannot go where wildAs says", mrFibur, "JK 6C 7C", "4C", "8C", meldWant{code: ErrInvalidMeld}},
		{"ok/free wild becomes imprisoned by a new card", mrFibur, "JK 5C 6C", "3C", "", meldWant{cards: "3C JK 5C 6C", stands: "4C"}},
		{"ok/free wild replaced goes low", mrFibur, "JK 6C 7C", "5C", "", meldWant{cards: "JK 5C 6C 7C", stands: "4C"}},
		{"ok/free wild replaced goes high by wildAs", mrFibur, "JK 6C 7C", "5C", "8C", meldWant{cards: "5C 6C 7C JK", stands: "8C"}},
		{"ok/imprisoned wild replaced goes to the low end", mrFibur, "6C JK 8C", "7C", "", meldWant{cards: "JK 6C 7C 8C", stands: "5C"}},
		{"ok/joker for the low ace replaced goes high", mrFibur, "JK 2H 3H", "AH", "", meldWant{cards: "AH 2H 3H JK", stands: "4H"}},
		{"ok/joker for the 2 replaced by the natural 2", mrFibur, "AH JK 3H", "2H", "", meldWant{cards: "AH 2H 3H JK", stands: "4H"}},
		{"ok/joker for the 2 at the low end replaced", mrFibur, "JK 3H 4H", "2H", "", meldWant{cards: "JK 2H 3H 4H", stands: "AH"}},
		{"ok/free 2 of the suit becomes natural when a wild takes its place", mrFibur, "2C 4C 5C", "2D", "", meldWant{cards: "2C 2D 4C 5C", stands: "3C"}},
		{"ok/free 2 of the suit stays wild when a card is added above", mrFibur, "2C 4C 5C", "6C", "", meldWant{cards: "2C 4C 5C 6C", stands: "3C"}},
		{"ok/free 2 of the suit replaced becomes natural", mrFibur, "2C 4C 5C", "3C", "", meldWant{cards: "2C 3C 4C 5C"}},
		{"ok/imprisoned wild stays when cards go elsewhere", mrFibur, "6C JK 8C", "9C TC", "", meldWant{cards: "6C JK 8C 9C TC", stands: "7C"}},
		{"ok/imprisoned wild, wildAs naming its own place", mrFibur, "6C JK 8C", "9C", "7C", meldWant{cards: "6C JK 8C 9C", stands: "7C"}},
		{"ErrWildLocked/imprisoned wild, wildAs elsewhere", mrFibur, "6C JK 8C", "9C", "5C", meldWant{code: ErrWildLocked}},
		{"ErrWildLocked/imprisoned wild cannot fill a gap above", mrFibur, "6C JK 8C 9C", "JC", "", meldWant{code: ErrWildLocked}},

		// Natural 2s and new wilds.
		{"ok/natural 2 attached", mrFibur, "3H 4H 5H", "2H", "", meldWant{cards: "2H 3H 4H 5H"}},
		{"ok/two 2s of the suit attached: one natural, one the low ace", mrFibur, "3H 4H 5H", "2H 2H", "", meldWant{cards: "2H 2H 3H 4H 5H", stands: "AH"}},
		{"ok/natural 2 and a joker attached", mrFibur, "3H 4H 5H", "JK 2H", "", meldWant{cards: "JK 2H 3H 4H 5H", stands: "AH"}},
		{"ok/natural 2 next to a joker", mrFibur, "JK 4H 5H", "2H", "", meldWant{cards: "2H JK 4H 5H", stands: "3H"}},
		{"ok/replaced 2 becomes natural and a joker joins", mrFibur, "3C 2C 5C", "4C JK", "", meldWant{cards: "JK 2C 3C 4C 5C", stands: "AC"}},
		{"ok/wild on a sequence with a natural 2 goes high past the ace", mrFibur, "AH 2H 3H", "JK", "", meldWant{cards: "AH 2H 3H JK", stands: "4H"}},
		{"ok/wild on A-2-3-4 with a natural 2 (case 012 shape)", mrFibur, "AH 2H 3H 4H", "5H 6H 7H", "", meldWant{cards: "AH 2H 3H 4H 5H 6H 7H"}},

		// A natural 2 at the low end may become the wild (RULES §5, after
		// seed 000's end pinella).
		{"ok/natural 2 at the low end moves for a new end card", mrFibur, "2C 3C 4C", "6C", "", meldWant{cards: "3C 4C 2C 6C", stands: "5C"}},
		{"ok/natural 2 at the low end moves on a long sequence", mrFibur, "2H 3H 4H 5H 6H 7H 8H 9H TH JH", "KH", "", meldWant{cards: "3H 4H 5H 6H 7H 8H 9H TH JH 2H KH", stands: "QH"}},
		{"ok/natural 2 moves, wildAs naming the gap", mrFibur, "2C 3C 4C", "6C", "5C", meldWant{cards: "3C 4C 2C 6C", stands: "5C"}},
		{"ok/natural 2 moves in fechado", mrFechado, "2C 3C 4C 5C", "7C 8C", "", meldWant{cards: "3C 4C 5C 2C 7C 8C", stands: "6C"}},
		{"ok/natural 2 stays when the card fits", mrFibur, "2C 3C 4C", "5C", "", meldWant{cards: "2C 3C 4C 5C"}},
		{"ok/natural 2 stays when an added wild fills the gap", mrFibur, "2C 3C 4C", "JK 6C", "", meldWant{cards: "2C 3C 4C JK 6C", stands: "5C"}},
		{"ErrInvalidMeld/natural 2 does not move for a wildAs at the end", mrFibur, "2C 3C 4C", "5C", "6C", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/natural 2 with an ace below stays", mrFibur, "AD 2D 3D", "5D", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/natural 2 with an ace below stays (reale)", mrReale, "AD 2D 3D", "5D", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/natural 2 does not move past an ace added below", mrFechado, "2C 3C 4C", "AC 6C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/natural 2 stays when the meld holds a wild", mrFibur, "2C 3C 4C JK", "7C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/natural 2 cannot move beside an added wild", mrFibur, "2C 3C 4C", "JK 7C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/natural 2 fills one gap only", mrFibur, "2C 3C 4C", "7C", "", meldWant{code: ErrInvalidMeld}},

		// Attaching moves a wild only when it must (RULES §5).
		{"ok/ace goes high beside a wild king", mrFibur, "3C 4C 5C 6C 7C 8C 9C TC JC QC 2H", "AC", "", meldWant{cards: "3C 4C 5C 6C 7C 8C 9C TC JC QC 2H AC", stands: "KC"}},
		{"ok/wildAs asks for the slide instead", mrFibur, "3C 4C 5C 6C 7C 8C 9C TC JC QC 2H", "AC", "2C", meldWant{cards: "AC 2H 3C 4C 5C 6C 7C 8C 9C TC JC QC", stands: "2C"}},
		{"ok/ace goes high beside a free joker at K (fechado)", mrFechado, "TD JD QD JK", "AD", "", meldWant{cards: "TD JD QD JK AD", stands: "KD"}},
		{"ok/new wild makes the free 2 natural, placed low", mrFibur, "3S 4S 2S", "2H", "", meldWant{cards: "2H 2S 3S 4S", stands: "AS"}},
		{"ok/new wild makes the free 2 natural, wildAs the other end", mrFibur, "3S 4S 2S", "2H", "5S", meldWant{cards: "2S 3S 4S 2H", stands: "5S"}},
		{"ErrInvalidMeld/replaced 2 of the suit may not stay wild", mrFibur, "3C 2C 5C 6C", "4C", "7C", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/replaced free 2 of the suit may not stay wild", mrFibur, "2C 4C 5C", "3C", "6C", meldWant{code: ErrInvalidMeld}},
		{"ok/replaced 2 natural, wildAs places the joker", mrFibur, "3C 2C 5C", "4C JK", "6C", meldWant{cards: "2C 3C 4C 5C JK", stands: "6C"}},
		{"ErrTooManyWilds/second wild on a free wild", mrFibur, "JK 6C 7C", "2D", "", meldWant{code: ErrTooManyWilds}},
		{"ErrTooManyWilds/second joker", mrFibur, "5C JK 7C", "JK", "", meldWant{code: ErrTooManyWilds}},
		{"ErrTooManyWilds/2 of the suit with 2 position taken", mrFibur, "JK 2H 3H", "2H", "", meldWant{code: ErrTooManyWilds}},
		{"ErrTooManyWilds/two wilds attached at once", mrFibur, "5C 6C 7C", "JK 2D", "", meldWant{code: ErrTooManyWilds}},
		{"ErrInvalidMeld/card of another suit", mrFibur, "7H 8H 9H", "KD", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/card already in the sequence", mrFibur, "7H 8H 9H", "8H", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/card leaving a gap", mrFibur, "7H 8H 9H", "JH", "", meldWant{code: ErrInvalidMeld}},
		{"ok/card filling a gap with a new wild", mrFibur, "7H 8H 9H", "JH JK", "", meldWant{cards: "7H 8H 9H JK JH", stands: "TH"}},
		{"ErrInvalidMeld/nothing to attach", mrFibur, "7H 8H 9H", "", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wildAs of another suit", mrFibur, "JK 6C 7C", "8C", "9H", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/wildAs on a clean result", mrFibur, "5C 6C 7C", "8C", "4C", meldWant{code: ErrInvalidMeld}},

		// Sets.
		{"ok/set: naturals appended in order", mrFibur, "9S 9H 9D", "9C 9C 9H", "", meldWant{cards: "9S 9H 9D 9C 9C 9H", kind: Set}},
		{"ok/set: a joker", mrFibur, "9S 9H 9D", "JK", "", meldWant{cards: "9S 9H 9D JK", stands: "9"}},
		{"ok/set: a 2 as its wild", mrFibur, "9S 9H 9D", "2H", "", meldWant{cards: "9S 9H 9D 2H", stands: "9"}},
		{"ok/set: up to 8 naturals and the wild", mrFibur, "9S 9H JK 9D", "9S 9H 9D 9C 9C", "", meldWant{cards: "9S 9H JK 9D 9S 9H 9D 9C 9C", stands: "9"}},
		{"ok/set: wildAs names the rank", mrFibur, "9S 9H 9D", "JK", "9C", meldWant{cards: "9S 9H 9D JK", stands: "9"}},
		{"ErrInvalidMeld/set: wildAs of another rank", mrFibur, "9S 9H 9D", "JK", "8C", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/set: 9th natural", mrFibur, "9S 9S 9H 9H 9D 9D 9C JK", "9C 9C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/set: 9th natural without a wild", mrFibur, "9S 9S 9H 9H 9D 9D 9C 9C", "9C", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/set: third copy of a card", mrFibur, "9S 9S 9H", "9S", "", meldWant{code: ErrInvalidMeld}},
		{"ErrTooManyWilds/set: second wild", mrFibur, "9S 9H JK", "2C", "", meldWant{code: ErrTooManyWilds}},
		{"ErrTooManyWilds/set: two wilds at once", mrFibur, "9S 9H 9D", "JK 2C", "", meldWant{code: ErrTooManyWilds}},
		{"ErrInvalidMeld/set: another rank", mrFibur, "9S 9H 9D", "TS", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/set never turns into a sequence", mrFibur, "9S 9H JK", "TS", "", meldWant{code: ErrInvalidMeld}},
		{"ok/fechado set of 2s: more 2s", mrFechado, "2S 2H 2D", "2C 2C", "", meldWant{cards: "2S 2H 2D 2C 2C", setRank: Two}},
		{"ok/fechado set of 2s: a joker", mrFechado, "2S 2H 2D", "JK", "", meldWant{cards: "2S 2H 2D JK", stands: "2"}},
		{"ErrInvalidMeld/fechado set of 2s: not a 2", mrFechado, "2S 2H 2D", "3S", "", meldWant{code: ErrInvalidMeld}},
		{"ErrTooManyWilds/fechado set of 2s: second joker", mrFechado, "2S 2H JK", "JK", "", meldWant{code: ErrTooManyWilds}},
		{"ok/fechado set of 2s: eight 2s and the joker", mrFechado, "2S 2H 2D 2C JK", "2S 2H 2D 2C", "", meldWant{cards: "2S 2H 2D 2C JK 2S 2H 2D 2C", stands: "2", setRank: Two}},
		{"ErrInvalidMeld/fechado set of 2s: a third copy of a 2", mrFechado, "2S 2S 2H", "2S", "", meldWant{code: ErrInvalidMeld}},
		{"ErrInvalidMeld/fechado set of 2s: a ninth natural", mrFechado, "2S 2S 2H 2H 2D 2D 2C 2C", "2C", "", meldWant{code: ErrInvalidMeld}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mload(t, tt.mr, tt.meld)
			before := slices.Clone(m.Cards)
			r, err := m.Attach(tt.mr, mcards(tt.cards), mcard(tt.wildAs))
			if !slices.Equal(m.Cards, before) {
				t.Fatalf("Attach modified its receiver: %s, was %s", mnotation(m.Cards), mnotation(before))
			}
			tt.want.check(t, tt.mr, r, err)
			if err == nil && (r.Kind != m.Kind || r.Suit != m.Suit || r.SetRank != m.SetRank) {
				t.Fatalf("Attach changed the meld's kind, suit or rank: %+v from %+v", r, m)
			}
		})
	}
}

// TestAttachNoAliasing attaches to a meld whose Cards has spare capacity: the
// result must not write into the receiver's backing array.
func TestMeldAttachNoAliasing(t *testing.T) {
	for _, s := range []string{"9S 9H 9D", "5H 6H 7H"} {
		m := mload(t, mrFibur, s)
		buf := make([]Card, len(m.Cards), 16)
		copy(buf, m.Cards)
		m.Cards = buf
		add := "9C"
		if m.Kind == Sequence {
			add = "8H"
		}
		r, err := m.Attach(mrFibur, mcards(add), 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := buf[:cap(buf)][len(m.Cards)]; got != 0 {
			t.Fatalf("%s: Attach wrote %v past the receiver's length", s, got)
		}
		r.Cards[0] = Joker
		if m.Cards[0] == Joker {
			t.Fatalf("%s: result shares memory with the receiver", s)
		}
	}
}

func TestMeldAttachRejectsForgedMeld(t *testing.T) {
	good := mload(t, mrFibur, "6C JK 8C")
	forged := []struct {
		name string
		m    Meld
	}{
		{"zero meld", Meld{}},
		{"unknown kind", Meld{Kind: 9, Cards: mcards("6C 7C 8C"), Wild: -1}},
		{"wrong wild index", Meld{Kind: Sequence, Cards: good.Cards, Wild: -1, Suit: Clubs, Low: 6}},
		{"wrong low", Meld{Kind: Sequence, Cards: good.Cards, Wild: 1, Suit: Clubs, Low: 5}},
		{"low past the high ace", Meld{Kind: Sequence, Cards: good.Cards, Wild: 1, Suit: Clubs, Low: 13}},
		{"wrong suit", Meld{Kind: Sequence, Cards: good.Cards, Wild: 1, Suit: Hearts, Low: 6}},
		{"no suit", Meld{Kind: Sequence, Cards: good.Cards, Wild: 1, Suit: NoSuit, Low: 6}},
		{"set of the wrong rank", Meld{Kind: Set, Cards: mcards("7H 7D 7C"), Wild: -1, Suit: NoSuit, SetRank: 8}},
		{"set with a rank out of range", Meld{Kind: Set, Cards: mcards("7H 7D 7C"), Wild: -1, Suit: NoSuit, SetRank: 200}},
		{"set with a wrong wild index", Meld{Kind: Set, Cards: mcards("7H 7D JK"), Wild: 0, Suit: NoSuit, SetRank: 7}},
		{"short sequence", Meld{Kind: Sequence, Cards: mcards("6C 7C"), Wild: -1, Suit: Clubs, Low: 6}},
	}
	for _, tt := range forged {
		t.Run("ErrInvalidMeld/"+tt.name, func(t *testing.T) {
			_, err := tt.m.Attach(mrFibur, mcards("9C"), 0)
			wantMeldCode(t, err, ErrInvalidMeld)
		})
	}
}

func TestLoadMeld(t *testing.T) {
	tests := []struct {
		name  string
		mr    MeldRules
		cards string
		want  meldWant
		low   Rank
	}{
		{"ok/natural 2 after the ace", mrFibur, "AH 2H 3H 4H", meldWant{cards: "AH 2H 3H 4H"}, Ace},
		{"ok/2 of the suit as a wild for 4", mrFibur, "3C 2C 5C 6C 7C 8C", meldWant{cards: "3C 2C 5C 6C 7C 8C", stands: "4C"}, 3},
		{"ok/2H 2H 3H: the first is the wild low ace", mrFibur, "2H 2H 3H", meldWant{cards: "2H 2H 3H", stands: "AH"}, Ace},
		{"ok/2H 3H 2H: the second is the wild 4", mrFibur, "2H 3H 2H", meldWant{cards: "2H 3H 2H", stands: "4H"}, Two},
		{"ok/high ace with a wild king", mrFibur, "QD 2D AD", meldWant{cards: "QD 2D AD", stands: "KD"}, Queen},
		{"ok/imprisoned joker", mrFibur, "6C JK 8C", meldWant{cards: "6C JK 8C", stands: "7C"}, 6},
		{"ok/wild first", mrFibur, "2C TC JC", meldWant{cards: "2C TC JC", stands: "9C"}, 9},
		{"ok/joker low", mrFibur, "JK 5H 6H", meldWant{cards: "JK 5H 6H", stands: "4H"}, 4},
		{"ok/joker in the gap", mrFibur, "5H JK 7H", meldWant{cards: "5H JK 7H", stands: "6H"}, 5},
		{"ok/2 of another suit in the 2 position is wild", mrFibur, "2S 3H 4H", meldWant{cards: "2S 3H 4H", stands: "2H"}, Two},
		{"ok/joker after A-2", mrFibur, "AS 2S JK", meldWant{cards: "AS 2S JK", stands: "3S"}, Ace},
		{"ok/fibur 13 naturals and the joker high", mrFibur, mSpadesAK + " JK", meldWant{cards: mSpadesAK + " JK", stands: "AS"}, Ace},
		{"ok/reale A..A", mrReale, mSpadesAK + " AS", meldWant{cards: mSpadesAK + " AS"}, Ace},
		{"ok/set", mrFibur, "7H 7H 7D 7C", meldWant{cards: "7H 7H 7D 7C", kind: Set, setRank: 7}, NoRank},
		{"ok/set with its wild first", mrFibur, "2D 9S 9H", meldWant{cards: "2D 9S 9H", stands: "9", kind: Set}, NoRank},
		{"ok/fechado set of 2s", mrFechado, "2S 2H JK 2D", meldWant{cards: "2S 2H JK 2D", stands: "2", setRank: Two}, NoRank},
		{"ErrInvalidMeld/out of order", mrFibur, "7C 6C 8C", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/high to low", mrFibur, "8C 7C 6C", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/wrap-around", mrReale, "KC AC 2C", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/nothing below the low ace", mrFibur, "JK AS 2S", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/nothing above the high ace", mrFibur, "KS AS JK", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/fibur A..A", mrFibur, mSpadesAK + " AS", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/wild in the wrong place for a gap", mrFibur, "5H 7H JK", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/mixed suits", mrFibur, "5H 6S 7H", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/sets in reale", mrReale, "7H 7D 7C", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/wilds only", mrFibur, "JK 2S 2H", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/too short", mrFibur, "5H 6H", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/empty", mrFibur, "", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrInvalidMeld/15 cards", mrReale, mSpadesAK + " AS JK", meldWant{code: ErrInvalidMeld}, 0},
		{"ErrTooManyWilds/two wilds", mrFibur, "JK 2H 3H 2S", meldWant{code: ErrTooManyWilds}, 0},
		{"ErrTooManyWilds/set with two wilds", mrFibur, "7H 7D JK 2C", meldWant{code: ErrTooManyWilds}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := mcards(tt.cards)
			m, err := LoadMeld(tt.mr, in)
			tt.want.check(t, tt.mr, m, err)
			if err != nil {
				return
			}
			if m.Low != tt.low {
				t.Fatalf("Low %v, want %v", m.Low, tt.low)
			}
			in[0] = 0
			if m.Cards[0] == 0 {
				t.Fatal("LoadMeld kept the caller's slice")
			}
		})
	}
}

// TestConformanceMelds replays the meld moves of conformance cases 002–013
// and 023–026 (../shared/conformance/cases) at the meld level.
func TestMeldConformanceCases(t *testing.T) {
	type step struct {
		meld   string // existing meld (notation), "" for a new meld
		cards  string
		wildAs string
		want   meldWant
	}
	cases := []struct {
		name  string
		mr    MeldRules
		steps []step
	}{
		{"002 ace low and high", mrFibur, []step{
			{"", "AS 2S 3S", "", meldWant{cards: "AS 2S 3S"}},
			{"", "QH KH AH", "", meldWant{cards: "QH KH AH"}},
			{"", "KD AD 2D", "", meldWant{cards: "2D KD AD", stands: "QD"}},
		}},
		{"003 no wrap, duplicate, two cards", mrFibur, []step{
			{"", "KC AC 2C 3C", "", meldWant{code: ErrInvalidMeld}},
			{"", "8D 9D 9D TD", "", meldWant{code: ErrInvalidMeld}},
			{"", "5H 6H", "", meldWant{code: ErrInvalidMeld}},
			{"", "8D 9D TD", "", meldWant{cards: "8D 9D TD"}},
		}},
		{"004 fourteen cards", mrFibur, []step{
			{mSpadesAK, "JK", "", meldWant{cards: mSpadesAK + " JK", stands: "AS"}},
		}},
		{"005 set repeated suits, all wild rejected", mrFibur, []step{
			{"", "2C 2D JK", "", meldWant{code: ErrInvalidMeld}},
			{"", "7H 7H 7D 7C", "", meldWant{cards: "7H 7H 7D 7C"}},
		}},
		{"006 attach to a set, second sequence", mrFibur, []step{
			{"9S 9H 9D", "9C 9C 9H", "", meldWant{cards: "9S 9H 9D 9C 9C 9H"}},
			{"", "JH QH KH", "", meldWant{cards: "JH QH KH"}},
		}},
		{"007 two wilds, natural 2 plus joker", mrFibur, []step{
			{"", "5S JK 2D 8S", "", meldWant{code: ErrTooManyWilds}},
			{"", "AD 2D JK 4D", "", meldWant{cards: "AD 2D JK 4D", stands: "3D"}},
		}},
		{"008 free low and wild_as", mrFibur, []step{
			{"", "6C 7C JK", "", meldWant{cards: "JK 6C 7C", stands: "5C"}},
			{"", "9H TH JK", "JH", meldWant{cards: "9H TH JK", stands: "JH"}},
		}},
		{"009 free wild slides", mrFibur, []step{
			{"2C TC JC", "KC", "", meldWant{cards: "TC JC 2C KC", stands: "QC"}},
			{"2H 5H 6H", "8H", "", meldWant{cards: "5H 6H 2H 8H", stands: "7H"}},
		}},
		{"010 imprisoned", mrFibur, []step{
			{"6C JK 8C", "TC", "", meldWant{code: ErrWildLocked}},
			{"6C JK 8C", "7C TC", "", meldWant{cards: "6C 7C 8C JK TC", stands: "9C"}},
		}},
		{"011 replaced moves in meld", mrFibur, []step{
			{"QD 2D AD", "TD", "", meldWant{code: ErrWildLocked}},
			{"QD 2D AD", "KD TD", "", meldWant{cards: "TD 2D QD KD AD", stands: "JD"}},
		}},
		{"012 pinella turns natural", mrFibur, []step{
			{"3C 2C 5C 6C 7C 8C", "4C", "", meldWant{cards: "2C 3C 4C 5C 6C 7C 8C"}},
			{"", "KS KH KD", "", meldWant{cards: "KS KH KD"}},
		}},
		{"013 pinella end exception", mrFibur, []step{
			{"2H 2H 3H", "5H", "", meldWant{cards: "2H 3H 2H 5H", stands: "4H"}},
		}},
		{"023 reale no sets", mrReale, []step{
			{"", "7C 7D 7H", "", meldWant{code: ErrInvalidMeld}},
			{"4S 5S 6S", "7S", "", meldWant{cards: "4S 5S 6S 7S"}},
			{"5D 6D 7D 8D 9D TD JD", "QD KD", "", meldWant{cards: "5D 6D 7D 8D 9D TD JD QD KD"}},
		}},
		{"024 aberto no sets", mrAberto, []step{
			{"", "9S 9H 9D", "", meldWant{code: ErrInvalidMeld}},
			{"", "5C 6C 7C", "", meldWant{cards: "5C 6C 7C"}},
		}},
		{"025 fechado sets", mrFechado, []step{
			{"", "JD JC JH", "", meldWant{cards: "JD JC JH"}},
			{"", "AD AH AC AC", "", meldWant{cards: "AD AH AC AC"}},
			{"", "4D 5D 6D", "", meldWant{cards: "4D 5D 6D"}},
		}},
		{"026 fibur-row", mrFibur, []step{
			{"", "7H 8H 9H", "", meldWant{cards: "7H 8H 9H"}},
			{"", "TD JD QD", "", meldWant{cards: "TD JD QD"}},
			{"7H 8H 9H", "KD", "", meldWant{code: ErrInvalidMeld}},
			{"TD JD QD", "KD", "", meldWant{cards: "TD JD QD KD"}},
		}},
	}
	for _, tc := range cases {
		for i, s := range tc.steps {
			outcome := "ok"
			if s.want.code != "" {
				outcome = string(s.want.code)
			}
			t.Run(outcome+"/"+tc.name+"/step "+string(rune('0'+i)), func(t *testing.T) {
				var m Meld
				var err error
				if s.meld == "" {
					m, err = NewMeld(tc.mr, mcards(s.cards), mcard(s.wildAs))
				} else {
					m, err = mload(t, tc.mr, s.meld).Attach(tc.mr, mcards(s.cards), mcard(s.wildAs))
				}
				s.want.check(t, tc.mr, m, err)
			})
		}
	}
}

func TestMeldBurraco(t *testing.T) {
	tests := []struct {
		name     string
		mr       MeldRules
		meld     string
		semi     bool
		atLeast8 bool
		want     BurracoKind
	}{
		{"NotBurraco/six cards", mrFibur, "4C 5C 6C 7C 8C 9C", true, false, NotBurraco},
		{"NotBurraco/six cards with a wild", mrFibur, "4C 5C JK 7C 8C 9C", true, false, NotBurraco},
		{"NotBurraco/set of six", mrFibur, "7S 7S 7H 7H 7D 7D", true, false, NotBurraco},
		{"Clean/seven naturals", mrFibur, "4C 5C 6C 7C 8C 9C TC", true, false, Clean},
		{"Clean/natural 2", mrFibur, "2C 3C 4C 5C 6C 7C 8C", true, false, Clean},
		{"Clean/A..K", mrFibur, mSpadesAK, false, false, Clean},
		{"Clean/set of seven", mrFibur, "7S 7S 7H 7H 7D 7D 7C", true, false, Clean},
		{"Clean/fechado canastra of 2s", mrFechado, "2S 2S 2H 2H 2D 2D 2C", false, false, Clean},
		{"Dirty/fechado canastra of 2s with a joker", mrFechado, "2S 2S 2H 2H 2D 2D JK", false, false, Dirty},
		{"Dirty/seven with the wild at an end", mrFibur, "JK 5C 6C 7C 8C 9C TC", true, false, Dirty},
		{"Dirty/seven with the wild inside", mrFibur, "4C 5C JK 7C 8C 9C TC", true, false, Dirty},
		{"SemiClean/wild at the low end of seven naturals", mrFibur, "JK 4C 5C 6C 7C 8C 9C TC", true, false, SemiClean},
		{"SemiClean/wild at the high end of seven naturals", mrFibur, "4C 5C 6C 7C 8C 9C TC JK", true, false, SemiClean},
		{"SemiClean/pinella low before a natural 2", mrFibur, "2D 2C 3C 4C 5C 6C 7C 8C", true, false, SemiClean},
		{"SemiClean/fibur A..K and the joker", mrFibur, mSpadesAK + " JK", true, false, SemiClean},
		{"Dirty/semi_clean off", mrFibur, "JK 4C 5C 6C 7C 8C 9C TC", false, false, Dirty},
		{"Dirty/eight with the wild inside", mrFibur, "4C 5C 6C JK 8C 9C TC JC", true, true, Dirty},
		{"SemiClean/set of 8 with its wild, exactly8", mrFibur, "7S 7S 7H 7H 7D 7D 7C JK", true, false, SemiClean},
		{"SemiClean/set of 8 with its wild, at_least8", mrFibur, "7S 7S 7H 7H 7D 7D 7C JK", true, true, SemiClean},
		{"Dirty/set of 9 with its wild, exactly8", mrFibur, "7S 7S 7H 7H 7D 7D 7C 7C JK", true, false, Dirty},
		{"SemiClean/set of 9 with its wild, at_least8", mrFibur, "7S 7S 7H 7H 7D 7D 7C 7C JK", true, true, SemiClean},
		{"Dirty/set of 7 with its wild", mrFibur, "7S 7S 7H 7H 7D 7D JK", true, true, Dirty},
		{"Dirty/set of 8 with its wild, semi_clean off", mrFibur, "7S 7S 7H 7H 7D 7D 7C JK", false, true, Dirty},
		{"Clean/set of 8 naturals", mrFibur, "7S 7S 7H 7H 7D 7D 7C 7C", true, true, Clean},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mload(t, tt.mr, tt.meld)
			if got := m.Burraco(tt.semi, tt.atLeast8); got != tt.want {
				t.Fatalf("%s.Burraco(%v, %v) = %d, want %d", m, tt.semi, tt.atLeast8, got, tt.want)
			}
			if m.Clean() != (tt.want == Clean) && tt.want != NotBurraco {
				t.Fatalf("%s.Clean() = %v", m, m.Clean())
			}
		})
	}
}

func TestMeldHelpers(t *testing.T) {
	m := mload(t, mrFibur, "5H JK 7H 8H")
	if m.Len() != 4 || m.Naturals() != 3 || m.High() != 8 || m.Low != 5 {
		t.Fatalf("Len %d Naturals %d Low %v High %v", m.Len(), m.Naturals(), m.Low, m.High())
	}
	if got := m.String(); got != "[5H JK(=6H) 7H 8H]" {
		t.Fatalf("String() = %q", got)
	}
	s := mload(t, mrFibur, "7H 2C 7D")
	if got := s.String(); got != "[7H 2C(=7) 7D]" {
		t.Fatalf("String() = %q", got)
	}
	if s.High() != NoRank || s.StandsFor().Rank() != 7 || s.StandsFor().Suit() != NoSuit {
		t.Fatalf("set High %v StandsFor %#x", s.High(), s.StandsFor())
	}
	hi := mload(t, mrFibur, "QH KH AH")
	if hi.High() != HighAce {
		t.Fatalf("High() = %v, want HighAce", hi.High())
	}
	if !mload(t, mrFibur, "7H 2C 7D").Equal(mload(t, mrFibur, "7D 7H 2C")) {
		t.Fatal("sets with the same cards in another order are not Equal")
	}
	if mload(t, mrFibur, "7H 7C 7D").Equal(mload(t, mrFibur, "7D 7H 7H")) {
		t.Fatal("sets with different cards are Equal")
	}
	if mload(t, mrFibur, "JK 6C 7C").Equal(mload(t, mrFibur, "6C 7C JK")) {
		t.Fatal("sequences with the wild in different places are Equal")
	}
	if !m.Equal(mload(t, mrFibur, "5H JK 7H 8H")) {
		t.Fatal("identical sequences are not Equal")
	}
}

func TestMeldRulesSetAllowed(t *testing.T) {
	tests := []struct {
		name string
		mr   MeldRules
		r    Rank
		want bool
	}{
		{"fibur 7s", mrFibur, 7, true},
		{"reale 7s", mrReale, 7, false},
		{"aberto threes_and_aces 3s", mrAbertoSets, Three, true},
		{"aberto threes_and_aces aces", mrAbertoSets, Ace, true},
		{"aberto threes_and_aces 7s", mrAbertoSets, 7, false},
		{"SetRanks alone enables those ranks", MeldRules{SetRanks: []Rank{Three}}, Three, true},
		{"empty SetRanks allows none", MeldRules{Sets: true, SetRanks: []Rank{}}, Three, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.mr.setAllowed(tt.r); got != tt.want {
				t.Fatalf("setAllowed(%v) = %v, want %v", tt.r, got, tt.want)
			}
		})
	}
}

func ExampleNewMeld() {
	rules := MeldRules{Sets: true} // fibur
	m, _ := NewMeld(rules, []Card{MustParseCard("7C"), MustParseCard("6C"), Joker}, 0)
	fmt.Println(FormatCards(m.Cards), m.StandsFor()) // a free wild goes low
	m, _ = NewMeld(rules, []Card{MustParseCard("9H"), MustParseCard("TH"), Joker}, MustParseCard("JH"))
	fmt.Println(FormatCards(m.Cards), m.StandsFor())
	_, err := NewMeld(rules, []Card{MustParseCard("5S"), Joker, MustParseCard("2D"), MustParseCard("8S")}, 0)
	fmt.Println(ErrorCode(err))
	// Output:
	// [JK 6C 7C] 5C
	// [9H TH JK] JH
	// too_many_wilds
}

func ExampleMeld_Attach() {
	rules := MeldRules{Sets: true} // fibur
	m, _ := LoadMeld(rules, []Card{MustParseCard("6C"), Joker, MustParseCard("8C")})
	_, err := m.Attach(rules, []Card{MustParseCard("TC")}, 0)
	fmt.Println(ErrorCode(err)) // the joker is imprisoned
	m, _ = m.Attach(rules, []Card{MustParseCard("TC"), MustParseCard("7C")}, 0)
	fmt.Println(m)
	// Output:
	// wild_locked
	// [6C 7C 8C JK(=9C) TC]
}
