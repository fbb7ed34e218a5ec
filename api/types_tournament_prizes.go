package api

import (
	"github.com/burraco/burraco/domain"
)

// TournamentPrize is one prize of a tournament's prize list (issue 32).
type TournamentPrize struct {
	Name string `json:"name" example:"Best ladies' pair"`
	// The category tag every player of an entry must have (see Player.categories); absent for an overall prize.
	Category string `json:"category,omitempty" example:"ladies"`
	// How many entries get the prize (first, second, …).
	Places int `json:"places" minimum:"1" maximum:"100" example:"2"`
	// Whether an entry that already won a prize may take this one too; false: it is skipped and the next qualifying entry gets it.
	Cumulative bool `json:"cumulative,omitempty" example:"false"`
	// A tournament in phases (docs/PHASES.md): the prize is given from this group's overall standings (A, B, …); absent for the whole field.
	Group string `json:"group,omitempty"`
	// With group: the phase whose group it is (from 1); absent: the last phase with groups.
	Phase int `json:"phase,omitempty" minimum:"0"`
} // @name TournamentPrize

func prizeOut(p domain.Prize) TournamentPrize {
	return TournamentPrize(p)
}

func (p TournamentPrize) domain() domain.Prize {
	return domain.Prize(p)
}

// prizesOut is a prize list as the set-up shows it: nil (absent) for none.
func prizesOut(ps []domain.Prize) []TournamentPrize {
	if len(ps) == 0 {
		return nil
	}
	return mapSlice(ps, prizeOut)
}

// prizesIn is the prize list of a set-up input: nil when absent.
func prizesIn(ps *[]TournamentPrize) *[]domain.Prize {
	if ps == nil {
		return nil
	}
	out := mapSlice(*ps, TournamentPrize.domain)
	return &out
}

// TournamentPrizeWinner is an entry that won a place of a prize.
type TournamentPrizeWinner struct {
	// 1 for the first of the prize, 2 for the second, …
	Place int `json:"place" example:"1"`
	// The entry's rank in the final standings.
	Rank    int                `json:"rank" example:"4"`
	Entry   TournamentEntryRef `json:"entry"`
	Players []TournamentPlayer `json:"players"`
} // @name TournamentPrizeWinner

// TournamentPrizeAward is a prize and who won it.
type TournamentPrizeAward struct {
	TournamentPrize
	// Best first; fewer than places when too few entries qualify.
	Winners []TournamentPrizeWinner `json:"winners"`
} // @name TournamentPrizeAward

// TournamentPrizes is a tournament's prize list given from its final
// standings.
type TournamentPrizes struct {
	TournamentID int64 `json:"tournament_id" example:"12"`
	// The overall prizes first, then the category prizes, each in the order of the prize list.
	Awards []TournamentPrizeAward `json:"awards"`
} // @name TournamentPrizes

func (v playView) prizes(awards []domain.PrizeAward) TournamentPrizes {
	out := TournamentPrizes{TournamentID: v.read.Tournament.ID, Awards: make([]TournamentPrizeAward, 0, len(awards))}
	for _, a := range awards {
		aw := TournamentPrizeAward{TournamentPrize: prizeOut(a.Prize), Winners: make([]TournamentPrizeWinner, 0, len(a.Winners))}
		for i, w := range a.Winners {
			win := TournamentPrizeWinner{Place: i + 1, Rank: w.Rank, Entry: *v.ref(w.Entry), Players: []TournamentPlayer{}}
			if e, ok := v.entry(w.Entry); ok {
				win.Players = v.players(e.Players)
			}
			aw.Winners = append(aw.Winners, win)
		}
		out.Awards = append(out.Awards, aw)
	}
	return out
}
