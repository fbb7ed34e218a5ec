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
	// Change is set when Deal has ended and the next deal was dealt: the
	// follower reads it after Moves, and Version is then Change.Version,
	// so that since=Version reads the next deal.
	Change *DealChange
}

// DealChange is a deal's end and the next deal's start, as one viewer
// sees them: what a follower of the moves learns between two deals.
type DealChange struct {
	// Version is the version that dealt Next. Dealing happens in the
	// transaction of the move that ended the deal before it (endDeal),
	// so it is that move's version plus one.
	Version int64
	Ended   DealScore // with its score
	Next    DealScore
	Start   engine.View // Next as dealt, as the viewer sees it
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
	// DrawnHidden says the move drew cards from the stock that the viewer
	// may not see (cut from Taken): an empty Taken.Drawn then means
	// hidden, not none.
	DrawnHidden bool
}

// tableMoves is the players' side of a running match: a player's move
// (Move), and the feed of a deal's moves to those who follow it (Moves).
// The match itself is played by match; a player a bot stands in for who
// tries a move is marked back by the referee.
type tableMoves struct {
	st       Storage
	now      func() time.Time
	notes    *tableNotifier
	games    *gameCache
	presence *presenceBook
	match    *tableMatch
	referee  *tableReferee
}

// Moves implements TableService.
func (s *tableMoves) Moves(ctx context.Context, actor Actor, id int64, invite string, deal int, since int64) (MoveFeed, error) {
	var feed MoveFeed
	var back bool
	err := s.st.View(ctx, func(tx Tx) error {
		t, err := visibleTable(tx, actor, id, invite, false)
		if err != nil {
			return err
		}
		back = standingIn(t, actor)
		feed, err = feedOf(tx, t, t.SeatOf(actor.UserID), deal, since)
		return err
	})
	if err == nil && back { // a player a bot stands in for is back (see State)
		err = s.referee.reclaim(ctx, actor, id)
	}
	return feed, err
}

// feedOf reads the move feed of deal (0: the deal a follower who saw
// version since is in, the current one without since) as seat sees it,
// with the change to the next deal when deal has ended and one was dealt.
func feedOf(tx Tx, t Table, seat, deal int, since int64) (MoveFeed, error) {
	follow := deal == 0 && since >= 0
	if deal == 0 {
		if deal = t.DealNumber; deal == 0 {
			return MoveFeed{}, Errorf(ENotFound, "the match has not started: no deal has been dealt")
		}
	}
	feed, err := movesSeenBy(tx, t, seat, deal, since)
	if err != nil {
		return MoveFeed{}, err
	}
	// A follower whose version is in the current deal after its first
	// move, or who is caught up, needs no lookup: the polls of the feed
	// cost no more than before. One who may have seen less (no move of
	// the current deal at or before since, yet versions past it) gets the
	// deal they are in first (issue 29: a deal's last moves were in no
	// answer).
	if follow && deal > 1 && since < t.Version && (len(feed.Moves) == 0 || feed.Moves[0].Index == 0) {
		in, err := dealAt(tx, t, since)
		if err != nil {
			return MoveFeed{}, err
		}
		if in != deal {
			if feed, err = movesSeenBy(tx, t, seat, in, since); err != nil {
				return MoveFeed{}, err
			}
		}
	}
	if feed.Deal < t.DealNumber {
		c, err := dealChange(tx, t, seat, feed.Deal)
		if err != nil {
			return MoveFeed{}, err
		}
		feed.Change = &c
		if c.Version > 0 { // else a deal from before moves had versions: the table's version
			feed.Version = c.Version
		}
	}
	return feed, nil
}

// dealAt returns the deal a follower who saw version since is in: the
// deal of the last move at or before since, or a later one when since is
// past its change to the next (the follower saw the next deal dealt).
// Before every move, it is the first deal.
func dealAt(tx Tx, t Table, since int64) (int, error) {
	m, err := tx.Tables().MoveUpTo(t.ID, since)
	if ErrorCode(err) == ENotFound {
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	n := m.Deal
	for ; n < t.DealNumber; n++ {
		c, err := changeVersion(tx, t.ID, n)
		if err != nil {
			return 0, err
		}
		if since < c {
			break
		}
	}
	return n, nil
}

// changeVersion is the version that dealt the deal after deal n: the
// version of n's last move plus one (0 when n has no move with a
// version, from before moves had them). A next deal is dealt only in the
// transaction of the move that ended the deal (advance, endDeal): a deal
// the server ends without a move (a match clock, a forfeit) ends the
// match. Were that to change, a follower between the two versions would
// be answered the next deal, from its start: no move lost.
func changeVersion(tx Tx, tableID int64, n int) (int64, error) {
	last, err := tx.Tables().LastMove(tableID, n)
	if ErrorCode(err) == ENotFound || err == nil && last.Version == 0 {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return last.Version + 1, nil
}

// dealChange is the change from deal n, which has ended, to deal n+1, as
// seat sees it.
func dealChange(tx Tx, t Table, seat, n int) (DealChange, error) {
	ended, err := tx.Tables().Deal(t.ID, n)
	if err != nil {
		return DealChange{}, err
	}
	next, err := tx.Tables().Deal(t.ID, n+1)
	if err != nil {
		return DealChange{}, err
	}
	v, err := changeVersion(tx, t.ID, n)
	if err != nil {
		return DealChange{}, err
	}
	start, err := dealtView(t, next, seat)
	if err != nil {
		return DealChange{}, err
	}
	return DealChange{Version: v, Ended: dealScore(ended), Next: dealScore(next), Start: start}, nil
}

// dealtView is deal d as dealt (before its first move), as seat sees it.
func dealtView(t Table, d TableDeal, seat int) (engine.View, error) {
	r, err := tableRules(t)
	if err != nil {
		return engine.View{}, err
	}
	g, err := engine.Deal(r, d.Dealer, d.Seed, d.Totals)
	if err != nil {
		return engine.View{}, err
	}
	return g.View(seat), nil
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
	start, err := dealtView(t, d, seat)
	if err != nil {
		return MoveFeed{}, err
	}
	moves, err := tx.Tables().MovesSince(t.ID, deal, since)
	if err != nil {
		return MoveFeed{}, err
	}
	feed := MoveFeed{Version: t.Version, Seat: seat, Deal: deal, Dealer: d.Dealer, Start: start,
		Moves: make([]FeedMove, len(moves))}
	for i, m := range moves {
		var tk engine.Taken
		if len(m.Taken) > 0 {
			if err := json.Unmarshal(m.Taken, &tk); err != nil {
				return MoveFeed{}, fmt.Errorf("table %d deal %d move %d: taken: %w", t.ID, deal, m.Index, err)
			}
		}
		seen := tk.SeenBy(t.Rules, m.Seat, seat)
		feed.Moves[i] = FeedMove{Version: m.Version, Index: m.Index, Seat: m.Seat, Move: m.Move, Auto: m.Auto, By: m.By, At: m.At,
			Taken: seen, DrawnHidden: len(tk.Drawn) > 0 && len(seen.Drawn) == 0}
	}
	return feed, nil
}
