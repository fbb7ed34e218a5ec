package domain

import "context"

// Referees implements TournamentService.
func (s *tournamentService) Referees(ctx context.Context, actor Actor, id int64) ([]TournamentReferee, error) {
	var refs []TournamentReferee
	err := s.st.View(ctx, func(tx Tx) error {
		if _, err := visibleTournament(accessFor(tx, actor), id); err != nil {
			return err
		}
		var err error
		refs, err = tx.Tournaments().Referees(id)
		return err
	})
	return refs, err
}

// AssignReferee implements TournamentService.
func (s *tournamentService) AssignReferee(ctx context.Context, actor Actor, id, userID int64) (TournamentReferee, error) {
	if actor.Anonymous() {
		return TournamentReferee{}, errLoginRequired
	}
	var ref TournamentReferee
	err := s.st.InTx(ctx, func(tx Tx) error {
		t, err := editableTournament(accessFor(tx, actor), id)
		if err != nil {
			return err
		}
		if _, err := mayBeTournamentReferee(tx, t, userID); err != nil {
			return err
		}
		if _, err := tx.Tournaments().AddReferee(id, userID, s.now()); err != nil {
			return err
		}
		ref, err = refereeOf(tx, id, userID)
		return err
	})
	return ref, err
}

// refereeOf returns one referee of the tournament as Referees lists it.
func refereeOf(tx Tx, id, userID int64) (TournamentReferee, error) {
	refs, err := tx.Tournaments().Referees(id)
	if err != nil {
		return TournamentReferee{}, err
	}
	for _, r := range refs {
		if r.UserID == userID {
			return r, nil
		}
	}
	return TournamentReferee{}, Errorf(ENotFound, "referee not found")
}

// UnassignReferee implements TournamentService.
func (s *tournamentService) UnassignReferee(ctx context.Context, actor Actor, id, userID int64) error {
	if actor.Anonymous() {
		return errLoginRequired
	}
	return s.st.InTx(ctx, func(tx Tx) error {
		if _, err := editableTournament(accessFor(tx, actor), id); err != nil {
			return err
		}
		_, err := tx.Tournaments().RemoveReferee(id, userID)
		return err
	})
}
