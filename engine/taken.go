package engine

import "slices"

// Taken is what one move brought into the mover's hand that its notation
// does not say, so that a follower of the deal can replay it: the move
// {"move":"draw"} names no card. Which part of it a viewer may see is
// SeenBy's answer, never the caller's guess.
type Taken struct {
	// Drawn is the card taken from the stock (tallone) by a draw or a
	// redraw: hidden from everyone but the mover.
	Drawn []Card `json:"drawn,omitempty"`
	// Pile is the discard pile (monte degli scarti) taken by a pickup,
	// bottom first: face up, so public, except in fechado, whose pile shows
	// only its top card (there the mover alone learns the rest).
	Pile []Card `json:"pile,omitempty"`
	// TurnedUp is the card a redraw turned face up onto the pile: public.
	TurnedUp []Card `json:"turned_up,omitempty"`
	// Pot is the pot (pozzetto) the move took: the mover only. PotTaken
	// says publicly that it was taken.
	Pot      []Card `json:"pot,omitempty"`
	PotTaken bool   `json:"pot_taken,omitempty"`
}

// ApplyTaken plays m for seat as Apply does and returns what the move
// took. A rejected move returns the *RuleError and leaves the game as it
// was.
func (g *Game) ApplyTaken(seat int, m Move) (Taken, error) {
	var stockTop Card
	if len(g.stock) > 0 {
		stockTop = g.stock[len(g.stock)-1]
	}
	pile := slices.Clone(g.pile)
	var pot []Card
	if len(g.pots) > 0 {
		pot = slices.Clone(g.pots[0])
	}
	team := g.rules.Team(seat)
	hadPot := team >= 0 && team < len(g.potTaken) && g.potTaken[team]
	if err := g.Apply(seat, m); err != nil {
		return Taken{}, err
	}
	var t Taken
	switch m.Kind {
	case Draw:
		t.Drawn = []Card{stockTop}
	case Redraw:
		t.Drawn, t.TurnedUp = []Card{stockTop}, []Card{g.pile[len(g.pile)-1]}
	case Pickup:
		t.Pile = pile
	}
	if !hadPot && g.potTaken[team] {
		t.Pot, t.PotTaken = pot, true
	}
	return t, nil
}

// SeenBy returns what viewer (a seat, or -1 for a spectator) sees of a move
// of seat mover that took t, in a deal played under rules: the mover sees
// it all; anyone else sees the cards turned up, the pile where it is face
// up, and that a pot was taken, never a card drawn nor a pot's cards.
func (t Taken) SeenBy(rules RuleSet, mover, viewer int) Taken {
	if viewer == mover && viewer >= 0 {
		return t
	}
	out := Taken{TurnedUp: t.TurnedUp, PotTaken: t.PotTaken}
	if rules != Fechado {
		out.Pile = t.Pile
	}
	return out
}

// Empty reports whether t holds nothing to show.
func (t Taken) Empty() bool {
	return len(t.Drawn) == 0 && len(t.Pile) == 0 && len(t.TurnedUp) == 0 && len(t.Pot) == 0 && !t.PotTaken
}
