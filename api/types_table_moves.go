package api

import (
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// MoveTaken is what a move brought into the mover's hand that its notation
// does not name, as far as the caller may see it: a card drawn and a pot's
// cards only by the mover.
type MoveTaken struct {
	// The card drawn from the stock (draw, redraw): shown to the mover only; see drawn_hidden.
	Drawn []string `json:"drawn,omitempty" example:"QH"`
	// The move drew from the stock a card the caller is not shown (another seat's draw): drawn is absent because
	// it is hidden. False with drawn absent: the move drew nothing.
	DrawnHidden bool `json:"drawn_hidden" example:"false"`
	// The discard pile taken by a pickup, bottom first: public (in fechado, the mover only).
	Pile []string `json:"pile,omitempty" example:"7C,9D"`
	// The card a redraw turned face up onto the pile: public.
	TurnedUp []string `json:"turned_up,omitempty" example:"4S"`
	// The pot's cards: shown to the mover only.
	Pot []string `json:"pot,omitempty"`
	// The move took the team's pot: public.
	PotTaken bool `json:"pot_taken,omitempty" example:"false"`
} // @name MoveTaken

// PlayedMove is one move of a deal as the caller sees it.
type PlayedMove struct {
	// The table version this move made: each move has its own.
	Version int64 `json:"version" example:"13"`
	// The deal, from 1.
	Deal int `json:"deal" example:"1"`
	// The move's index in the deal, from 0.
	Index int          `json:"index" example:"0"`
	Seat  int          `json:"seat" example:"1"`
	Move  MoveNotation `json:"move"`
	// Played by the server: a bot seat or a time-out.
	Auto bool `json:"auto" example:"true"`
	// Who chose the move: the seat's player, a bot (a bot's seat, or a bot standing in for the player) or
	// the turn clock (a time-out).
	By string    `json:"by" enums:"player,bot,clock" example:"bot"`
	At time.Time `json:"at" format:"date-time"`
	// Absent when the move took nothing the notation does not say (a meld, a discard); another seat's draw has
	// one with drawn_hidden.
	Taken *MoveTaken `json:"taken,omitempty"`
} // @name PlayedMove

// TableMoves is a deal's moves past a version, as the caller sees them:
// start is the deal as dealt (the caller's own hand, the card turned up,
// the rows), and applying items in order rebuilds every later position the
// caller may see.
type TableMoves struct {
	// Pass it as since to read what follows: the table's version when read, or, with deal_change, the change's
	// version (what follows is the next deal).
	Version int64 `json:"version" example:"15"`
	// The caller's seat, -1 for a spectator.
	Seat   int          `json:"seat" example:"0"`
	Deal   int          `json:"deal" example:"1"`
	Dealer int          `json:"dealer" example:"3"`
	Start  DealView     `json:"start"`
	Items  []PlayedMove `json:"items"`
	// Present when this deal has ended and the next was dealt: it comes after items.
	DealChange *DealChange `json:"deal_change,omitempty"`
} // @name TableMoves

// DealChange is the end of a deal and the start of the next: between the
// last move of one deal and the first of the next, in the move feed (a
// TableMoves' deal_change) and in the event stream (event: deal).
type DealChange struct {
	// The version that dealt the next deal (the one after the ended deal's last move): the event's id in the
	// event stream, and the since that reads the next deal's moves.
	Version int64 `json:"version" example:"114"`
	// The deal that ended, with its score.
	Ended TableDeal `json:"ended"`
	// The deal dealt next, without a score yet.
	Next TableDeal `json:"next"`
	// The next deal as dealt, as the caller sees it (its own hand only): its moves apply to it.
	Start DealView `json:"start"`
} // @name DealChange

func tableMovesOut(f domain.MoveFeed) TableMoves {
	out := TableMoves{Version: f.Version, Seat: f.Seat, Deal: f.Deal, Dealer: f.Dealer, Start: dealViewOut(&f.Start),
		Items: make([]PlayedMove, len(f.Moves))}
	for i, m := range f.Moves {
		out.Items[i] = playedMoveOut(f.Deal, m)
	}
	if f.Change != nil {
		c := dealChangeOut(*f.Change)
		out.DealChange = &c
	}
	return out
}

func dealChangeOut(c domain.DealChange) DealChange {
	return DealChange{Version: c.Version, Ended: tableDealOut(c.Ended), Next: tableDealOut(c.Next), Start: dealViewOut(&c.Start)}
}

func playedMoveOut(deal int, m domain.FeedMove) PlayedMove {
	out := PlayedMove{Version: m.Version, Deal: deal, Index: m.Index, Seat: m.Seat, Move: moveNotationOut(m.Move), Auto: m.Auto, By: string(m.By), At: m.At}
	if !m.Taken.Empty() || m.DrawnHidden {
		out.Taken = moveTakenOut(m.Taken)
		out.Taken.DrawnHidden = m.DrawnHidden
	}
	return out
}

func moveTakenOut(t engine.Taken) *MoveTaken {
	return &MoveTaken{Drawn: cardsOut(t.Drawn), Pile: cardsOut(t.Pile), TurnedUp: cardsOut(t.TurnedUp), Pot: cardsOut(t.Pot),
		PotTaken: t.PotTaken}
}
