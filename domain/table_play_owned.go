package domain

import (
	"context"

	"github.com/burraco/burraco/engine"
)

// moveInMemory plays actor's move m on table id in one statement of the
// store (OwnedMoves, docs/SCALE-OUT.md §13 step 4) when this process owns
// the table, holds its game in memory at the version the mover sent, and
// the move is plain: the player's move alone, with no bot's move after it,
// no deal's end, no seat to change. Such a move writes its row, the
// table's play columns (version, clock, update time), every PositionEvery
// moves the deal's position and, sent with an Idempotency-Key, the
// mover's answer under it (unless the key is live: then nothing), and
// nothing else, so the owner, who knows
// the table at that version, needs no transaction to read and lock it:
// the statement's condition (the table still at that version, the lease
// still the owner's) stands for the lock.
//
// The move is played on a copy of the cached game (claim), which stays
// in the cache for the views of the table meanwhile (the polls of the
// move before, still being answered). One move of a table at a time holds
// the claim: a concurrent move of the table on this process goes through
// InTx, where the row lock orders the two (the second statement, or the
// second transaction, finds the version moved). The copy becomes the
// cached game only once the statement has written; a move refused by the
// rules, or not plain, leaves the cached game as it was; a statement that
// wrote nothing drops it (its version is no longer the table's, or the
// lease is gone).
//
// done is false when nothing was written and nothing answered: the caller
// plays the move through InTx, which gives the answers of the locked
// table (version_conflict with the current version, table_owner_moved, a
// stand-in's return, the move played at the table's new version).
func (s *tableMoves) moveInMemory(ctx context.Context, actor Actor, id int64, m engine.Move, version int64, idem idempotentRequest) (state TableState, done bool, err error) {
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
	q, release, ok := s.games.claim(&t)
	if !ok {
		return TableState{}, false, nil
	}
	if q.game.Turn() != seat {
		release()
		return TableState{}, false, nil
	}
	row, err := s.match.played(q, seat, m, ByPlayer)
	if err != nil { // refused by the rules: only the copy was changed
		release()
		if idem.key != "" { // InTx answers it, the key looked up (replayFailed)
			return TableState{}, false, nil
		}
		return TableState{}, true, err
	}
	if !plainAfter(t, q) {
		release()
		return TableState{}, false, nil
	}
	t.UpdatedAt = s.now() // as commitTable: the move took the next version
	state = s.movedState(t, actor, q)
	write := OwnedMove{At: version, Move: row, Table: t, Now: s.now()}
	if q.positionDue() { // as advance's savePosition, in the move's statement
		if err := q.takePosition(); err != nil {
			release()
			return TableState{}, true, err
		}
		deal := q.deal
		write.Deal = &deal
	}
	if idem.key != "" { // the answer rides in the statement (remember's, in InTx)
		a, err := idem.answer(write.Now, &state)
		if err != nil {
			release()
			return TableState{}, true, err
		}
		write.Answer = &a
	}
	written, err := owned.AppendMoveIfAt(ctx, write)
	if err != nil || !written {
		// The table moved past the game, or the lease did (or, on an
		// error, it is not known which): the game is not the table's.
		s.games.dropAt(id, version)
		return TableState{}, err != nil, err
	}
	if write.Deal != nil {
		q.saved = q.deal.Moves
	}
	s.games.put(t, q) // from here on another move may take it
	s.notes.publish(t, tk)
	s.presence.touch(id, actor.UserID, s.now()) // a move is a sign of life
	return state, true, nil
}

// plainAfter reports whether, after a player's move played in p, the
// match would stop at once (advance, storing the position when due): the
// deal goes on and a human plays next.
func plainAfter(t Table, p *playing) bool {
	g := p.game
	if g.Over() || t.Status != TablePlaying {
		return false
	}
	next := g.Turn()
	return next < len(t.Seats) && !t.Seats[next].PlayedByBot()
}

// claim gives a move played in memory (moveInMemory) its own copy of the
// entry of table t stored at t's version and deal, the entry staying in
// the cache for views; release ends the claim. ok is false when there is
// no such entry, when another move claimed it, or when a move through
// InTx took it (take): that move changes it.
func (c *gameCache) claim(t *Table) (p *playing, release func(), ok bool) {
	c.mu.Lock()
	e := c.m[t.ID]
	if e == nil || e.claimed || e.version != t.Version || e.p.deal.Number != t.DealNumber {
		c.mu.Unlock()
		return nil, nil, false
	}
	e.claimed = true
	c.mu.Unlock()
	release = func() {
		c.mu.Lock()
		e.claimed = false
		c.mu.Unlock()
	}
	e.readers.RLock() // as a view: a taker waits for the copy
	defer e.readers.RUnlock()
	if e.taken {
		release()
		return nil, nil, false
	}
	cp := e.p
	cp.game = e.p.game.Clone()
	cp.t = t
	return &cp, release, true
}

// dropAt removes the entry of table id if it was stored at version or
// before: a newer one, put by a move that committed meanwhile, stays.
func (c *gameCache) dropAt(id, version int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[id]; e != nil && e.version <= version {
		delete(c.m, id)
	}
}
