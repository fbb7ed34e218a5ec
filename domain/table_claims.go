package domain

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/burraco/burraco/engine"
)

// Claims and aborts (issue 29): what the players present may do about a
// seat that is gone (SeatPresence). Presence is this process's memory of
// its polls, so a claim is decided by the process that serves it: with
// several processes, a table's requests are to go to one of them (see
// TableService.Presence).

// Claim implements TableService.
func (s *tableService) Claim(ctx context.Context, actor Actor, id int64, claim ClaimPolicy) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	var v Validator
	v.Check(claim == "" || claim == ClaimWin || claim == ClaimDraw || claim == ClaimBot, "result", "invalid",
		"result must be win, draw or bot (absent: what the table's claim_policy gives)")
	if err := v.Err(); err != nil {
		return Table{}, err
	}
	s.presence.touch(id, actor.UserID, s.now()) // the claimant is there (if seated: presence is by user)
	return s.change(ctx, actor, id, "", func(tx Tx, t *Table) error {
		seat, err := seatedAtPlaying(*t, actor)
		if err != nil {
			return err
		}
		if claim, err = allowedClaim(*t, claim); err != nil {
			return err
		}
		gone, err := s.goneOpponents(*t, seat, claim == ClaimBot)
		if err != nil {
			return err
		}
		p, err := load(tx, t)
		if err != nil {
			return err
		}
		switch claim {
		case ClaimWin:
			if err := s.referee.forfeit(tx, p, gone[0], ResultClaimed); err != nil {
				return err
			}
			t.AbandonedBy = &gone[0]
			return nil
		case ClaimDraw:
			if err := s.referee.endWithout(tx, p, engine.MatchStatus{Over: true, Winner: -1, Draw: true}, ResultClaimed); err != nil {
				return err
			}
			t.AbandonedBy = &gone[0]
			return nil
		}
		for _, g := range gone { // a bot stands in for each gone seat, as absent_policy bot
			if err := s.referee.standInAbsent(tx, p, g); err != nil {
				return err
			}
		}
		return nil
	})
}

// seatedAtPlaying returns the actor's seat at t, whose match must be under
// way.
func seatedAtPlaying(t Table, actor Actor) (int, error) {
	seat := t.SeatOf(actor.UserID)
	switch {
	case seat < 0:
		return -1, Errorf(EForbidden, "you do not sit at this table")
	case t.Status == TableCancelled:
		return -1, errCancelled(t)
	case t.Status == TableOpen:
		return -1, Errorf(EConflict, "the match has not started: leave the table instead")
	case t.Status != TablePlaying:
		return -1, Errorf(EConflict, "the match is over")
	}
	return seat, nil
}

// allowedClaim is the claim t's policy gives for the one asked ("": the
// policy's own). Errors: EClaimNotAllowed.
func allowedClaim(t Table, claim ClaimPolicy) (ClaimPolicy, error) {
	policy := t.ClaimPolicy
	if claim == "" {
		claim = policy
	}
	ok := false
	switch policy {
	case ClaimWin: // who may claim the match may settle for a draw
		ok = claim == ClaimWin || claim == ClaimDraw
	case ClaimDraw, ClaimBot:
		ok = claim == policy
	}
	if ok && claim == ClaimDraw && t.Tournament != nil {
		ok = false // a tournament's sheet takes a forfeit, not an agreed draw
	}
	if !ok {
		return "", Errorf(EClaimNotAllowed, "this table's claim policy is %s: %s cannot be claimed", policy, claim)
	}
	return claim, nil
}

// goneOpponents returns the seats of the other team whose players have been
// gone past the reconnect window, the longest gone first; forBot leaves out
// those a bot already stands in for. Errors: EOpponentPresent (every
// opponent is present), EWindowNotOver (one is gone, within the window:
// Fields says when it ends).
func (s *tableService) goneOpponents(t Table, seat int, forBot bool) ([]int, error) {
	rules, err := engine.NewRules(t.Rules, t.Players)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var gone []SeatPresence
	var firstEnd *time.Time
	for _, p := range s.presence.of(presenceSeatsOf(t), now) {
		st := t.Seats[p.Seat]
		if p.Present || rules.Team(p.Seat) == rules.Team(seat) || forBot && st.StandIn != "" && !st.Returning {
			continue
		}
		if p.WindowEnds.After(now) {
			if firstEnd == nil || p.WindowEnds.Before(*firstEnd) {
				firstEnd = p.WindowEnds
			}
			continue
		}
		gone = append(gone, p)
	}
	slices.SortStableFunc(gone, func(a, b SeatPresence) int { return a.Since.Compare(b.Since) })
	switch {
	case len(gone) > 0:
		seats := make([]int, len(gone))
		for i, p := range gone {
			seats[i] = p.Seat
		}
		return seats, nil
	case firstEnd != nil:
		end := firstEnd.UTC().Format(time.RFC3339)
		return nil, &Error{Kind: KindConflict, Code: EWindowNotOver,
			Message: fmt.Sprintf("an opponent is gone, but their reconnect window ends at %s: claim from then", end),
			Fields:  []FieldError{{Field: "window_ends", Code: "not_over", Message: end}}}
	}
	return nil, Errorf(EOpponentPresent, "no opponent of yours is gone: nothing to claim")
}

// endWithout ends the match of p's table with st (no winner: a draw, or
// nothing at all) and result: the running deal is ended by referee, as a
// forfeit's is.
func (r *tableReferee) endWithout(tx Tx, p *playing, st engine.MatchStatus, result TableResult) error {
	totals, err := r.endRunningDeal(tx, p)
	if err != nil {
		return err
	}
	st.Totals = totals
	r.match.finish(p.t, st, result)
	return nil
}

// Abort implements TableService.
func (s *tableService) Abort(ctx context.Context, actor Actor, id int64) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	s.presence.touch(id, actor.UserID, s.now())
	return s.change(ctx, actor, id, "", func(tx Tx, t *Table) error {
		seat, err := seatedAtPlaying(*t, actor)
		if err != nil {
			return err
		}
		if t.Tournament != nil {
			return Errorf(EAbortNotAllowed, "a tournament's table is not aborted: a no-show is claimed, or forfeits after the grace period")
		}
		if err := beforeFirstMove(tx, *t); err != nil {
			return err
		}
		if !s.someoneElseGone(*t, seat) {
			return Errorf(EOpponentPresent, "everyone else is at the table: a match is aborted only when someone is gone")
		}
		p, err := load(tx, t)
		if err != nil {
			return err
		}
		return s.referee.endWithout(tx, p, engine.MatchStatus{Over: true, Winner: -1}, ResultAborted)
	})
}

// beforeFirstMove refuses (EAlreadyStarted) once a player has moved in the
// match: the moves of bots and of the turn clock do not count, since they
// show nobody is there.
func beforeFirstMove(tx Tx, t Table) error {
	if t.DealNumber > 1 {
		return Errorf(EAlreadyStarted, "the match is past its first deal: it is played out, or claimed")
	}
	moves, err := tx.Tables().Moves(t.ID, 1)
	if err != nil {
		return err
	}
	for _, m := range moves {
		if m.By == ByPlayer || m.By == "" && !m.Auto {
			return Errorf(EAlreadyStarted, "seat %d has moved: the match is played out, or claimed", m.Seat)
		}
	}
	return nil
}

// someoneElseGone reports whether a player of t other than seat's is gone.
func (s *tableService) someoneElseGone(t Table, seat int) bool {
	for _, p := range s.presence.of(presenceSeatsOf(t), s.now()) {
		if p.Seat != seat && !p.Present {
			return true
		}
	}
	return false
}
