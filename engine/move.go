package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// MoveKind is the kind of a move.
type MoveKind uint8

// Move kinds, in the vocabulary of the conformance cases.
const (
	NoMove      MoveKind = iota
	Draw                 // take the top card of the stock (tallone)
	Pickup               // take the whole discard pile (pozzo)
	MeldCards            // lay one or more new melds
	AttachCards          // add cards to one of the team's melds
	Discard              // discard one card; ends the turn
	Redraw               // Brazilian first turn: discard the drawn card face up, draw another
)

var moveNames = [...]string{"", "draw", "pickup", "meld", "attach", "discard", "redraw"}

// String returns the move's name in notation ("draw", "meld", …).
func (k MoveKind) String() string {
	if int(k) < len(moveNames) {
		return moveNames[k]
	}
	return "?"
}

// ParseMoveKind reads a move name.
func ParseMoveKind(s string) (MoveKind, error) {
	for i, n := range moveNames {
		if i > 0 && n == s {
			return MoveKind(i), nil
		}
	}
	return NoMove, ruleErr(ErrUnknownMove, fmt.Sprintf("unknown move %q", s))
}

// Move is one move by the player on turn. Which fields matter depends on
// Kind:
//
//   - Draw, Redraw: none.
//   - Pickup: none, except in fechado, where the top card must be used at once:
//     Cards (hand or pile cards laid with the top card as a new meld), or
//     Attach with Meld (the top card added to that meld, with Cards, hand or
//     pile cards, if any); Melds lays further melds in the same move; WildAs
//     applies to the meld or attach of the top card.
//   - MeldCards: Cards (one new meld) or Melds (several at once); WildAs;
//     Row (fibur-row: the next row card joins Cards).
//   - AttachCards: Meld (index in the team's melds), Cards, WildAs; Row (the
//     next row card is the card added).
//   - Discard: Card.
type Move struct {
	Kind   MoveKind
	Card   Card
	Cards  []Card
	Melds  [][]Card
	Meld   int
	Attach bool
	WildAs Card
	Row    bool
}

// Move constructors.

// DrawMove draws from the stock.
func DrawMove() Move { return Move{Kind: Draw} }

// PickupMove takes the discard pile.
func PickupMove() Move { return Move{Kind: Pickup} }

// PickupMeldMove (fechado) takes the pile and lays its top card with cards,
// plus further melds.
func PickupMeldMove(cards []Card, more ...[]Card) Move {
	return Move{Kind: Pickup, Cards: cards, Melds: more}
}

// PickupAttachMove (fechado) takes the pile and adds its top card to meld
// i, with cards (from the hand or from under the top), if any.
func PickupAttachMove(i int, cards ...Card) Move {
	return Move{Kind: Pickup, Attach: true, Meld: i, Cards: cards}
}

// MeldMove lays cards as one new meld.
func MeldMove(cards ...Card) Move { return Move{Kind: MeldCards, Cards: cards} }

// AttachMove adds cards to the team's meld i.
func AttachMove(i int, cards ...Card) Move { return Move{Kind: AttachCards, Meld: i, Cards: cards} }

// DiscardMove discards c.
func DiscardMove(c Card) Move { return Move{Kind: Discard, Card: c} }

// RedrawMove is the Brazilian first-turn redraw.
func RedrawMove() Move { return Move{Kind: Redraw} }

// moveJSON is the wire form of a move (conformance vocabulary).
type moveJSON struct {
	Move   string          `json:"move"`
	Card   *Card           `json:"card,omitempty"`
	Meld   json.RawMessage `json:"meld,omitempty"`
	Attach *int            `json:"attach,omitempty"`
	Cards  []Card          `json:"cards,omitempty"`
	Melds  [][]Card        `json:"melds,omitempty"`
	WildAs *Card           `json:"wild_as,omitempty"`
	Row    bool            `json:"row,omitempty"`
}

// MarshalJSON encodes the move in the conformance vocabulary:
// {"move":"attach","meld":0,"cards":["5H"]}.
func (m Move) MarshalJSON() ([]byte, error) {
	if m.Kind == NoMove || int(m.Kind) >= len(moveNames) {
		return nil, ruleErr(ErrUnknownMove, "cannot encode an unknown move")
	}
	w := moveJSON{Move: m.Kind.String(), Row: m.Row}
	switch m.Kind {
	case Discard:
		c := m.Card
		w.Card = &c
	case MeldCards:
		w.Cards, w.Melds = m.Cards, m.Melds
	case AttachCards:
		w.Meld = []byte(fmt.Sprint(m.Meld))
		w.Cards = m.Cards
	case Pickup:
		w.Melds = m.Melds
		if m.Attach {
			i := m.Meld
			w.Attach, w.Cards = &i, m.Cards
		} else if len(m.Cards) > 0 {
			b, err := json.Marshal(m.Cards)
			if err != nil {
				return nil, err
			}
			w.Meld = b
		}
	}
	if m.WildAs != 0 {
		c := m.WildAs
		w.WildAs = &c
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes a move in the conformance vocabulary. "meld" is a
// meld index for attach and a card list for a fechado pickup; a fechado
// pickup with "attach" lists the cards joining the top card in "cards".
// Unknown keys (such as a step's "seat") are ignored. Errors:
// ErrBadNotation, ErrUnknownMove.
func (m *Move) UnmarshalJSON(data []byte) error {
	var w moveJSON
	if err := json.Unmarshal(data, &w); err != nil {
		if ErrorCode(err) != "" {
			return err
		}
		return ruleErr(ErrBadNotation, "move: "+err.Error())
	}
	k, err := ParseMoveKind(w.Move)
	if err != nil {
		return err
	}
	v := Move{Kind: k, Cards: w.Cards, Melds: w.Melds, Row: w.Row}
	if w.Card != nil {
		v.Card = *w.Card
	}
	if w.WildAs != nil {
		v.WildAs = *w.WildAs
	}
	raw := bytes.TrimSpace(w.Meld)
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '[':
		if k != Pickup || len(v.Cards) > 0 {
			return ruleErr(ErrBadNotation, "move: a card list in \"meld\" is for a fechado pickup")
		}
		if err := json.Unmarshal(raw, &v.Cards); err != nil {
			return moveNotationErr(err)
		}
	default:
		if err := json.Unmarshal(raw, &v.Meld); err != nil {
			return moveNotationErr(err)
		}
	}
	if w.Attach != nil {
		switch {
		case k != Pickup:
			return ruleErr(ErrBadNotation, "move: \"attach\" is for a fechado pickup")
		case len(raw) > 0 && string(raw) != "null":
			return ruleErr(ErrBadNotation, "move: a fechado pickup has \"meld\" or \"attach\", not both")
		}
		v.Attach, v.Meld = true, *w.Attach
	}
	if k == Discard && w.Card == nil {
		return ruleErr(ErrBadNotation, "move: discard needs \"card\"")
	}
	*m = v
	return nil
}

func moveNotationErr(err error) error {
	if ErrorCode(err) != "" {
		return err
	}
	return ruleErr(ErrBadNotation, "move: "+err.Error())
}

// String returns the move's JSON notation.
func (m Move) String() string {
	b, err := m.MarshalJSON()
	if err != nil {
		return "?"
	}
	return string(b)
}

// ParseMove decodes a move from its JSON notation.
func ParseMove(s string) (Move, error) {
	var m Move
	err := m.UnmarshalJSON([]byte(strings.TrimSpace(s)))
	return m, err
}
