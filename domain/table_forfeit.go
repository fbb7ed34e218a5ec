package domain

import (
	"context"
	"time"

	"github.com/burraco/burraco/engine"
)

// forfeit ends the match of a playing table lost by seat's team: the
// running deal is ended by referee (scored as it stands, its record
// readable with ended_by_referee), and the table is finished with result.
// The seats stay as they were, the record of who played: a finished table
// holds nobody.
func (r *tableReferee) forfeit(tx Tx, p *playing, seat int, result TableResult) error {
	t := p.t
	totals, err := r.endRunningDeal(tx, p)
	if err != nil {
		return err
	}
	st := engine.MatchStatus{Totals: totals, Over: true, Winner: 1 - p.game.Team(seat)}
	r.match.finish(t, st, result)
	if t.Tournament != nil && r.recorder != nil {
		return r.recorder.recordForfeit(tx, t, seat, result)
	}
	return nil
}

// endRunningDeal ends p's running deal by referee (scored as it stands,
// its record readable with ended_by_referee), stores it and returns the
// match's running totals: what every early end of a match (a forfeit, a
// claimed draw, an abort) starts with.
func (r *tableReferee) endRunningDeal(tx Tx, p *playing) ([]int, error) {
	if !p.game.Over() {
		if err := p.game.EndByReferee(); err != nil {
			return nil, FromRuleError(err)
		}
	}
	now := r.now()
	if p.deal.EndedAt == nil {
		p.deal.Score, p.deal.EndedAt = p.game.Score(), &now
	}
	if err := r.match.savePosition(tx, p); err != nil {
		return nil, err
	}
	deals, err := tx.Tables().Deals(p.t.ID)
	if err != nil {
		return nil, err
	}
	return engine.RunningTotals(scoresOf(deals)), nil
}

// abandon forfeits the match for the seat of a player who left it (or did
// not come back within the table's grace period).
func (r *tableReferee) abandon(tx Tx, t *Table, seat int) error {
	p, err := load(tx, t)
	if err != nil {
		return err
	}
	if err := r.forfeit(tx, p, seat, ResultAbandoned); err != nil {
		return err
	}
	t.AbandonedBy = &seat
	return nil
}

// CallTimeOut calls the time-out at a table as its referee (TableService.CallTimeOut).
func (r *tableReferee) CallTimeOut(ctx context.Context, actor Actor, id int64) (TableState, error) {
	return r.rule(ctx, actor, id, "call the time-out", func(tx Tx, t *Table) (*playing, error) {
		if t.Status != TablePlaying {
			return nil, Errorf(EConflict, "the match is not being played")
		}
		p, err := load(tx, t)
		if err != nil {
			return nil, err
		}
		if err := p.game.CallTimeOut(); err != nil {
			return nil, FromRuleError(err)
		}
		called := p.deal.Moves
		p.deal.TimeOutAt = &called
		// The position is stored with the time-out in it (and its count of
		// moves): a deal read back never replays moves across the call.
		return p, r.match.savePosition(tx, p)
	})
}

// rule is a referee's act at table id (a time-out, a stand-in): act, in
// the transaction, changes the table it is given and answers its running
// game; the act is a version of its own, the bots then move up to the next
// human turn (a deal they end is written into a tournament's sheet), and
// the state answered is the referee's. Only the table's referee may act
// (what says what was refused).
func (r *tableReferee) rule(ctx context.Context, actor Actor, id int64, what string, act func(Tx, *Table) (*playing, error)) (TableState, error) {
	if actor.Anonymous() {
		return TableState{}, errLoginRequired
	}
	var state TableState
	var t Table
	var played *playing
	tk := r.notes.ticket()
	err := r.st.InTx(ctx, func(tx Tx) error {
		var err error
		if t, err = visibleTable(tx, actor, id, "", true); err != nil {
			return err
		}
		read := t.Version
		if err := accessFor(tx, actor).mayRefereeTable(t, what); err != nil {
			return err
		}
		p, err := act(tx, &t)
		if err != nil {
			return err
		}
		t.Version++
		if p, err = r.match.advance(tx, p); err != nil {
			return err
		}
		if err := r.match.commitTable(tx, &t, read); err != nil {
			return err
		}
		state = playedState(t, t.SeatOf(actor.UserID), p)
		played = p
		return nil
	})
	if err != nil {
		return TableState{}, err
	}
	if played != nil {
		played.afterCommit()
	}
	r.games.put(t, played)
	r.notes.publish(t, tk)
	state.Table = forViewer(state.Table, actor)
	state.TurnLeft, state.MatchLeft = clocksLeft(state.Table, state.View, r.now())
	state.BankLeft = banksLeft(state.Table, state.View, r.now())
	return state, nil
}

// graceOver reports whether the seat on turn at t has made no move for the
// table's grace period at now, and no shorter turn clock plays for it.
func graceOver(t Table, seat int, elapsed time.Duration) bool {
	if t.GraceSeconds <= 0 || seat < 0 || seat >= len(t.Seats) || t.Seats[seat].PlayedByBot() {
		return false
	}
	if t.TurnSeconds > 0 && t.TurnSeconds+t.BankSeconds <= t.GraceSeconds {
		return false
	}
	return elapsed >= time.Duration(t.GraceSeconds)*time.Second
}
