package domain

import (
	"math"
	"sort"
	"strings"
)

// SeasonRanking is a season's ranking as it stands: the season with the
// tournaments counted (and excluded), and a row per player who played an
// evening counted. Provisional is set while an evening counted is finished
// but its results not yet published (a correction may still move it).
//
// The order: the ranked players first (under average_vp those with at
// least MinEvenings evenings; under the other schemes everyone), by
//  1. points (the scheme's: placing points, total VP or average VP), more first;
//  2. evenings won (placed first, a tie for first included), more first;
//  3. the best single evening (its points, or its VP), higher first;
//  4. evenings played, more first;
//
// players equal on all four share the place (1, 1, 3, ...) and are listed
// by name, then by player id. The unranked players follow in the same
// order, without a place.
type SeasonRanking struct {
	// Basis names what the ranking was computed from: the season's
	// settings, today (a season's current flag), its exclusions and the
	// counted tournaments' versions (seasonBasis).
	Basis         string
	Season        SeasonDetail
	Provisional   bool
	PlayersRanked int
	Rows          []SeasonRow
}

// SeasonRow is one player's line of a season ranking. Place is 0 for a
// player not ranked (average_vp, under the minimum evenings). Points is the
// scheme's value: placing points, total VP or average VP.
type SeasonRow struct {
	Place    int
	PlayerID int64
	Name     string
	Evenings int
	Points   float64
	Wins     int
	Best     float64
	Results  []SeasonResult
}

// SeasonResult is one evening of a player: the place of their entry in its
// standings among the entries that played, its VP and the points it
// scored under the scheme (the VP again, under the VP schemes).
type SeasonResult struct {
	TournamentID int64
	Place        int
	Entries      int
	VP           int
	Points       float64
}

// seasonEvening is a counted tournament's standings as the ranking needs
// them: the rows of the entries that played, with their players.
type seasonEvening struct {
	id      int64
	entries int
	rows    []eveningRow
}

type eveningRow struct {
	rank    int
	vp      int
	players []int64
}

// round2 rounds to hundredths, half away from zero.
func round2(x float64) float64 { return math.Round(x*100) / 100 }

// placingPoints is an entry's placing points at rank among entries.
func placingPoints(s Season, rank, entries int) float64 {
	p := float64(max(0, entries-s.PointsStep*(rank-1)))
	if s.ReferenceSize > 0 {
		return round2(p * float64(entries) / float64(s.ReferenceSize))
	}
	return p
}

// rankSeason is the rows of a season's ranking over its counted evenings
// (in order), players named by names.
func rankSeason(s Season, evenings []seasonEvening, names map[int64]string) []SeasonRow {
	byPlayer := map[int64]*SeasonRow{}
	var rows []*SeasonRow
	for _, ev := range evenings {
		for _, er := range ev.rows {
			res := SeasonResult{TournamentID: ev.id, Place: er.rank, Entries: ev.entries, VP: er.vp, Points: float64(er.vp)}
			if s.Scheme == SchemePlacingPoints {
				res.Points = placingPoints(s, er.rank, ev.entries)
			}
			for _, p := range er.players {
				r := byPlayer[p]
				if r == nil {
					r = &SeasonRow{PlayerID: p, Name: names[p]}
					byPlayer[p] = r
					rows = append(rows, r)
				}
				r.Results = append(r.Results, res)
			}
		}
	}
	out := make([]SeasonRow, len(rows))
	for i, r := range rows {
		total := 0.0
		for j, res := range r.Results {
			total += res.Points
			if j == 0 || res.Points > r.Best {
				r.Best = res.Points
			}
			if res.Place == 1 {
				r.Wins++
			}
		}
		r.Evenings = len(r.Results)
		r.Points = round2(total)
		if s.Scheme == SchemeAverageVP {
			r.Points = round2(total / float64(r.Evenings))
		}
		out[i] = *r
	}
	placeRows(s, out)
	return out
}

// ranked reports whether a row is ranked under the season's scheme.
func ranked(s Season, r SeasonRow) bool {
	return s.Scheme != SchemeAverageVP || r.Evenings >= s.MinEvenings
}

// sameMerit reports whether two rows are equal on every criterion that
// places them.
func sameMerit(a, b SeasonRow) bool {
	return a.Points == b.Points && a.Wins == b.Wins && a.Best == b.Best && a.Evenings == b.Evenings
}

// placeRows sorts the rows (see SeasonRanking) and gives the ranked ones
// their places.
func placeRows(s Season, rows []SeasonRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if ra, rb := ranked(s, a), ranked(s, b); ra != rb {
			return ra
		}
		switch {
		case a.Points != b.Points:
			return a.Points > b.Points
		case a.Wins != b.Wins:
			return a.Wins > b.Wins
		case a.Best != b.Best:
			return a.Best > b.Best
		case a.Evenings != b.Evenings:
			return a.Evenings > b.Evenings
		}
		if na, nb := strings.ToLower(a.Name), strings.ToLower(b.Name); na != nb {
			return na < nb
		}
		return a.PlayerID < b.PlayerID
	})
	for i := range rows {
		switch {
		case !ranked(s, rows[i]):
			rows[i].Place = 0
		case i > 0 && ranked(s, rows[i-1]) && sameMerit(rows[i-1], rows[i]):
			rows[i].Place = rows[i-1].Place
		default:
			rows[i].Place = i + 1
		}
	}
}
