package domain

import "github.com/burraco/burraco/engine"

// InterimBot is the built-in bot of online tables until the engine exports
// its greedy bot (engine/bot.go): it draws, lays the largest meld or attach
// it can, and otherwise discards its highest-value natural card. It picks
// only from g.LegalMoves and checks its choice with g.Check, falling back to
// the first move that passes. It reads only what seat may see through the
// legal moves it is offered, and it does not change g.
func InterimBot(g *engine.Game, seat int) engine.Move {
	moves := g.LegalMoves(seat)
	if m, ok := preferredMove(g, moves); ok && g.Check(seat, m) == nil {
		return m
	}
	for _, m := range moves {
		if g.Check(seat, m) == nil {
			return m
		}
	}
	return engine.DrawMove() // no legal move at all: the service refuses it and reports the error
}

// preferredMove is the interim bot's choice among moves.
func preferredMove(g *engine.Game, moves []engine.Move) (engine.Move, bool) {
	var lay, discard *engine.Move
	for i, m := range moves {
		switch m.Kind {
		case engine.Draw:
			return m, true
		case engine.MeldCards, engine.AttachCards:
			if lay == nil || laid(m) > laid(*lay) {
				lay = &moves[i]
			}
		case engine.Discard:
			if discard == nil || discardWorse(g, m.Card, discard.Card) {
				discard = &moves[i]
			}
		}
	}
	switch {
	case lay != nil:
		return *lay, true
	case discard != nil:
		return *discard, true
	}
	return engine.Move{}, false
}

// laid counts the cards a move lays.
func laid(m engine.Move) int {
	n := len(m.Cards)
	for _, ms := range m.Melds {
		n += len(ms)
	}
	return n
}

// discardWorse reports whether discarding a is better for the bot than b:
// a natural card before a wild, then the higher value.
func discardWorse(g *engine.Game, a, b engine.Card) bool {
	if a.IsWildCard() != b.IsWildCard() {
		return !a.IsWildCard()
	}
	pa, pb := g.Rules().CardPoints(a), g.Rules().CardPoints(b)
	return pa > pb
}
