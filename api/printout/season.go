package printout

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"
)

// SeasonRanking is a club's season ranking (la classifica del circolo),
// the page and the CSV.
type SeasonRanking struct {
	Club   string
	Season string
	// Scheme is the scheme's code: placing_points, total_vp, average_vp.
	Scheme      string
	StartsOn    string
	EndsOn      string
	Generated   time.Time
	Provisional bool
	// Evenings are the tournaments counted, by start time: their ids
	// head the CSV's columns of points per evening.
	Evenings []int64
	Rows     []SeasonRankingRow
}

// SeasonRankingRow is one player's line. Place is 0 for a player not
// ranked; Results holds the points of each of SeasonRanking.Evenings the
// player played, by tournament id.
type SeasonRankingRow struct {
	Place    int
	PlayerID int64
	Name     string
	Evenings int
	Points   float64
	Wins     int
	Best     float64
	Results  map[int64]float64
}

// RenderSeasonRanking writes the printable season ranking.
func RenderSeasonRanking(w io.Writer, l Lang, s SeasonRanking) error {
	return pages.ExecuteTemplate(w, "ranking.html", page{l, s})
}

// number writes a ranking's points: hundredths only when there are any,
// with the language's decimal mark.
func number(l Lang, x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if l == Italian {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// WriteSeasonRankingCSV writes the ranking, one row per player: place
// (empty when not ranked), player id, name, evenings, points, wins, best,
// then one column per evening counted (tournament_ID: the points it
// scored the player, empty when they did not play it).
func WriteSeasonRankingCSV(w io.Writer, s SeasonRanking) error {
	c := csv.NewWriter(w)
	head := []string{"place", "player_id", "name", "evenings", "points", "wins", "best", "scheme", "provisional"}
	for _, id := range s.Evenings {
		head = append(head, "tournament_"+strconv.FormatInt(id, 10))
	}
	_ = c.Write(head)
	for _, r := range s.Rows {
		place := ""
		if r.Place > 0 {
			place = itoa(r.Place)
		}
		line := []string{place, strconv.FormatInt(r.PlayerID, 10), cell(r.Name), itoa(r.Evenings), number(English, r.Points),
			itoa(r.Wins), number(English, r.Best), s.Scheme, strconv.FormatBool(s.Provisional)}
		for _, id := range s.Evenings {
			x, ok := r.Results[id]
			if !ok {
				line = append(line, "")
				continue
			}
			line = append(line, number(English, x))
		}
		_ = c.Write(line)
	}
	c.Flush()
	return c.Error()
}

// NewSeasonNotice is NewNotice for a season's page: a season that is not
// there is named as such.
func NewSeasonNotice(l Lang, code string) Notice {
	if code != "not_found" {
		return NewNotice(l, code)
	}
	key := "notice_season_not_found"
	return Notice{Title: l.word(key + "_title"), Message: l.word(key), Todo: l.word(key + "_todo"), Code: code}
}
