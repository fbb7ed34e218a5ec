package domain

import (
	"slices"
	"time"

	"github.com/burraco/burraco/domain/tourney"
)

// MyResult is one tournament on a player's own page: where they stand, or
// stood, and with whom.
type MyResult struct {
	TournamentID int64
	Name         string
	ClubID       int64
	ClubName     string
	StartsAt     time.Time
	Status       string
	EntryID      int64
	// Partners are the names of the other players of the entry.
	Partners []string
	// Place is the entry's rank in the standings (0 when it has none yet);
	// VP its victory points.
	Place int
	VP    int
	// Entries is how many entries the standings rank.
	Entries int
}

// MyResults is a player's tournaments: Upcoming (registered, not
// finished: open, closed or running, by start) and Past (finished or
// published, latest first). Cancelled ones and those the caller only
// referees are left out.
type MyResults struct {
	Upcoming []MyResult
	Past     []MyResult
}

// ResultsOf sorts a player's tournaments (TournamentPlayService.Mine) into
// their results.
func ResultsOf(mine []MyTournament) MyResults {
	out := MyResults{Upcoming: []MyResult{}, Past: []MyResult{}}
	for _, m := range mine {
		if len(m.Entries) == 0 || m.Snapshot == nil || m.Snapshot.Status == tourney.StatusCancelled ||
			m.Snapshot.Status == tourney.StatusDraft {
			continue
		}
		r := resultOf(m)
		if r.Status == tourney.StatusFinished || r.Status == tourney.StatusResultsPublished {
			out.Past = append(out.Past, r)
		} else {
			out.Upcoming = append(out.Upcoming, r)
		}
	}
	slices.Reverse(out.Past) // Mine is by start time
	return out
}

func resultOf(m MyTournament) MyResult {
	t := m.Tournament
	r := MyResult{TournamentID: t.ID, Name: t.Name, ClubID: t.ClubID, ClubName: t.ClubName, StartsAt: t.StartsAt,
		Status: m.Snapshot.Status, EntryID: m.Entries[0], Partners: []string{}}
	for _, e := range m.Snapshot.Entries {
		if e.ID != r.EntryID {
			continue
		}
		for _, p := range e.Players {
			if !slices.Contains(m.Players, p) {
				r.Partners = append(r.Partners, m.TournamentRead.Players[p])
			}
		}
	}
	rows := m.Snapshot.Standings.Rows
	r.Entries = len(rows)
	for _, row := range rows {
		if row.Entry == r.EntryID {
			r.Place, r.VP = row.Rank, row.VP
		}
	}
	return r
}
