package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/burraco/burraco/engine"
)

// tableViews answers what a table looks like to each viewer and when it
// changes: its state (State), its deals and their records, the presence
// of its players, and the long polls and the other processes' feed that
// wait on its versions (table_notifier.go). Reads only, but for a player a
// bot stands in for, whom a read marks back (the referee's reclaim).
type tableViews struct {
	st       Storage
	now      func() time.Time
	notes    *tableNotifier
	games    *gameCache
	presence *presenceBook
	match    *tableMatch // the running deal of a table read from the rows
	referee  *tableReferee
}

// State implements TableService.
func (s *tableViews) State(ctx context.Context, actor Actor, id int64, invite string) (TableState, error) {
	state, err := s.state(ctx, actor, id, invite)
	if err != nil {
		return state, err
	}
	if !standingIn(state.Table, actor) {
		state.Presence = s.presenceOf(state.Table)
		return state, nil
	}
	// A player a bot stands in for is back: they take the seat back at
	// its next turn, which the state read again says (returning).
	if err := s.referee.reclaim(ctx, actor, id); err != nil {
		return TableState{}, err
	}
	state, err = s.state(ctx, actor, id, invite)
	state.Presence = s.presenceOf(state.Table)
	return state, err
}

// presenceOf is the presence of t's seats now (none when t is closed).
func (s *tableViews) presenceOf(t Table) []SeatPresence {
	if t.Status.Closed() {
		return nil
	}
	return s.presence.of(presenceSeatsOf(t), s.now())
}

// errNotInMemory stops a state read on the one-query path: the running
// deal at the version read is not in the game cache.
var errNotInMemory = errors.New("the running deal is not in memory")

// state reads the table as the actor sees it. The polls a move wakes find
// the running deal in the game cache: their read is then the table's one
// statement, without BEGIN and COMMIT around it (ViewOne); a deal to read
// from the rows is read in a snapshot (View).
func (s *tableViews) state(ctx context.Context, actor Actor, id int64, invite string) (TableState, error) {
	var state TableState
	tk := s.notes.ticket()
	var newest int64
	read := func(tx Tx, one bool) error {
		// On the one-query path the table at the newest version this
		// process knows of may be in the store's memory: then no query at
		// all, when the caller may see it without asking the database.
		t, ok := Table{}, false
		if one {
			t, ok = tx.Tables().Cached(id, newest)
			ok = ok && accessOf(t).visible(actor, invite)
		}
		var err error
		if !ok {
			if t, err = visibleTable(tx, actor, id, invite, false); err != nil {
				return err
			}
		}
		seat := t.SeatOf(actor.UserID)
		if !one || t.DealNumber == 0 {
			state, err = s.stateOf(tx, t, seat)
			return err
		}
		st, ok := s.games.view(t, seat)
		if !ok {
			return errNotInMemory
		}
		state = st
		return nil
	}
	// The one-query path is tried only when the game cache holds the
	// newest version this process knows of: a poll woken by another
	// process's move would find its deal behind, and pay the query twice.
	var err error
	newest, known := s.notes.newest(id)
	cached, held := s.games.version(id)
	one := known && held && newest == cached
	if one {
		err = s.st.ViewOne(ctx, func(tx Tx) error { return read(tx, true) })
	}
	if !one || errors.Is(err, errNotInMemory) || errors.Is(err, ErrSecondQuery) {
		err = s.st.View(ctx, func(tx Tx) error { return read(tx, false) })
	}
	if err != nil {
		return TableState{}, err
	}
	s.notes.publish(state.Table, tk)
	state.Table = forViewer(state.Table, actor)
	state.TurnLeft, state.MatchLeft = clocksLeft(state.Table, state.View, s.now())
	state.BankLeft = banksLeft(state.Table, state.View, s.now())
	return state, nil
}

// stateOf builds what seat (-1: a spectator) sees of a table: the engine's
// View for that seat and what is public (the last move, the finished deals'
// scores). Nothing else of the running deal leaves this function. The
// running deal comes from the game cache when it holds the table's version
// (the version read in this transaction), else from the rows, and is then
// offered to the cache (a finished table's last deal too: keepRead).
func (s *tableViews) stateOf(tx Tx, t Table, seat int) (TableState, error) {
	if t.DealNumber == 0 {
		return TableState{Table: t, Seat: seat}, nil
	}
	if st, ok := s.games.view(t, seat); ok {
		return st, nil
	}
	p, err := s.match.running(tx, &t)
	if err != nil {
		return TableState{}, err
	}
	st := playedState(t, seat, p)
	s.games.keepRead(t, p)
	return st, nil
}

func dealScore(d TableDeal) DealScore {
	return DealScore{Number: d.Number, Dealer: d.Dealer, TieBreak: d.TieBreak, Score: d.Score,
		StartedAt: d.StartedAt, EndedAt: d.EndedAt}
}

// clocksLeft returns the seconds left in the current turn and, per seat, in
// the match, for the clocks the table has (nil when off or not playing).
func clocksLeft(t Table, v *engine.View, now time.Time) (*float64, []float64) {
	if t.Status != TablePlaying || v == nil || t.TurnStartedAt == nil {
		return nil, nil
	}
	elapsed := now.Sub(*t.TurnStartedAt)
	var turn *float64
	if t.TurnSeconds > 0 {
		left := max(0, (time.Duration(t.TurnSeconds)*time.Second - elapsed).Seconds())
		turn = &left
	}
	var match []float64
	if t.MatchSeconds > 0 {
		match = make([]float64, t.Players)
		for i := range match {
			var used time.Duration
			if i < len(t.ClockUsed) {
				used = time.Duration(t.ClockUsed[i]) * time.Millisecond
			}
			if i == v.Turn && !v.Over {
				used += elapsed
			}
			match[i] = max(0, (time.Duration(t.MatchSeconds)*time.Second - used).Seconds())
		}
	}
	return turn, match
}

// Deals implements TableService.
func (s *tableViews) Deals(ctx context.Context, actor Actor, id int64, invite string) ([]DealScore, error) {
	var out []DealScore
	err := s.st.View(ctx, func(tx Tx) error {
		if _, err := visibleTable(tx, actor, id, invite, false); err != nil {
			return err
		}
		deals, err := tx.Tables().Deals(id)
		for _, d := range deals {
			out = append(out, dealScore(d))
		}
		return err
	})
	return out, err
}

// Record implements TableService: only a finished deal, only for the
// table's players and creator (and site admins).
func (s *tableViews) Record(ctx context.Context, actor Actor, id int64, number int) (DealRecord, error) {
	if actor.Anonymous() {
		return DealRecord{}, errLoginRequired
	}
	var rec DealRecord
	err := s.st.View(ctx, func(tx Tx) error {
		t, err := visibleTable(tx, actor, id, "", false)
		if err != nil {
			return err
		}
		if ok, err := accessFor(tx, actor).canReadDealRecords(t); !ok {
			return orDenied(err, Errorf(EForbidden, "deal records are for the table's players"))
		}
		d, err := tx.Tables().Deal(id, number)
		if ErrorCode(err) == ENotFound {
			return Errorf(ENotFound, "the table has no deal %d", number)
		}
		if err != nil {
			return err
		}
		if d.EndedAt == nil {
			return Errorf(EConflict, "deal %d is still being played: its record is readable once it ends", number)
		}
		rec, err = dealRecord(tx, t, d)
		return err
	})
	return rec, err
}

// dealRecord builds the engine.Record of a finished deal from its stored
// seed and moves.
func dealRecord(tx Tx, t Table, d TableDeal) (DealRecord, error) {
	r, err := tableRules(t)
	if err != nil {
		return DealRecord{}, err
	}
	moves, err := tx.Tables().Moves(t.ID, d.Number)
	if err != nil {
		return DealRecord{}, err
	}
	rec := DealRecord{Record: engine.NewRecord(r, d.Dealer, d.Seed, d.Totals)}
	var end struct {
		End string `json:"end"`
	}
	if err := json.Unmarshal(d.Position, &end); err != nil {
		return DealRecord{}, err
	}
	rec.Record.ByReferee = end.End == engine.ByReferee.String() // a match clock ran out, or a player left
	rec.Record.TimeOutAt = d.TimeOutAt
	rec.Record.Moves = make([]engine.SeatMove, len(moves))
	for i, m := range moves {
		var mv engine.Move
		if err := json.Unmarshal(m.Move, &mv); err != nil {
			return DealRecord{}, fmt.Errorf("table %d deal %d move %d: %w", t.ID, d.Number, i, err)
		}
		rec.Record.Moves[i] = engine.SeatMove{Seat: m.Seat, Move: mv}
		rec.Times = append(rec.Times, m.At)
		rec.Auto = append(rec.Auto, m.Auto)
		rec.By = append(rec.By, m.By)
	}
	return rec, nil
}
