package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/burraco/burraco/engine"
)

// MaxStandInReasonLength bounds a referee's reason for a stand-in.
const MaxStandInReasonLength = 500

// standInAbsent puts a bot in the place of the player on turn who made no
// move for the grace period (absent policy bot): it plays this turn at
// once and every turn of the seat after it, until the player comes back.
func (r *tableReferee) standInAbsent(tx Tx, p *playing, seat int) error {
	p.t.Seats[seat].StandIn, p.t.Seats[seat].StandInReason, p.t.Seats[seat].Returning = StandInAbsent, "", false
	if err := tx.Tables().SetSeat(p.t.ID, p.t.Seats[seat]); err != nil {
		return err
	}
	_, err := r.match.advance(tx, p)
	return err
}

// seatBack gives seat back to its returning player when it comes to their
// turn: from then on they play it (and the grace period counts again).
func seatBack(tx Tx, t *Table, seat int) error {
	st := &t.Seats[seat]
	if st.StandIn == "" || !st.Returning {
		return nil
	}
	st.StandIn, st.StandInReason, st.Returning = "", "", false
	return tx.Tables().SetSeat(t.ID, *st)
}

// standingIn reports whether a bot stands in for the actor at t and the
// actor has not yet said they are back.
func standingIn(t Table, actor Actor) bool {
	seat := t.SeatOf(actor.UserID)
	return seat >= 0 && t.Status == TablePlaying && t.Seats[seat].StandIn != "" && !t.Seats[seat].Returning
}

// reclaim marks the actor back at the table where a bot stands in for
// them (any request of theirs on the table is a sign of life): they take
// their seat back at its next turn. Nothing when no bot stands in for
// them.
func (r *tableReferee) reclaim(ctx context.Context, actor Actor, id int64) error {
	var t Table
	changed := false
	tk := r.notes.ticket()
	err := r.st.InTx(ctx, func(tx Tx) error {
		var err error
		if t, err = tx.Tables().Lock(id); err != nil || !standingIn(t, actor) {
			return err
		}
		read := t.Version
		seat := t.SeatOf(actor.UserID)
		t.Seats[seat].Returning = true
		if err := tx.Tables().SetSeat(t.ID, t.Seats[seat]); err != nil {
			return err
		}
		changed = true
		return r.match.commitTable(tx, &t, read)
	})
	if err == nil && changed {
		r.notes.publish(t, tk)
	}
	return err
}

// ReplaceByBot puts a bot in for a player as the table's referee (TableService.ReplaceByBot).
func (r *tableReferee) ReplaceByBot(ctx context.Context, actor Actor, id int64, seat int, reason string) (TableState, error) {
	if actor.Anonymous() {
		return TableState{}, errLoginRequired
	}
	reason = strings.TrimSpace(reason)
	var v Validator
	v.Check(reason != "", "reason", "required", "say why the player is replaced")
	// Characters, not bytes: openapi.yaml's maxLength counts characters.
	v.Check(utf8.RuneCountInString(reason) <= MaxStandInReasonLength, "reason", "too_long",
		fmt.Sprintf("reason must be at most %d characters", MaxStandInReasonLength))
	if err := v.Err(); err != nil {
		return TableState{}, err
	}
	return r.rule(ctx, actor, id, "replace a player", func(tx Tx, t *Table) (*playing, error) {
		var v Validator
		v.Check(seat >= 0 && seat < t.Players, "seat", "out_of_range", fmt.Sprintf("seat must be from 0 to %d", t.Players-1))
		if err := v.Err(); err != nil {
			return nil, err
		}
		st := &t.Seats[seat]
		switch {
		case t.Status != TablePlaying:
			return nil, Errorf(EConflict, "the match is not being played")
		case st.Bot:
			return nil, Errorf(EConflict, "seat %d is a bot's", seat)
		case st.StandIn != "" && !st.Returning:
			return nil, Errorf(EConflict, "a bot already stands in for seat %d", seat)
		}
		st.StandIn, st.StandInReason, st.Returning = StandInReferee, reason, false
		if err := tx.Tables().SetSeat(t.ID, *st); err != nil {
			return nil, err
		}
		p, err := r.match.running(tx, t)
		if err != nil {
			return nil, err
		}
		if t.Tournament != nil && r.recorder != nil { // the tournament's audit trail has it
			after, err := r.recorder.recordStandIn(tx, t, seat, actor.UserID, reason)
			if err != nil {
				return nil, err
			}
			if after != nil {
				p.committed = append(p.committed, after)
			}
		}
		return p, nil
	})
}

// deadlineDue reports whether t's deadline has passed at now and its
// time-out is still to be called.
func deadlineDue(t Table, now time.Time) bool {
	return t.Deadline != nil && !t.DeadlinePassed && !now.Before(*t.Deadline)
}

// callDeadline calls the RULES §10 time-out at a table whose deadline has
// passed, as a referee's CallTimeOut does (a time-out a referee already
// called stands: a later call never gives more turns); the deal's last
// round is then played and the match ends with it (endDeal).
func (r *tableReferee) callDeadline(tx Tx, p *playing) error {
	p.t.DeadlinePassed = true
	err := p.game.CallTimeOut()
	var re *engine.RuleError
	switch {
	case errors.As(err, &re) && re.Code == engine.ErrNotAllowed: // already called
	case err != nil:
		return FromRuleError(err)
	default:
		called := p.deal.Moves
		p.deal.TimeOutAt = &called
		if err := r.match.savePosition(tx, p); err != nil {
			return err
		}
	}
	p.t.Version++ // the call is a version of its own, before the bots' moves
	_, err = r.match.advance(tx, p)
	return err
}

// deadlineStatus is how a match whose deadline passed ends, with the deal
// the time-out was called in: the team ahead wins, equal totals are a draw
// (a time-limited round plays no tie-break deal).
func deadlineStatus(totals []int) engine.MatchStatus {
	st := engine.MatchStatus{Totals: totals, Over: true, Winner: engine.Leader(totals)}
	st.Draw = st.Winner < 0
	return st
}
