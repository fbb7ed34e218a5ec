package domain

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/burraco/burraco/engine"
)

// maxMovesPerDeal bounds the moves the server plays in one deal: a deal
// always ends far sooner (the stock runs out), so more means a broken bot.
const maxMovesPerDeal = 10_000

// PositionEvery bounds how far a deal's move log may run past its stored
// position: a move stores its log row, and the position only once it is
// PositionEvery moves behind (and when the deal ends, and at a time-out).
// Writing the position (kilobytes of JSON, marshalled, and pages in the
// database's log) with every move cost a third of a move's time on SQLite;
// reading a deal back applies at most PositionEvery-1 logged moves to the
// stored position.
const PositionEvery = 16

// tableMatch plays the match of a table within the transaction it is
// given: it deals (start, deal), applies a move and logs it (apply), plays
// the bots' turns and ends deals (advance, endDeal), ends the match
// (finish) and stores the table (commitTable). The players' moves
// (tableMoves), the referee's acts (tableReferee), the lobby's start
// (tableService) and a tournament's round (onlineTables) all go through
// it; it answers no request itself, so it owns no transaction and holds no
// storage.
type tableMatch struct {
	now    func() time.Time
	random io.Reader // seeds, first dealers and invite codes: crypto/rand unless a test injects one
	bot    BotFunc
	games  *gameCache
	// recorder writes the deals of a tournament's online tables into its
	// sheets (nil: tables of no tournament only).
	recorder dealRecorder
}

// inviteCode returns a fresh random invite code (128 bits, hex).
func (s *tableMatch) inviteCode() (string, error) {
	b := make([]byte, 16)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// randomUint64 draws a secret seed (or a first dealer) from the random
// source: never derived from anything a client sees.
func (s *tableMatch) randomUint64() (uint64, error) {
	var b [8]byte
	if _, err := io.ReadFull(s.random, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// playing is a table's running deal loaded for play within a transaction.
type playing struct {
	t     *Table
	deal  TableDeal // deal.Moves counts every move played; deal.Position is as stored, or nil once caught up from the log (DealFrom)
	saved int       // the moves the stored position holds
	game  *engine.Game
	done  []TableDeal // the deals before this one, without their positions
	last  *LastMove   // the last move played in this deal, once known
	// committed is what the tournament of the table asked to run once
	// this transaction commits (dealRecorder): the states its sheets took
	// the deals ended here in.
	committed []func()
}

// tableRules returns the engine rules a table plays.
func tableRules(t Table) (engine.Rules, error) {
	r, err := engine.NewRules(t.Rules, t.Players)
	if err != nil {
		return engine.Rules{}, err
	}
	if r.Options, err = engine.ParseOptions(t.Rules, t.Options); err != nil {
		return engine.Rules{}, err
	}
	return r, nil
}

// start deals the first deal of a full table (the first dealer drawn at
// random) and lets the bots play up to the first human turn.
func (s *tableMatch) start(tx Tx, t *Table) error {
	_, err := s.startPlaying(tx, t)
	return err
}

// startPlaying is start returning the running deal, for the game cache
// once the transaction commits (changeStarting).
func (s *tableMatch) startPlaying(tx Tx, t *Table) (*playing, error) {
	n, err := s.randomUint64()
	if err != nil {
		return nil, err
	}
	return s.startWith(tx, t, int(n%uint64(t.Players)))
}

// startWith deals the first deal of a full table with dealer dealing (a
// rematch's: the seat after the last match's first dealer) and lets the
// bots play up to the first human turn. It returns the running deal, for
// the game cache once the transaction commits (keepStarted).
func (s *tableMatch) startWith(tx Tx, t *Table, dealer int) (*playing, error) {
	now := s.now()
	t.Status, t.StartedAt = TablePlaying, &now
	t.ClockUsed = make([]int64, t.Players)
	if t.BankSeconds > 0 {
		t.BankLeft = make([]int64, t.Players)
		for i := range t.BankLeft {
			t.BankLeft[i] = int64(t.BankSeconds) * 1000
		}
	}
	p, err := s.deal(tx, t, 1, dealer, nil, false)
	if err != nil {
		return nil, err
	}
	return s.advance(tx, p)
}

// deal deals deal number n with a fresh secret seed and stores it.
func (s *tableMatch) deal(tx Tx, t *Table, n, dealer int, totals []int, tieBreak bool) (*playing, error) {
	r, err := tableRules(*t)
	if err != nil {
		return nil, err
	}
	seed, err := s.randomUint64()
	if err != nil {
		return nil, err
	}
	g, err := engine.Deal(r, dealer, seed, totals)
	if err != nil {
		return nil, err
	}
	pos, err := g.MarshalJSON()
	if err != nil {
		return nil, err
	}
	now := stored(s.now())
	d := TableDeal{TableID: t.ID, Number: n, Dealer: dealer, Seed: seed, Totals: g.Totals(), TieBreak: tieBreak,
		Position: pos, StartedAt: now}
	if err := tx.Tables().CreateDeal(d); err != nil {
		return nil, err
	}
	// Dealing is a version of its own, before the moves of the deal: a
	// follower sees the deal start, then each move.
	t.DealNumber, t.TurnStartedAt = n, &now
	t.Version++
	return &playing{t: t, deal: d, game: g}, nil
}

// load loads the current (or last) deal of a table, with the deals before
// it: its stored position, continued by the moves logged after it.
func load(tx Tx, t *Table) (*playing, error) {
	deals, err := tx.Tables().Deals(t.ID)
	if err != nil {
		return nil, err
	}
	for _, d := range deals {
		if d.Number != t.DealNumber {
			continue
		}
		g, err := engine.ParsePosition(d.Position)
		if err != nil {
			return nil, fmt.Errorf("table %d deal %d: stored position: %w", t.ID, d.Number, err)
		}
		p := &playing{t: t, deal: d, saved: d.Moves, game: g, done: finished(deals, d.Number)}
		return p, p.catchUp(tx)
	}
	return nil, Errorf(ENotFound, "deal not found")
}

// catchUp applies to the stored position the moves logged after it, and
// finds the deal's last move (the position's own last one when none is).
func (p *playing) catchUp(tx Tx) error {
	d := &p.deal
	if d.TimeOutAt != nil && *d.TimeOutAt > d.Moves {
		return fmt.Errorf("table %d deal %d: the stored position predates the time-out", d.TableID, d.Number)
	}
	moves, err := tx.Tables().MovesFrom(d.TableID, d.Number, max(d.Moves-1, 0))
	if err != nil {
		return err
	}
	for _, m := range moves {
		if m.Index >= p.saved {
			if m.Index != d.Moves {
				return fmt.Errorf("table %d deal %d: move %d logged where move %d was due", d.TableID, d.Number, m.Index, d.Moves)
			}
			var mv engine.Move
			if err := json.Unmarshal(m.Move, &mv); err != nil {
				return fmt.Errorf("table %d deal %d move %d: %w", d.TableID, d.Number, m.Index, err)
			}
			if err := p.game.Apply(m.Seat, mv); err != nil {
				return fmt.Errorf("table %d deal %d move %d: replaying the log: %w", d.TableID, d.Number, m.Index, err)
			}
			d.Moves++
		}
		p.last = &LastMove{Seat: m.Seat, Move: m.Move, Auto: m.Auto, By: m.By, At: m.At}
	}
	if d.Moves > 0 && p.last == nil {
		return fmt.Errorf("table %d deal %d: %d moves stored, none logged", d.TableID, d.Number, d.Moves)
	}
	return nil
}

// apply plays one move of seat, chosen by by, and appends it to the move
// log (marked auto unless the seat's player chose it).
func (s *tableMatch) apply(tx Tx, p *playing, seat int, m engine.Move, by MovedBy) error {
	row, err := s.played(p, seat, m, by)
	if err != nil {
		return err
	}
	return tx.Tables().AppendMove(row)
}

// played plays one move of seat, chosen by by, in p (its game, its
// table's clock and version, its deal's count) and returns the move's row
// for the log.
func (s *tableMatch) played(p *playing, seat int, m engine.Move, by MovedBy) (TableMove, error) {
	auto := by != ByPlayer
	if p.deal.Moves >= maxMovesPerDeal {
		return TableMove{}, fmt.Errorf("table %d deal %d: more than %d moves", p.t.ID, p.deal.Number, maxMovesPerDeal)
	}
	taken, err := p.game.ApplyTaken(seat, m)
	if err != nil {
		return TableMove{}, FromRuleError(err)
	}
	b, err := m.MarshalJSON()
	if err != nil {
		return TableMove{}, err
	}
	tk, err := json.Marshal(taken)
	if err != nil {
		return TableMove{}, err
	}
	now := s.now()
	chargeClock(p, seat, now)
	// Each move is a version of its own, so that a client sees the bots'
	// moves one by one (the move feed, the event stream) rather than the
	// board jumping past them.
	p.t.Version++
	row := TableMove{TableID: p.t.ID, Deal: p.deal.Number, Index: p.deal.Moves, Seat: seat,
		Move: b, Auto: auto, By: by, At: now, Version: p.t.Version, Taken: tk}
	p.deal.Moves++
	p.last = &LastMove{Seat: seat, Move: b, Auto: auto, By: by, At: stored(now)}
	return row, nil
}

// advance plays the bots' turns, scores each deal that ends and deals the
// next until the match is decided, and stores the running deal's position.
// It stops at a human's turn, and returns the deal it stopped in (the last
// deal when the match is over).
func (s *tableMatch) advance(tx Tx, p *playing) (*playing, error) {
	for {
		g := p.game
		if g.Over() {
			next, err := s.endDeal(tx, p)
			if err != nil || next == nil {
				return p, err
			}
			p = next
			continue
		}
		seat := g.Turn()
		if err := seatBack(tx, p.t, seat); err != nil {
			return p, err
		}
		if p.t.Seats[seat].PlayedByBot() {
			if err := s.botMove(tx, p, seat, ByBot); err != nil {
				return p, fmt.Errorf("table %d: the bot of seat %d: %w", p.t.ID, seat, err)
			}
			continue
		}
		if p.positionDue() {
			return p, s.savePosition(tx, p)
		}
		return p, nil
	}
}

// botMove plays the bot's move for seat, marked by by (auto).
func (s *tableMatch) botMove(tx Tx, p *playing, seat int, by MovedBy) error {
	seed, err := s.randomUint64()
	if err != nil {
		return err
	}
	m, err := s.bot(p.game.Clone(), seat, seed)
	if err != nil {
		return err
	}
	return s.apply(tx, p, seat, m, by)
}

// savePosition stores the running deal's position, with its move count,
// score, end and time-out.
func (s *tableMatch) savePosition(tx Tx, p *playing) error {
	if err := p.takePosition(); err != nil {
		return err
	}
	if err := tx.Tables().UpdateDeal(p.deal); err != nil {
		return err
	}
	p.saved = p.deal.Moves
	return nil
}

// positionDue reports whether the deal's log has run PositionEvery moves
// past its stored position.
func (p *playing) positionDue() bool { return p.deal.Moves-p.saved >= PositionEvery }

// takePosition puts the game's position in the deal, to be stored.
func (p *playing) takePosition() error {
	pos, err := p.game.MarshalJSON()
	if err != nil {
		return err
	}
	p.deal.Position = pos
	return nil
}

// endDeal stores the score of the deal that just ended and either ends the
// match (MatchFormat.Status) or deals the next deal, the deal passing
// clockwise; it returns the next deal, or nil when the match is over.
func (s *tableMatch) endDeal(tx Tx, p *playing) (*playing, error) {
	now := stored(s.now())
	p.deal.Score, p.deal.EndedAt = p.game.Score(), &now
	if err := s.savePosition(tx, p); err != nil {
		return nil, err
	}
	closed := false // the tournament took the table out of play: no deal follows
	if p.t.Tournament != nil && s.recorder != nil {
		var after func()
		var err error
		if closed, after, err = s.recorder.recordPlayedDeal(tx, p.t, p.deal); err != nil {
			return nil, fmt.Errorf("table %d deal %d: writing it into tournament %d's sheet: %w", p.t.ID, p.deal.Number, p.t.Tournament.ID, err)
		}
		if after != nil {
			p.committed = append(p.committed, after)
		}
	}
	deals, err := tx.Tables().Deals(p.t.ID)
	if err != nil {
		return nil, err
	}
	st := p.t.Match.Status(scoresOf(deals))
	switch {
	case p.t.DeadlinePassed: // a time-limited match plays no further deal
		st = deadlineStatus(st.Totals)
	case p.t.Tournament != nil && (p.deal.TimeOutAt != nil || closed):
		// RULES §10: a tournament table's time-out ends its play (the
		// sheet takes the deal as its last, tourney.DealPlayed); so does a
		// sheet the tournament closed (a ruling, a forfeit, complete).
		st = deadlineStatus(st.Totals)
	}
	if st.Over {
		s.finish(p.t, st, ResultPlayed)
		return nil, nil
	}
	next, err := s.deal(tx, p.t, p.deal.Number+1, engine.NextDealer(p.deal.Dealer, p.t.Players), st.Totals, st.TieBreak)
	if err != nil {
		return nil, err
	}
	next.done, next.committed = finished(deals, next.deal.Number), p.committed
	return next, nil
}

// finish marks the match decided, how by result.
func (s *tableMatch) finish(t *Table, st engine.MatchStatus, result TableResult) {
	now := s.now()
	t.Status, t.FinishedAt, t.TurnStartedAt, t.Draw, t.Result = TableFinished, &now, nil, st.Draw, result
	if st.Winner >= 0 {
		w := st.Winner
		t.Winner = &w
	}
}

// scoresOf returns the team scores of the finished deals, in order.
func scoresOf(deals []TableDeal) [][]engine.Score {
	var out [][]engine.Score
	for _, d := range deals {
		if d.Score != nil {
			out = append(out, d.Score)
		}
	}
	return out
}

// parseMove reads a move in the engine's JSON notation. Errors:
// bad_notation, unknown_move.
func parseMove(raw json.RawMessage) (engine.Move, error) {
	var m engine.Move
	if len(raw) == 0 {
		return m, Errorf(Code(engine.ErrBadNotation), "a move is required")
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, FromRuleError(err)
	}
	return m, nil
}

// Move implements TableService.
func (s *tableMoves) Move(ctx context.Context, actor Actor, id int64, in MoveInput) (TableState, error) {
	if actor.Anonymous() {
		return TableState{}, errLoginRequired
	}
	var v Validator
	v.Check(in.Version > 0, "version", "required", "send the version you saw: If-Match with the state's ETag, or version in the body")
	checkIdempotencyKey(&v, in.IdempotencyKey)
	if err := v.Err(); err != nil {
		return TableState{}, err
	}
	idem := in.idempotent(actor, id)
	m, err := parseMove(in.Move)
	if err != nil {
		return TableState{}, err
	}
	if state, done, err := s.moveInMemory(ctx, actor, id, m, in.Version, idem); done || err != nil {
		return state, err
	}
	var state TableState
	var t, locked Table
	var replayed bool
	var p *playing
	tk := s.notes.ticket()
	err = s.st.InTx(ctx, func(tx Tx) error {
		p = nil
		if t, err = visibleTable(tx, actor, id, "", true); err != nil {
			return err
		}
		locked = t // the table as committed, read under its lock
		// The key is looked up only when the move fails (a retry of a
		// move played finds the version moved on) or its answer finds the
		// key taken: a move played stores its answer in one statement
		// (idempotency.go).
		if p, err = s.play(tx, &t, actor, m, in.Version); err != nil {
			return idem.replayFailed(tx, s.now(), err, &state)
		}
		if in.IdempotencyKey == "" { // the answer is built after the commit, out of the write transaction
			return nil
		}
		state = s.movedState(t, actor, p)
		return idem.remember(tx, s.now(), &state)
	})
	replayed, err = answeredBefore(err) // what the transaction played is rolled back
	if err != nil {
		if t.ID == id && standingIn(t, actor) {
			// A move attempt of a player a bot stands in for (never on turn:
			// the bot plays at once) says they are back.
			if rerr := s.referee.reclaim(ctx, actor, id); rerr != nil {
				return TableState{}, errors.Join(err, rerr)
			}
		}
		if ErrorCode(err) == EVersionConflict && t.ID == id {
			// The version read under the lock is committed, and newer than the
			// sender's: this process's watchers learn it now rather than when
			// another process's notice arrives, so that a state read here
			// after the refusal is not older than the refusal says.
			s.notes.publish(t, tk)
		}
		return TableState{}, err
	}
	if !replayed {
		if in.IdempotencyKey == "" {
			state = s.movedState(t, actor, p)
		}
		p.afterCommit()
		// From here on another move may take p; a match this move ended
		// keeps its last deal too (keepRead): its four seats' polls, woken
		// at once, would each read and replay it from the rows.
		s.games.keepRead(t, p)
		s.notes.publish(t, tk)
	} else if locked.ID == id {
		// A retry answered its first answer: the table read under the lock
		// is committed, and may be newer than this process knows, as after a
		// version conflict (above). The first try's commit may have gone
		// unpublished here: its request ended while its statement ran (a
		// forwarding process killed), and the polls waiting on the version
		// before it would wait on for good (issue 30's failover run).
		s.notes.publish(locked, tk)
	}
	s.presence.touch(id, actor.UserID, s.now()) // a move is a sign of life
	return state, nil
}

// movedState is the state after a move as the mover sees it.
func (s *tableMoves) movedState(t Table, actor Actor, p *playing) TableState {
	st := playedState(t, t.SeatOf(actor.UserID), p)
	st.TurnLeft, st.MatchLeft = clocksLeft(t, st.View, s.now())
	st.BankLeft = banksLeft(t, st.View, s.now())
	st.Table = forViewer(st.Table, actor)
	return st
}

// play plays the actor's move m at the locked table t, then the bots, and
// stores the table with its next version; it returns the running deal to
// keep once the transaction commits. The running deal comes from the game
// cache when it was stored at the version t has under the lock, else from
// the rows.
func (s *tableMoves) play(tx Tx, t *Table, actor Actor, m engine.Move, version int64) (*playing, error) {
	seat := t.SeatOf(actor.UserID)
	if err := checkMove(*t, seat, version); err != nil {
		return nil, err
	}
	p, err := s.match.running(tx, t)
	if err != nil {
		return nil, err
	}
	if p.game.Turn() != seat {
		s.games.put(*t, p) // unchanged: still good at t.Version
		return nil, Errorf(Code(engine.ErrNotYourTurn), "it is seat %d's turn, not yours (seat %d)", p.game.Turn(), seat)
	}
	if err := s.match.apply(tx, p, seat, m, ByPlayer); err != nil {
		return nil, err
	}
	p, err = s.match.advance(tx, p)
	if err != nil {
		return nil, err
	}
	return p, s.match.commitTable(tx, t, version)
}

// idempotent is the move request as its Idempotency-Key knows it: the
// version the mover saw and the move.
func (in MoveInput) idempotent(actor Actor, id int64) idempotentRequest {
	return newIdempotentRequest(actor.UserID, in.IdempotencyKey, tableScope(id), fmt.Sprint(id), fmt.Sprint(in.Version), string(in.Move))
}

// checkMove checks that a seated player may move at a playing table at the
// version they saw. Errors: EForbidden, EConflict, EVersionConflict.
func checkMove(t Table, seat int, version int64) error {
	switch {
	case seat < 0:
		return Errorf(EForbidden, "you do not sit at this table")
	case t.Status == TableCancelled:
		return errCancelled(t)
	case t.Status == TableOpen:
		return Errorf(EConflict, "the match has not started")
	case t.Status == TableFinished:
		return Errorf(EConflict, "the match is over")
	case version != t.Version:
		return versionConflict(t.Version, version)
	}
	return nil
}

// commitTable stores a table changed in this transaction, which read it
// at version read: the moves played took a version each, and a change
// without a move (a time-out called, a forfeit) takes the next one.
func (s *tableMatch) commitTable(tx Tx, t *Table, read int64) error {
	if t.Version == read {
		t.Version++
	}
	t.UpdatedAt = s.now()
	if err := rateMatch(tx, *t, s.now()); err != nil { // a rated match rates in the transaction that ends it
		return err
	}
	return tx.Tables().Update(*t)
}

// versionConflict is the EVersionConflict of a move sent against an old
// version; the current version is in Fields so that a client can resync.
func versionConflict(current, sent int64) error {
	return &Error{Kind: KindConflict, Code: EVersionConflict, Current: &current,
		Message: fmt.Sprintf("the table has changed: you sent version %d, it is at version %d; reload the state", sent, current),
		Fields: []FieldError{{Field: "version", Code: "stale",
			Message: fmt.Sprintf("the current version is %d", current)}}}
}
