package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/burraco/burraco/engine"
)

// MoveFeed is a deal's moves past a version as one viewer sees them: enough
// to rebuild the deal's public history (and the viewer's own hand) move by
// move, from Start.
type MoveFeed struct {
	Version int64 // the table's version when read
	Seat    int   // the viewer's seat, -1 for a spectator
	Deal    int
	Dealer  int
	// Start is the deal as dealt, as the viewer sees it (the engine's View
	// before the first move).
	Start engine.View
	Moves []FeedMove
}

// FeedMove is one move of a deal as one viewer sees it: its notation
// (public), and what it took that the viewer may see.
type FeedMove struct {
	Version int64
	Index   int
	Seat    int
	Move    json.RawMessage // engine.Move JSON
	Auto    bool
	By      MovedBy
	At      time.Time
	Taken   engine.Taken // already cut to what the viewer may see
}

// Moves implements TableService.
func (s *tableService) Moves(ctx context.Context, actor Actor, id int64, invite string, deal int, since int64) (MoveFeed, error) {
	var feed MoveFeed
	var back bool
	err := s.st.View(ctx, func(tx Tx) error {
		t, err := visibleTable(tx, actor, id, invite, false)
		if err != nil {
			return err
		}
		back = standingIn(t, actor)
		if deal == 0 {
			if deal = t.DealNumber; deal == 0 {
				return Errorf(ENotFound, "the match has not started: no deal has been dealt")
			}
		}
		feed, err = movesSeenBy(tx, t, t.SeatOf(actor.UserID), deal, since)
		return err
	})
	if err == nil && back { // a player a bot stands in for is back (see State)
		err = s.referee.reclaim(ctx, actor, id)
	}
	return feed, err
}

// movesSeenBy reads the moves of deal past since, each cut to what seat
// (-1: a spectator) may see. Errors: ENotFound (the deal was not dealt).
func movesSeenBy(tx Tx, t Table, seat, deal int, since int64) (MoveFeed, error) {
	d, err := tx.Tables().Deal(t.ID, deal)
	if ErrorCode(err) == ENotFound {
		return MoveFeed{}, Errorf(ENotFound, "the table has no deal %d", deal)
	}
	if err != nil {
		return MoveFeed{}, err
	}
	r, err := tableRules(t)
	if err != nil {
		return MoveFeed{}, err
	}
	g, err := engine.Deal(r, d.Dealer, d.Seed, d.Totals)
	if err != nil {
		return MoveFeed{}, err
	}
	moves, err := tx.Tables().MovesSince(t.ID, deal, since)
	if err != nil {
		return MoveFeed{}, err
	}
	feed := MoveFeed{Version: t.Version, Seat: seat, Deal: deal, Dealer: d.Dealer, Start: g.View(seat),
		Moves: make([]FeedMove, len(moves))}
	for i, m := range moves {
		var tk engine.Taken
		if len(m.Taken) > 0 {
			if err := json.Unmarshal(m.Taken, &tk); err != nil {
				return MoveFeed{}, fmt.Errorf("table %d deal %d move %d: taken: %w", t.ID, deal, m.Index, err)
			}
		}
		feed.Moves[i] = FeedMove{Version: m.Version, Index: m.Index, Seat: m.Seat, Move: m.Move, Auto: m.Auto, By: m.By, At: m.At,
			Taken: tk.SeenBy(t.Rules, m.Seat, seat)}
	}
	return feed, nil
}
