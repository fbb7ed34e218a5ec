package domain

import (
	"context"
	"slices"

	"github.com/burraco/burraco/engine"
)

// Rematch implements TableService.
func (s *tableService) Rematch(ctx context.Context, actor Actor, id int64, want bool) (Table, error) {
	if actor.Anonymous() {
		return Table{}, errLoginRequired
	}
	var t, next Table
	changed := false
	tk := s.notes.ticket()
	err := s.st.InTx(ctx, func(tx Tx) error {
		var err error
		changed = false
		if t, err = visibleTable(tx, actor, id, "", true); err != nil {
			return err
		}
		seat := t.SeatOf(actor.UserID)
		if err := mayWishRematch(t, seat, want); err != nil || t.RematchID != nil {
			return err // after the rematch began, a wish is a repeat: everyone had agreed
		}
		if slices.Contains(t.RematchWishes, seat) == want {
			return nil // nothing to change: no new version
		}
		if want {
			t.RematchWishes = append(slices.Clone(t.RematchWishes), seat)
			slices.Sort(t.RematchWishes)
		} else {
			t.RematchWishes = slices.DeleteFunc(slices.Clone(t.RematchWishes), func(s int) bool { return s == seat })
		}
		if want && everyoneWantsRematch(t) {
			if next, err = s.startRematch(tx, t); err != nil {
				return err
			}
			t.RematchID = &next.ID
		}
		// Written directly, not by commitTable: the match ended (and rated)
		// before; a wish is only a version of its own.
		t.Version++
		t.UpdatedAt = s.now()
		if err := tx.Tables().Update(t); err != nil {
			return err
		}
		changed = true
		return nil
	})
	if err != nil {
		return Table{}, err
	}
	if changed {
		s.notes.publish(t, tk)
		if next.ID != 0 {
			s.notes.publish(next, tk)
		}
	}
	return forViewer(t, actor), nil
}

// mayWishRematch refuses a rematch wish of seat at t. Errors: ENotSeated,
// ETableCancelled, EMatchNotOver, EConflict (a tournament's table),
// ERematchStarted (a withdrawal after it began).
func mayWishRematch(t Table, seat int, want bool) error {
	switch {
	case seat < 0:
		return Errorf(ENotSeated, "only the players of the match may ask for a rematch")
	case t.Status == TableCancelled:
		return errCancelled(t)
	case t.Status != TableFinished:
		return Errorf(EMatchNotOver, "the match is not over: a rematch is asked once it is")
	case t.Tournament != nil:
		return Errorf(EConflict, "a tournament's table has no rematch: its tournament pairs the next round")
	case t.RematchID != nil && !want:
		return Errorf(ERematchStarted, "every player agreed and the rematch began: it is table %d", *t.RematchID)
	}
	return nil
}

// everyoneWantsRematch reports whether every seated user of t wished for
// a rematch (a bot always agrees).
func everyoneWantsRematch(t Table) bool {
	for _, s := range t.Seats {
		if s.UserID != nil && !slices.Contains(t.RematchWishes, s.Seat) {
			return false
		}
	}
	return true
}

// startRematch creates and starts the rematch of finished table old: the
// same creator, club, rule set, options, match, clocks and seats (no
// stand-in carried over; a deadline is the finished match's only), the
// first deal dealt by the seat after old's first dealer. It does not count
// against the creator's limit of open tables: it never waits in the lobby.
func (s *tableService) startRematch(tx Tx, old Table) (Table, error) {
	first, err := tx.Tables().Deal(old.ID, 1)
	if err != nil {
		return Table{}, err
	}
	now := s.now()
	t := Table{CreatorID: old.CreatorID, ClubID: old.ClubID, Rules: old.Rules, Options: old.Options,
		Players: old.Players, Match: old.Match, Private: old.Private, AutoStart: old.AutoStart,
		TurnSeconds: old.TurnSeconds, MatchSeconds: old.MatchSeconds, GraceSeconds: old.GraceSeconds,
		AbsentPolicy: old.AbsentPolicy, ReconnectSeconds: old.ReconnectSeconds, ClaimPolicy: old.ClaimPolicy,
		BankSeconds: old.BankSeconds, Rated: old.Rated, Status: TableOpen, Version: 1, ClockUsed: []int64{},
		CreatedAt: now, UpdatedAt: now}
	if t.InviteCode, err = s.match.inviteCode(); err != nil {
		return Table{}, err
	}
	t.Seats = make([]Seat, len(old.Seats))
	for i, seat := range old.Seats {
		t.Seats[i] = Seat{Seat: seat.Seat, UserID: seat.UserID, Bot: seat.Bot, JoinedAt: &now}
	}
	if err := tx.Tables().Create(&t); err != nil {
		return Table{}, err
	}
	read := t.Version
	if _, err := s.match.startWith(tx, &t, engine.NextDealer(first.Dealer, t.Players)); err != nil {
		return Table{}, err
	}
	if err := s.match.commitTable(tx, &t, read); err != nil {
		return Table{}, err
	}
	return t, nil
}
