package engine

import (
	"fmt"
	"strings"
)

// Suit is a card suit. Jokers have NoSuit.
type Suit uint8

// Suits in notation order: S H D C (RULES §1).
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
	NoSuit
)

const suitLetters = "SHDC"

// String returns the suit's notation letter ("S", "H", "D", "C"), or "" for NoSuit.
func (s Suit) String() string {
	if s < NoSuit {
		return suitLetters[s : s+1]
	}
	return ""
}

// Rank is a card rank: Ace=1 … King=13. A joker has rank 0. In a sequence
// an ace standing above the king occupies position HighAce (14); the card is
// still an Ace.
type Rank uint8

// Ranks.
const (
	NoRank Rank = 0
	Ace    Rank = 1
	Two    Rank = 2
	Three  Rank = 3
	Jack   Rank = 11
	Queen  Rank = 12
	King   Rank = 13
	// HighAce is the sequence position of an ace above the king.
	HighAce Rank = 14
)

const rankLetters = "?A23456789TJQKA"

// String returns the rank's notation letter ("A", "2" … "T", "J", "Q", "K").
func (r Rank) String() string {
	if r >= Ace && r <= HighAce {
		return rankLetters[r : r+1]
	}
	return "?"
}

// Card is one playing card (carta). Two decks are used, so two equal Card
// values may exist at once; they are interchangeable. The zero Card is invalid.
// The representation is one byte (suit<<4 | rank) so that hands and melds are
// cheap to copy and compare.
type Card uint8

// Joker is the joker (jolly).
const Joker Card = Card(uint8(NoSuit) << 4)

// NewCard returns the card of rank r (Ace..King) and suit s (Spades..Clubs).
func NewCard(r Rank, s Suit) Card { return Card(uint8(s)<<4 | uint8(r)) }

// Rank returns the card's rank (NoRank for a joker).
func (c Card) Rank() Rank { return Rank(c & 0x0f) }

// Suit returns the card's suit (NoSuit for a joker).
func (c Card) Suit() Suit { return Suit(c >> 4) }

// IsJoker reports whether c is a joker.
func (c Card) IsJoker() bool { return c == Joker }

// IsTwo reports whether c is a 2 (pinella), which may be wild or natural.
func (c Card) IsTwo() bool { return c.Rank() == Two && c.Suit() < NoSuit }

// Valid reports whether c is a real card: a joker or a rank A..K of a suit.
func (c Card) Valid() bool {
	if c == Joker {
		return true
	}
	return c.Suit() < NoSuit && c.Rank() >= Ace && c.Rank() <= King
}

// String returns the card in notation: "AS", "TH", "2C", "JK". An invalid
// card prints as "??".
func (c Card) String() string { return cardNames[c] }

// cardNames is every Card value's notation, made once: a state's hand,
// pile and melds are written card by card at every poll, and a name made
// by concatenation was an allocation each.
var cardNames = func() (names [256]string) {
	for i := range names {
		c := Card(i)
		switch {
		case c == Joker:
			names[i] = "JK"
		case c.Valid():
			names[i] = c.Rank().String() + c.Suit().String()
		default:
			names[i] = "??"
		}
	}
	return names
}()

// ParseCard reads a card in notation. Ranks A 2..9 T J Q K (and "10" for T),
// suits S H D C, "JK" for the joker; letters are case-insensitive and
// surrounding spaces are ignored.
func ParseCard(s string) (Card, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if t == "JK" {
		return Joker, nil
	}
	if len(t) < 2 || len(t) > 3 {
		return 0, cardError(s)
	}
	rs, ss := t[:len(t)-1], t[len(t)-1]
	suit := Suit(strings.IndexByte(suitLetters, ss))
	if suit >= NoSuit {
		return 0, cardError(s)
	}
	if rs == "10" {
		rs = "T"
	}
	if len(rs) != 1 {
		return 0, cardError(s)
	}
	r := strings.IndexByte(rankLetters[:14], rs[0]) // excludes the high-ace slot
	if r < int(Ace) {
		return 0, cardError(s)
	}
	return NewCard(Rank(r), suit), nil
}

func cardError(s string) error {
	return &RuleError{Code: ErrBadNotation, Message: fmt.Sprintf("%q is not a card (expected e.g. AS, TH, 10D, 2C, JK)", s)}
}

// MustParseCard is ParseCard for literals in tests and examples; it panics on
// bad input and must never see user input.
func MustParseCard(s string) Card {
	c, err := ParseCard(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseCards reads a list of cards in notation.
func ParseCards(ss []string) ([]Card, error) {
	out := make([]Card, len(ss))
	for i, s := range ss {
		c, err := ParseCard(s)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// FormatCards returns the notation of each card.
func FormatCards(cs []Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// MarshalText encodes the card in notation (so JSON carries "AS", not a number).
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, cardError(c.String())
	}
	return []byte(c.String()), nil
}

// UnmarshalText decodes a card in notation.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// IsWildCard reports whether c can act as a wild (matta): a joker or a 2.
// Whether a given 2 is wild or natural depends on its place in a meld.
func (c Card) IsWildCard() bool { return c == Joker || c.IsTwo() }
