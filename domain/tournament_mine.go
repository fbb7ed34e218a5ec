package domain

import (
	"context"
	"slices"
	"sort"
)

// MyTournament is a tournament in its player's or referee's own list: the
// tournament and its state, the caller's entries in it (through any of
// their player profiles, withdrawn ones included) and whether they are
// assigned to referee it. Players is the caller's player profiles.
type MyTournament struct {
	TournamentRead
	Entries []int64
	Referee bool
	Players []int64
}

// Mine implements TournamentPlayService.
func (s *tournamentPlayService) Mine(ctx context.Context, actor Actor) ([]MyTournament, error) {
	if actor.Anonymous() {
		return nil, errLoginRequired
	}
	var players, entered, refereed []int64
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		if players, err = tx.Players().IDsOfUser(actor.UserID); err != nil {
			return err
		}
		if entered, err = tx.Tournaments().WithPlayers(players); err != nil {
			return err
		}
		refereed, err = tx.Tournaments().RefereedBy(actor.UserID)
		return err
	})
	if err != nil {
		return nil, err
	}
	ids := append(slices.Clone(entered), refereed...)
	slices.Sort(ids)
	out := []MyTournament{}
	for _, id := range slices.Compact(ids) {
		read, err := s.Read(ctx, actor, id)
		switch {
		case ErrorKind(err) == KindNotFound:
			continue // deleted meanwhile, or a draft the caller may not see
		case err != nil:
			return nil, err
		}
		m := MyTournament{TournamentRead: read, Entries: entriesOf(read, players),
			Referee: read.Staff && slices.Contains(refereed, id), Players: players}
		if len(m.Entries) > 0 || m.Referee {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Tournament.StartsAt.Before(out[j].Tournament.StartsAt) })
	return out, nil
}

// entriesOf is the entries of a tournament that have any of the players.
func entriesOf(read TournamentRead, players []int64) []int64 {
	var out []int64
	for _, e := range read.Snapshot.Entries {
		for _, p := range e.Players {
			if slices.Contains(players, p) {
				out = append(out, e.ID)
				break
			}
		}
	}
	return out
}
