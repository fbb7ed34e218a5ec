package engine

import (
	"slices"
	"testing"
)

// meldFuzzInput is what FuzzMeld decodes from its bytes.
//
// Layout: a header byte (bit 0 Sets, 1 SetsOfTwos, 2 AceBothEnds, 3 SetRanks
// {3, A}, bits 4-5 the base suit), a count byte (low nibble: cards of the new
// meld; high nibble: cards to attach), the cards, wildAs, the attached
// cards, their wildAs. A card byte has the rank in its low nibble (0 and 14
// joker, 15 an invalid card) and in its high nibble the suit: 0–7 the base
// suit, 8–15 suit (nibble & 3). A wildAs byte 0 is "none". Missing bytes read
// as 0.
type meldFuzzInput struct {
	mr            MeldRules
	cards, add    []Card
	wildAs, addAs Card
}

type fuzzReader struct {
	b []byte
	i int
}

func (r *fuzzReader) next() byte {
	if r.i >= len(r.b) {
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

func decodeFuzzCard(b byte, base Suit) Card {
	rank, sel := b&0x0F, b>>4
	suit := base
	if sel >= 8 {
		suit = Suit(sel & 3)
	}
	switch rank {
	case 0, 14:
		return Joker
	case 15:
		return Card(b) // not a card
	}
	return NewCard(Rank(rank), suit)
}

func encodeFuzzCard(c Card) byte {
	if c == Joker {
		return 0x80
	}
	return (8+byte(c.Suit()))<<4 | byte(c.Rank())
}

func decodeMeldFuzz(data []byte) meldFuzzInput {
	r := fuzzReader{b: data}
	h := r.next()
	var in meldFuzzInput
	in.mr = MeldRules{Sets: h&1 != 0, SetsOfTwos: h&2 != 0, AceBothEnds: h&4 != 0}
	if h&8 != 0 {
		in.mr.SetRanks = []Rank{Three, Ace}
	}
	base := Suit(h >> 4 & 3)
	n := r.next()
	for range n & 0x0F {
		in.cards = append(in.cards, decodeFuzzCard(r.next(), base))
	}
	if b := r.next(); b != 0 {
		in.wildAs = decodeFuzzCard(b, base)
	}
	for range n >> 4 {
		in.add = append(in.add, decodeFuzzCard(r.next(), base))
	}
	if b := r.next(); b != 0 {
		in.addAs = decodeFuzzCard(b, base)
	}
	return in
}

func encodeMeldFuzz(h byte, cards []Card, wildAs Card, add []Card, addAs Card) []byte {
	out := []byte{h, byte(len(add))<<4 | byte(len(cards))}
	for _, c := range cards {
		out = append(out, encodeFuzzCard(c))
	}
	out = append(out, 0)
	if wildAs != 0 {
		out[len(out)-1] = encodeFuzzCard(wildAs)
	}
	for _, c := range add {
		out = append(out, encodeFuzzCard(c))
	}
	out = append(out, 0)
	if addAs != 0 {
		out[len(out)-1] = encodeFuzzCard(addAs)
	}
	return out
}

// Header bytes of the rule sets for seeds.
const (
	fuzzFibur   = 0x01
	fuzzReale   = 0x04
	fuzzFechado = 0x07
	fuzzAberto3 = 0x0D
)

func FuzzMeld(f *testing.F) {
	seeds := []struct {
		h                   byte
		cards, wildAs, add  string
		addAs               string
		loadInsteadOfCreate bool
	}{
		{fuzzFibur, "AS 2S 3S", "", "JK", "", false},
		{fuzzFibur, "QH KH AH", "", "JH", "", false},
		{fuzzFibur, "KD AD 2D", "", "QD", "", false},
		{fuzzFibur, "KC AC 2C 3C", "", "", "", false},
		{fuzzFibur, mSpadesAK, "", "JK", "", false},
		{fuzzReale, mSpadesAK, "", "AS", "", false},
		{fuzzFibur, "7H 7H 7D 7C", "", "JK 7S", "", false},
		{fuzzFibur, "2C 2D JK", "", "", "", false},
		{fuzzFechado, "2C 2D JK", "", "2H 2H", "", false},
		{fuzzFibur, "5S JK 2D 8S", "", "", "", false},
		{fuzzFibur, "AD 2D JK 4D", "", "3D", "", false},
		{fuzzFibur, "6C 7C JK", "", "5C", "8C", false},
		{fuzzFibur, "9H TH JK", "JH", "8H", "", false},
		{fuzzFibur, "2C TC JC", "", "KC", "", true},
		{fuzzFibur, "2H 5H 6H", "", "8H", "", true},
		{fuzzFibur, "6C JK 8C", "", "TC", "", true},
		{fuzzFibur, "6C JK 8C", "", "7C TC", "", true},
		{fuzzFibur, "QD 2D AD", "", "KD TD", "", true},
		{fuzzFibur, "3C 2C 5C 6C", "", "4C", "", true},
		{fuzzFibur, "2H 2H 3H", "", "5H", "", true},
		{fuzzFibur, "3H 2H 5H", "", "2C", "", true},
		{fuzzAberto3, "3S 3H JK", "3D", "3C", "", false},
		{fuzzFibur, "2S 2H 3S", "4S", "AS", "", false},
		// Shapes that caught deliberate bugs: natural aces at both ends in
		// fibur, a 2 of the suit wild in its own place.
		{fuzzFibur, "AS 2S 3S 4S JK 6S 7S 8S 9S TS JS QS KS", "", "AS", "", false},
		{fuzzFibur, "JK 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "", "2S", "", false},
		{fuzzFechado, mSpades2K, "", "AS AS", "", false},
		// RULES §5 as amended: the natural 2 at the low end moves, the ace
		// goes high beside a wild king, a replaced 2 turns natural.
		{fuzzFibur, "2C 3C 4C", "", "6C", "", false},
		{fuzzFibur, "AD 2D 3D", "", "5D", "", false},
		{fuzzFibur, "3C 4C 5C 6C 7C 8C 9C TC JC QC 2H", "KC", "AC", "", false},
		{fuzzFibur, "3C 2C 5C 6C", "", "4C", "7C", true},
		{fuzzFechado, "2S 2H 2D 2C 2S 2H", "", "2D JK", "", false},
	}
	for _, s := range seeds {
		cs := mcards(s.cards)
		if s.loadInsteadOfCreate {
			// Arrange the new meld so that NewMeld gives the loaded shape.
			m, err := LoadMeld(decodeMeldFuzz([]byte{s.h}).mr, cs)
			if err != nil {
				f.Fatalf("seed %s: %v", s.cards, err)
			}
			f.Add(encodeMeldFuzz(s.h, m.Cards, m.StandsFor(), mcards(s.add), mcard(s.addAs)))
			continue
		}
		f.Add(encodeMeldFuzz(s.h, cs, mcard(s.wildAs), mcards(s.add), mcard(s.addAs)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := decodeMeldFuzz(data)
		fuzzLoad(t, in)
		base, ok := fuzzNew(t, in)
		if !ok {
			l, err := LoadMeld(in.mr, in.cards)
			if err != nil {
				return
			}
			base = l
		}
		fuzzAttach(t, in, base)
	})
}

// fuzzNew checks NewMeld on the decoded cards.
func fuzzNew(t *testing.T, in meldFuzzInput) (Meld, bool) {
	orig := slices.Clone(in.cards)
	m, err := NewMeld(in.mr, in.cards, in.wildAs)
	if !slices.Equal(in.cards, orig) {
		t.Fatalf("NewMeld modified its input")
	}
	if err != nil {
		fuzzCheckErr(t, err, false)
		return Meld{}, false
	}
	fuzzCheckMeld(t, in.mr, m)
	if !sameMultiset(m.Cards, in.cards) {
		t.Fatalf("NewMeld(%s) = %s: not the same cards", mnotation(in.cards), m)
	}
	if in.wildAs != 0 && !fuzzStandsFor(m, in.wildAs) {
		t.Fatalf("NewMeld(%s, wildAs %v) = %s", mnotation(in.cards), in.wildAs, m)
	}
	if len(in.cards) > 0 && &in.cards[0] == &m.Cards[0] {
		t.Fatalf("NewMeld kept the caller's slice")
	}
	return m, true
}

// fuzzLoad checks LoadMeld on the decoded cards, and that NewMeld finds an
// arrangement for every meld LoadMeld accepts.
func fuzzLoad(t *testing.T, in meldFuzzInput) {
	l, err := LoadMeld(in.mr, in.cards)
	if err != nil {
		fuzzCheckErr(t, err, false)
		return
	}
	fuzzCheckMeld(t, in.mr, l)
	if !slices.Equal(l.Cards, in.cards) {
		t.Fatalf("LoadMeld(%s) = %s", mnotation(in.cards), l)
	}
	if _, err := NewMeld(in.mr, in.cards, 0); err != nil {
		t.Fatalf("LoadMeld accepts %s but NewMeld refuses it: %v", l, err)
	}
	if s := l.StandsFor(); s != 0 {
		n, err := NewMeld(in.mr, in.cards, s)
		if err != nil {
			t.Fatalf("LoadMeld accepts %s but NewMeld refuses it with wildAs %v: %v", l, s, err)
		}
		if !fuzzStandsFor(n, s) {
			t.Fatalf("NewMeld(%s, wildAs %v) = %s", mnotation(in.cards), s, n)
		}
	}
}

// fuzzAttach checks Attach of the decoded cards to base.
func fuzzAttach(t *testing.T, in meldFuzzInput, base Meld) {
	before := slices.Clone(base.Cards)
	r, err := base.Attach(in.mr, in.add, in.addAs)
	if !slices.Equal(base.Cards, before) {
		t.Fatalf("Attach modified its receiver %s", mnotation(before))
	}
	imprisoned := base.Kind == Sequence && base.Wild > 0 && base.Wild < len(base.Cards)-1
	replaced := slices.Contains(in.add, base.StandsFor())
	if err != nil {
		fuzzCheckErr(t, err, imprisoned)
		return
	}
	fuzzCheckMeld(t, in.mr, r)
	if r.Kind != base.Kind || r.Suit != base.Suit || r.SetRank != base.SetRank {
		t.Fatalf("Attach changed %s into %s", base, r)
	}
	if !sameMultiset(r.Cards, append(slices.Clone(base.Cards), in.add...)) {
		t.Fatalf("%s + %s = %s: not the same cards", base, mnotation(in.add), r)
	}
	if in.addAs != 0 && !fuzzStandsFor(r, in.addAs) {
		t.Fatalf("%s + %s wildAs %v = %s", base, mnotation(in.add), in.addAs, r)
	}
	if base.Kind == Sequence {
		// Naturals never move, but for a natural 2 at the low end of a meld
		// without a wild, which may become the wild in a gap; an imprisoned
		// wild moves only when replaced.
		lowTwoMoved := base.Wild < 0 && base.Low == Two && r.Low > Two
		if lowTwoMoved && (r.Wild <= 0 || r.Wild >= len(r.Cards)-1 || r.Cards[r.Wild] != base.Cards[0]) {
			t.Fatalf("%s + %s = %s: the natural 2 left without filling a gap", base, mnotation(in.add), r)
		}
		for i, c := range base.Cards {
			j := int(base.Low) + i - int(r.Low)
			if i == 0 && lowTwoMoved {
				continue
			}
			if i != base.Wild && (j < 0 || j >= len(r.Cards) || r.Cards[j] != c || j == r.Wild) {
				t.Fatalf("%s + %s = %s: natural %v moved", base, mnotation(in.add), r, c)
			}
		}
		if imprisoned && !replaced && (r.StandsFor() != base.StandsFor() || r.Cards[r.Wild] != base.Cards[base.Wild]) {
			t.Fatalf("%s + %s = %s: the imprisoned wild moved", base, mnotation(in.add), r)
		}
	}
	r.Cards[0] ^= 0xFF
	if !slices.Equal(base.Cards, before) {
		t.Fatalf("Attach's result shares memory with its receiver")
	}
}

// fuzzStandsFor reports whether m's wild stands for as.
func fuzzStandsFor(m Meld, as Card) bool {
	if m.Kind == Set {
		return m.Wild >= 0 && as.Rank() == m.SetRank
	}
	return m.StandsFor() == as
}

// fuzzCheckErr checks that err is one of the meld codes.
func fuzzCheckErr(t *testing.T, err error, lockable bool) {
	switch ErrorCode(err) {
	case ErrInvalidMeld, ErrTooManyWilds:
	case ErrWildLocked:
		if !lockable {
			t.Fatalf("ErrWildLocked without an imprisoned wild: %v", err)
		}
	default:
		t.Fatalf("unexpected error %v", err)
	}
}

// fuzzCheckMeld checks m against the meld law, written again independently
// of the engine's code, and the LoadMeld round trip.
func fuzzCheckMeld(t *testing.T, mr MeldRules, m Meld) {
	t.Helper()
	checkMeldInvariants(t, mr, m)
	n, wilds := len(m.Cards), 0
	if n < 3 {
		t.Fatalf("%s: fewer than 3 cards", m)
	}
	if k := m.Burraco(true, false); (k == NotBurraco) != (n < 7) || (k == Clean) != (n >= 7 && m.Wild < 0) {
		t.Fatalf("%s: Burraco %d", m, k)
	}
	switch m.Kind {
	case Sequence:
		if int(m.Low)+n-1 > int(HighAce) || m.Low < Ace || n > 14 {
			t.Fatalf("%s: positions %v..+%d", m, m.Low, n)
		}
		for i, c := range m.Cards {
			p := m.Low + Rank(i)
			switch {
			case c == Joker || c.IsTwo() && (c.Suit() != m.Suit || p != Two):
				wilds++
				if i != m.Wild {
					t.Fatalf("%s: wild at %d, Wild %d", m, i, m.Wild)
				}
			case c.Suit() != m.Suit || c.Rank() != p && !(c.Rank() == Ace && p == HighAce):
				t.Fatalf("%s: %v out of place", m, c)
			}
		}
		if !mr.AceBothEnds && m.Low == Ace && m.High() == HighAce && m.Wild != 0 && m.Wild != n-1 {
			t.Fatalf("%s: natural aces at both ends", m)
		}
	case Set:
		naturals := 0
		for i, c := range m.Cards {
			switch {
			case c != Joker && c.Rank() == m.SetRank:
				naturals++
			case c.IsWildCard():
				wilds++
				if i != m.Wild {
					t.Fatalf("%s: wild at %d, Wild %d", m, i, m.Wild)
				}
			default:
				t.Fatalf("%s: %v is not of the set's rank", m, c)
			}
		}
		allowed := m.SetRank == Two && mr.SetsOfTwos ||
			m.SetRank != Two && (mr.Sets || mr.SetRanks != nil) && (mr.SetRanks == nil || slices.Contains(mr.SetRanks, m.SetRank))
		if naturals > 8 || naturals < 2 || !allowed {
			t.Fatalf("%s: %d naturals, allowed %v", m, naturals, allowed)
		}
	default:
		t.Fatalf("%+v: kind %d", m, m.Kind)
	}
	if wilds > 1 || (wilds == 1) != (m.Wild >= 0) {
		t.Fatalf("%s: %d wilds, Wild %d", m, wilds, m.Wild)
	}
}

// TestMeldFuzzCodec keeps the fuzz encoding honest: seeds decode to what
// they encode.
func TestMeldFuzzCodec(t *testing.T) {
	cs, add := mcards("AS JK 2H KD"), mcards("TC 7S")
	in := decodeMeldFuzz(encodeMeldFuzz(fuzzFechado, cs, mcard("3H"), add, mcard("QC")))
	if !slices.Equal(in.cards, cs) || !slices.Equal(in.add, add) || in.wildAs != mcard("3H") || in.addAs != mcard("QC") ||
		!in.mr.Sets || !in.mr.SetsOfTwos || !in.mr.AceBothEnds || in.mr.SetRanks != nil {
		t.Fatalf("decoded %+v", in)
	}
}
