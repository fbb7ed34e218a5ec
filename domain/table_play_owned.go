package domain

import (
	"context"

	"github.com/burraco/burraco/engine"
)

// moveInMemory plays actor's move m on table id in one statement of the
// store (OwnedMoves, docs/SCALE-OUT.md §13 step 4) when this process owns
// the table, holds its game in memory at the version the mover sent, and
// the move is plain: the player's move alone, with no bot's move after it,
// no deal's end, no position to store (every PositionEvery moves), no
// seat to change. Such a move writes its row and the table's play columns
// (version, clock, update time) and nothing else, so the owner, who knows
// the table at that version, needs no transaction to read and lock it:
// the statement's condition (the table still at that version, the lease
// still the owner's) stands for the lock.
//
// The move is played on a copy of the cached game, which the cache gave
// up to this call alone (take): a concurrent move of the table on this
// process finds no game in memory and goes through InTx, where the row
// lock orders the two (the second statement, or the second transaction,
// finds the version moved). The copy becomes the cached game only once
// the statement has written; a move refused by the rules puts the game
// back unchanged; a statement that wrote nothing leaves the cache
// without the table (its version is no longer the table's, or the lease
// is gone).
//
// done is false when nothing was written and nothing answered: the caller
// plays the move through InTx, which gives the answers of the locked
// table (version_conflict with the current version, table_owner_moved, a
// stand-in's return, the move played at the table's new version).
func (s *tableMoves) moveInMemory(ctx context.Context, actor Actor, id int64, m engine.Move, version int64) (state TableState, done bool, err error) {
	owned, ok := s.st.(OwnedMoves)
	if !ok || !owned.OneStatementMove(ctx, id) {
		return TableState{}, false, nil
	}
	if v, ok := s.games.version(id); !ok || v != version {
		return TableState{}, false, nil
	}
	t, ok := owned.CachedTable(id, version)
	if !ok {
		return TableState{}, false, nil
	}
	seat := t.SeatOf(actor.UserID)
	if checkMove(t, seat, version) != nil || standingIn(t, actor) || !accessOf(t).visible(actor, "") {
		return TableState{}, false, nil
	}
	tk := s.notes.ticket()
	before := t // what put needs of the table at version (t is changed below)
	p, behind, ok := s.games.take(&t)
	switch {
	case !ok:
		return TableState{}, false, nil
	case behind: // another move took and put it meanwhile: let InTx read the table
		return TableState{}, false, nil
	case p.game.Turn() != seat || p.deal.Moves+1-p.saved >= PositionEvery:
		s.games.put(before, p) // unchanged
		return TableState{}, false, nil
	}
	q := *p
	q.game = p.game.Clone()
	row, err := s.match.played(&q, seat, m, ByPlayer)
	if err != nil { // refused by the rules: the copy is dropped, the game was not changed
		s.games.put(before, p)
		return TableState{}, true, err
	}
	if !plainAfter(t, &q) {
		s.games.put(before, p)
		return TableState{}, false, nil
	}
	t.UpdatedAt = s.now() // as commitTable: the move took the next version
	written, err := owned.AppendMoveIfAt(ctx, version, row, t)
	if err != nil || !written {
		return TableState{}, err != nil, err
	}
	state = s.movedState(t, actor, &q)
	s.games.put(t, &q) // from here on another move may take it
	s.notes.publish(t, tk)
	s.presence.touch(id, actor.UserID, s.now()) // a move is a sign of life
	return state, true, nil
}

// plainAfter reports whether, after a player's move played in p, the
// match would stop at once (advance): the deal goes on, a human plays
// next, and the position needs no storing yet.
func plainAfter(t Table, p *playing) bool {
	g := p.game
	if g.Over() || t.Status != TablePlaying {
		return false
	}
	next := g.Turn()
	return next < len(t.Seats) && !t.Seats[next].PlayedByBot() && p.deal.Moves-p.saved < PositionEvery
}
