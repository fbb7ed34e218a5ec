package domain

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/burraco/burraco/engine"
)

// tableReferee is what rules a playing table besides its players' moves:
// the clocks and their time-outs (this file), the forfeits and the
// referee's time-out call (table_forfeit.go), and the bots that stand in
// for absent or replaced players (table_standin.go). tableService hands
// it Tick, CallTimeOut and ReplaceByBot, and asks it to forfeit a
// leaver's match (abandon), to end a claimed match (forfeit, endWithout,
// standInAbsent) and to mark a player back (reclaim).
//
// It is its own type so that the rules of time and absence are read in
// one place with what they use, and no more: the state only they keep
// (watching), the shared pieces (storage, notifier, clock, games cache),
// and the match (tableMatch) for the moves the referee makes (apply,
// botMove, advance, commitTable...), which the players' moves play too.
type tableReferee struct {
	st    Storage
	now   func() time.Time
	notes *tableNotifier
	games *gameCache
	// match plays the moves the referee makes.
	match *tableMatch
	// recorder tells a tournament of a forfeit or a stand-in at its table
	// (nil: tables of no tournament only).
	recorder dealRecorder
	// watching is when this process first ticked: absence is counted from
	// then at the latest, so that a server that was down does not forfeit
	// the matches of players who could not play meanwhile.
	watching atomic.Pointer[time.Time]
}

// chargeClock books the time of a turn that a move of seat has just ended
// (the turn passed on, or the deal ended) to the seat's match clock, and
// starts the next turn's clock. Moves within a turn book nothing: a turn
// (mano) is the take, the melds and the discard together.
func chargeClock(p *playing, seat int, now time.Time) {
	t := p.t
	if !p.game.Over() && p.game.Turn() == seat {
		return
	}
	if t.TurnStartedAt != nil && seat < len(t.ClockUsed) {
		t.ClockUsed[seat] += now.Sub(*t.TurnStartedAt).Milliseconds()
	}
	if t.TurnStartedAt != nil {
		chargeBank(t, seat, now.Sub(*t.TurnStartedAt))
	}
	t.TurnStartedAt = &now
}

// chargeBank books a turn of seat that took took to the seat's time bank:
// its overrun of the turn clock is drawn from the bank (down to empty),
// the unused part of the turn clock goes back in, up to the bank's start.
func chargeBank(t *Table, seat int, took time.Duration) {
	if t.BankSeconds <= 0 || seat >= len(t.BankLeft) {
		return
	}
	base := int64(t.TurnSeconds) * 1000
	left := t.BankLeft[seat] + base - took.Milliseconds()
	t.BankLeft[seat] = min(max(left, 0), int64(t.BankSeconds)*1000)
}

// turnAllowance is how long seat's turn may last: the turn clock, and the
// seat's time bank.
func turnAllowance(t Table, seat int) time.Duration {
	d := time.Duration(t.TurnSeconds) * time.Second
	if t.BankSeconds > 0 && seat >= 0 && seat < len(t.BankLeft) {
		d += time.Duration(t.BankLeft[seat]) * time.Millisecond
	}
	return d
}

// banksLeft is each seat's time bank in seconds at now (the seat on turn's
// less its turn's overrun), nil without a bank.
func banksLeft(t Table, v *engine.View, now time.Time) []float64 {
	if t.BankSeconds <= 0 || t.Status != TablePlaying || v == nil || t.TurnStartedAt == nil || len(t.BankLeft) != t.Players {
		return nil
	}
	out := make([]float64, t.Players)
	for i, ms := range t.BankLeft {
		left := time.Duration(ms) * time.Millisecond
		if i == v.Turn && !v.Over {
			left -= max(0, now.Sub(*t.TurnStartedAt)-time.Duration(t.TurnSeconds)*time.Second)
		}
		out[i] = max(0, left.Seconds())
	}
	return out
}

// ClockOwner says whether this process plays the time-outs of table, and
// the context to write them with. With table leases (several processes on
// PostgreSQL, docs/SCALE-OUT.md §4.5) it is the lease manager's: only the
// tables this process owns, their writes fenced by the lease, and a table
// whose lease has run out or was released is taken over first, so that a
// clocked table whose owner is gone times out with no request to bring it
// over. Without leases (nil) every process ticks every table, each tick a
// locked re-check.
type ClockOwner func(ctx context.Context, table int64) (context.Context, bool, error)

// Tick ticks the clocks of the tables own lets this process tick, every
// table when own is nil (TableService.Tick, TickOwned).
func (r *tableReferee) Tick(ctx context.Context, now time.Time, own ClockOwner) (int, error) {
	r.watching.CompareAndSwap(nil, &now)
	var tables []Table
	err := r.st.View(ctx, func(tx Tx) error {
		var err error
		tables, err = tx.Tables().Clocked()
		return err
	})
	if err != nil {
		return 0, err
	}
	changed, errs := 0, []error{}
	for _, t := range tables {
		// Only a table that may be due is asked about: taking a lease
		// over is a statement, and a clock that has not run out needs no
		// owner yet.
		if !mayBeDue(t, now) {
			continue
		}
		tctx, mine, err := r.owned(ctx, own, t.ID)
		ok := false
		if err == nil && mine {
			ok, err = r.tickTable(tctx, t.ID, now)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("table %d: %w", t.ID, err))
		}
		if ok {
			changed++
		}
	}
	return changed, errors.Join(errs...)
}

// owned is own's answer for table, or ctx and true when own is nil.
func (r *tableReferee) owned(ctx context.Context, own ClockOwner, table int64) (context.Context, bool, error) {
	if own == nil {
		return ctx, true, nil
	}
	return own(ctx, table)
}

// mayBeDue reports whether some clock of t may have run out at now,
// without knowing whose turn it is: the turn clock, or the match clock of
// the seat with the least time left.
func mayBeDue(t Table, now time.Time) bool {
	if deadlineDue(t, now) {
		return true
	}
	if t.TurnStartedAt == nil {
		return false
	}
	elapsed := now.Sub(*t.TurnStartedAt)
	if t.TurnSeconds > 0 && elapsed >= time.Duration(t.TurnSeconds)*time.Second+minBank(t) {
		return true
	}
	if t.GraceSeconds > 0 && elapsed >= time.Duration(t.GraceSeconds)*time.Second {
		return true
	}
	if t.MatchSeconds > 0 && len(t.ClockUsed) > 0 {
		used := time.Duration(slices.Max(t.ClockUsed)) * time.Millisecond
		return used+elapsed >= time.Duration(t.MatchSeconds)*time.Second
	}
	return false
}

// minBank is the smallest time bank of t's seats (0 without a bank): not
// knowing whose turn it is, mayBeDue must not pass over the seat with the
// least left.
func minBank(t Table) time.Duration {
	if t.BankSeconds <= 0 || len(t.BankLeft) == 0 {
		return 0
	}
	return time.Duration(slices.Min(t.BankLeft)) * time.Millisecond
}

// tickTable plays the time-out due at one table, if any, and reports
// whether it changed the table.
func (r *tableReferee) tickTable(ctx context.Context, id int64, now time.Time) (bool, error) {
	var t Table
	changed := false
	tk := r.notes.ticket()
	err := r.st.InTx(ctx, func(tx Tx) error {
		var err error
		if t, err = tx.Tables().Lock(id); err != nil || t.Status != TablePlaying || t.TurnStartedAt == nil {
			return err
		}
		read := t.Version
		p, err := load(tx, &t)
		if err != nil {
			return err
		}
		seat := p.game.Turn()
		if seat >= len(t.ClockUsed) {
			return fmt.Errorf("clock of seat %d not kept", seat)
		}
		elapsed := now.Sub(*t.TurnStartedAt)
		used := time.Duration(t.ClockUsed[seat])*time.Millisecond + elapsed
		switch {
		case deadlineDue(t, now):
			err = r.callDeadline(tx, p)
		case t.MatchSeconds > 0 && used >= time.Duration(t.MatchSeconds)*time.Second:
			err = r.loseOnTime(tx, p, seat)
		case graceOver(t, seat, now.Sub(later(*t.TurnStartedAt, *r.watching.Load()))) && t.AbsentPolicy == AbsentBot:
			err = r.standInAbsent(tx, p, seat)
		case graceOver(t, seat, now.Sub(later(*t.TurnStartedAt, *r.watching.Load()))):
			err = r.abandon(tx, &t, seat)
		case t.TurnSeconds > 0 && elapsed >= turnAllowance(t, seat):
			err = r.timeOut(tx, p, seat)
		default:
			return nil // played in time after all
		}
		if err != nil {
			return err
		}
		changed = true
		return r.match.commitTable(tx, &t, read)
	})
	if err == nil && changed {
		r.notes.publish(t, tk)
	}
	return changed, err
}

// timeOut ends the turn of a seat whose turn clock ran out with the
// engine's time-out moves (engine.TimeoutMoves: the card taken if it was
// not, then the highest-value legal discard), marked auto; when the rules
// leave no such discard (a card must be laid first), the bot ends the turn.
// Then the bots play on.
func (r *tableReferee) timeOut(tx Tx, p *playing, seat int) error {
	moves, err := engine.TimeoutMoves(p.game)
	if err == nil {
		for _, m := range moves {
			if err := r.match.apply(tx, p, seat, m, ByClock); err != nil {
				return fmt.Errorf("time-out of seat %d: %w", seat, err)
			}
		}
	}
	for !p.game.Over() && p.game.Turn() == seat {
		if err := r.match.botMove(tx, p, seat, ByClock); err != nil {
			return fmt.Errorf("time-out of seat %d: %w", seat, err)
		}
	}
	_, err = r.match.advance(tx, p)
	return err
}

// loseOnTime ends the match of a seat whose match clock ran out: the deal
// is ended by referee (scored, its record readable) and the seat's team
// loses the match.
func (r *tableReferee) loseOnTime(tx Tx, p *playing, seat int) error {
	p.t.ClockUsed[seat] = int64(p.t.MatchSeconds) * 1000
	if err := r.forfeit(tx, p, seat, ResultLostOnTime); err != nil {
		return err
	}
	lost := seat
	p.t.LostOnTime = &lost
	return nil
}

// later returns the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
