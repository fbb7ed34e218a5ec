package api

import (
	"time"

	"github.com/burraco/burraco/domain"
)

// Season is a club's season (stagione): the evenings of the club within its dates add up to its ranking.
type Season struct {
	ID       int64  `json:"id" example:"3"`
	ClubID   int64  `json:"club_id" example:"7"`
	ClubName string `json:"club_name" example:"Circolo Burraco Roma"`
	Name     string `json:"name" example:"Stagione 2026/27"`
	// The first day (UTC) of the season: a tournament counts when it starts on a day from starts_on to ends_on, both included.
	StartsOn string `json:"starts_on" format:"date" example:"2026-09-01"`
	// The last day (UTC) of the season, included; not before starts_on.
	EndsOn string `json:"ends_on" format:"date" example:"2027-06-30"`
	// placing_points: an evening's first scores as many points as there were entries, each place below points_step fewer (never below 0), entries tied in its standings share the higher place's points, scaled by entries / reference_size when reference_size is set; total_vp: the sum of the VP of the player's entries; average_vp: VP per evening, players under min_evenings listed after, unranked.
	Scheme string `json:"scheme" enums:"placing_points,total_vp,average_vp" example:"placing_points"`
	// placing_points: how many points fewer each place below is worth.
	PointsStep int `json:"points_step" example:"1"`
	// placing_points: 0, no scaling; else an evening's points are multiplied by its entries / reference_size (rounded to hundredths).
	ReferenceSize int `json:"reference_size" example:"0"`
	// average_vp: the fewest evenings a player needs to be ranked.
	MinEvenings int `json:"min_evenings" example:"1"`
	// Today (UTC) is within the season's dates.
	Current   bool      `json:"current" example:"true"`
	CreatedAt time.Time `json:"created_at" format:"date-time"`
	UpdatedAt time.Time `json:"updated_at" format:"date-time"`
} // @name Season

func seasonOut(now time.Time) func(domain.Season) Season {
	return func(s domain.Season) Season {
		return Season{ID: s.ID, ClubID: s.ClubID, ClubName: s.ClubName, Name: s.Name, StartsOn: s.StartsOn, EndsOn: s.EndsOn,
			Scheme: string(s.Scheme), PointsStep: s.PointsStep, ReferenceSize: s.ReferenceSize, MinEvenings: s.MinEvenings,
			Current: s.Current(now), CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
	}
}

// SeasonList is a club's seasons, latest start first.
type SeasonList struct {
	Items []Season `json:"items"`
} // @name SeasonList

// SeasonCreateRequest creates a season; absent settings take their defaults.
type SeasonCreateRequest struct {
	Name     string `json:"name" example:"Stagione 2026/27"`
	StartsOn string `json:"starts_on" format:"date" example:"2026-09-01"`
	// Not before starts_on (invalid_input, code before_start).
	EndsOn string `json:"ends_on" format:"date" example:"2027-06-30"`
	Scheme string `json:"scheme" enums:"placing_points,total_vp,average_vp" example:"placing_points"`
	// Default 1.
	PointsStep *int `json:"points_step,omitempty" minimum:"0" maximum:"100" example:"1"`
	// Default 0: no scaling.
	ReferenceSize *int `json:"reference_size,omitempty" minimum:"0" maximum:"1000" example:"0"`
	// Default 1.
	MinEvenings *int `json:"min_evenings,omitempty" minimum:"1" maximum:"366" example:"1"`
} // @name SeasonCreateRequest

// SeasonUpdateRequest changes a season; absent fields are left as they are.
type SeasonUpdateRequest struct {
	Name          *string `json:"name,omitempty" example:"Stagione 2026/27"`
	StartsOn      *string `json:"starts_on,omitempty" format:"date" example:"2026-09-01"`
	EndsOn        *string `json:"ends_on,omitempty" format:"date" example:"2027-07-31"`
	Scheme        *string `json:"scheme,omitempty" enums:"placing_points,total_vp,average_vp" example:"total_vp"`
	PointsStep    *int    `json:"points_step,omitempty" minimum:"0" maximum:"100" example:"2"`
	ReferenceSize *int    `json:"reference_size,omitempty" minimum:"0" maximum:"1000" example:"12"`
	MinEvenings   *int    `json:"min_evenings,omitempty" minimum:"1" maximum:"366" example:"3"`
} // @name SeasonUpdateRequest

// SeasonExclusionRequest takes a tournament out of a season.
type SeasonExclusionRequest struct {
	// Why it does not count (shown with the season).
	Reason string `json:"reason" example:"A charity evening, not part of the championship"`
} // @name SeasonExclusionRequest

// SeasonExclusion is why a director took a tournament out of a season.
type SeasonExclusion struct {
	Reason string `json:"reason" example:"A charity evening, not part of the championship"`
	// The user who excluded it.
	ExcludedBy int64     `json:"excluded_by" example:"42"`
	ExcludedAt time.Time `json:"excluded_at" format:"date-time"`
} // @name SeasonExclusion

// SeasonTournament is a tournament of the season: counted, or excluded.
type SeasonTournament struct {
	ID       int64     `json:"id" example:"12"`
	Name     string    `json:"name" example:"Martedì sera"`
	StartsAt time.Time `json:"starts_at" format:"date-time"`
	Kind     string    `json:"kind" enums:"pairs,teams,individual" example:"pairs"`
	// finished (counted at once, the results not yet published: a correction may still move it) or results_published; an excluded tournament may have any status.
	Status string `json:"status" example:"results_published"`
	// The tournament's version its standings were read at: the ranking's basis.
	Version int64 `json:"version" example:"93"`
	// Entries that played (a round at a table or a bye): the first's placing points.
	Entries int `json:"entries" example:"12"`
	// It counts in the ranking (not excluded).
	Counted bool `json:"counted" example:"true"`
	// Set when a director excluded it.
	Exclusion *SeasonExclusion `json:"exclusion,omitempty"`
} // @name SeasonTournament

// SeasonDetail is a season with its tournaments, by start time: those it counts and those excluded.
type SeasonDetail struct {
	Season
	Tournaments []SeasonTournament `json:"tournaments"`
} // @name SeasonDetail

func seasonTournamentOut(t domain.SeasonTournament) SeasonTournament {
	out := SeasonTournament{ID: t.ID, Name: t.Name, StartsAt: t.StartsAt, Kind: string(t.Kind), Status: string(t.Status),
		Version: t.Version, Entries: t.Entries, Counted: t.Excluded == nil}
	if x := t.Excluded; x != nil {
		out.Exclusion = &SeasonExclusion{Reason: x.Reason, ExcludedBy: x.By, ExcludedAt: x.At}
	}
	return out
}

func seasonDetailOut(now time.Time) func(domain.SeasonDetail) SeasonDetail {
	return func(d domain.SeasonDetail) SeasonDetail {
		return SeasonDetail{Season: seasonOut(now)(d.Season), Tournaments: mapSlice(d.Tournaments, seasonTournamentOut)}
	}
}

// SeasonResult is one evening of a player in the ranking.
type SeasonResult struct {
	TournamentID int64 `json:"tournament_id" example:"12"`
	// The place of the player's entry among the evening's entries that played (entries tied share it).
	Place   int `json:"place" example:"2"`
	Entries int `json:"entries" example:"12"`
	// The entry's VP in the evening's standings.
	VP int `json:"vp" example:"61"`
	// What the evening scored under the scheme: placing points, or the VP again.
	Points float64 `json:"points" example:"11"`
} // @name SeasonResult

// SeasonRankingRow is one player's line of a season ranking. No e-mail address, ever: the player's profile id and display name.
type SeasonRankingRow struct {
	// The place; absent when the player is not ranked (average_vp, fewer evenings than min_evenings). Players equal on points, evenings won, best evening and evenings played share it.
	Place    int    `json:"place,omitempty" example:"1"`
	Ranked   bool   `json:"ranked" example:"true"`
	PlayerID int64  `json:"player_id" example:"31"`
	Name     string `json:"name" example:"Anna Rossi"`
	Evenings int    `json:"evenings" example:"9"`
	// The scheme's value: placing points, total VP or average VP (hundredths).
	Points float64 `json:"points" example:"87"`
	// Evenings won: placed first (a tie for first included).
	Wins int `json:"wins" example:"2"`
	// The best single evening: its points (placing_points) or VP.
	Best float64 `json:"best" example:"14"`
	// The evenings counted, by start time.
	Results []SeasonResult `json:"results"`
} // @name SeasonRankingRow

// SeasonRanking is a season's ranking as it stands, computed from the current standings of the tournaments it counts.
type SeasonRanking struct {
	Season SeasonDetail `json:"season"`
	// An evening counted is finished but its results not yet published: a correction may still move the ranking.
	Provisional bool `json:"provisional" example:"false"`
	// How many players have a place.
	PlayersRanked int `json:"players_ranked" example:"24"`
	// The ranked players by place, then the unranked; the order within a place is by name. Ties are broken by points, then evenings won, then the best single evening, then evenings played.
	Rows []SeasonRankingRow `json:"rows"`
} // @name SeasonRanking

func seasonRowOut(r domain.SeasonRow) SeasonRankingRow {
	out := SeasonRankingRow{Place: r.Place, Ranked: r.Place > 0, PlayerID: r.PlayerID, Name: r.Name, Evenings: r.Evenings,
		Points: r.Points, Wins: r.Wins, Best: r.Best, Results: make([]SeasonResult, len(r.Results))}
	for i, x := range r.Results {
		out.Results[i] = SeasonResult{TournamentID: x.TournamentID, Place: x.Place, Entries: x.Entries, VP: x.VP, Points: x.Points}
	}
	return out
}

func seasonRankingOut(now time.Time, r domain.SeasonRanking) SeasonRanking {
	return SeasonRanking{Season: seasonDetailOut(now)(r.Season), Provisional: r.Provisional, PlayersRanked: r.PlayersRanked,
		Rows: mapSlice(r.Rows, seasonRowOut)}
}

// MyRanking is one season ranking the caller is in (through one of their player profiles).
type MyRanking struct {
	ClubID     int64  `json:"club_id" example:"7"`
	ClubName   string `json:"club_name" example:"Circolo Burraco Roma"`
	SeasonID   int64  `json:"season_id" example:"3"`
	SeasonName string `json:"season_name" example:"Stagione 2026/27"`
	Scheme     string `json:"scheme" enums:"placing_points,total_vp,average_vp" example:"placing_points"`
	// The caller's place; null when not ranked (average_vp, fewer evenings than min_evenings).
	Place *int `json:"place" extensions:"x-nullable" example:"4"`
	// Placing points, total VP or average VP, by the scheme.
	Points        float64 `json:"points" example:"64"`
	Evenings      int     `json:"evenings" example:"7"`
	PlayersRanked int     `json:"players_ranked" example:"24"`
} // @name MyRanking

func myRankingOut(m domain.MySeasonRanking) MyRanking {
	out := MyRanking{ClubID: m.Season.ClubID, ClubName: m.Season.ClubName, SeasonID: m.Season.ID, SeasonName: m.Season.Name,
		Scheme: string(m.Season.Scheme), Points: m.Row.Points, Evenings: m.Row.Evenings, PlayersRanked: m.PlayersRanked}
	if m.Row.Place > 0 {
		out.Place = &m.Row.Place
	}
	return out
}
