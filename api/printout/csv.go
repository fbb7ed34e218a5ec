package printout

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// The CSV exports are for spreadsheets: a header row of stable English
// column names (so a director's macros keep working whatever the language
// of the pages), one row per line, RFC 4180 quoting.

// WriteStandingsCSV writes the standings, one row per entry.
func WriteStandingsCSV(w io.Writer, s Standings) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"rank", "number", "entry", "players", "vp", "mp_for", "mp_against", "mp_difference",
		"played", "byes", "penalty_vp", "penalty_mp", "ahead_by", "provisional"})
	for _, r := range s.Rows {
		_ = c.Write([]string{itoa(r.Rank), itoa(r.Number), cell(r.Name), cell(strings.Join(r.Players, "; ")),
			itoa(r.VP), itoa(r.MPFor), itoa(r.MPAgainst), itoa(r.MPDiff), itoa(r.Played), itoa(r.Byes),
			itoa(r.PenaltyVP), itoa(r.PenaltyMP), r.AheadBy, strconv.FormatBool(s.Provisional)})
	}
	c.Flush()
	return c.Error()
}

// WriteRoundsCSV writes every table of every round with its MP and VP,
// and every bye.
func WriteRoundsCSV(w io.Writer, r Results) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"round", "round_status", "table", "ns", "ew", "mp_ns", "mp_ew", "vp_ns", "vp_ew", "complete", "note"})
	for _, rd := range r.Rounds {
		for _, t := range rd.Tables {
			_ = c.Write([]string{itoa(rd.Number), rd.Status, itoa(t.Number), cell(t.NS), cell(t.EW),
				itoa(t.MPNS), itoa(t.MPEW), itoa(t.VPNS), itoa(t.VPEW), strconv.FormatBool(t.Done), cell(t.Note)})
		}
		for _, b := range rd.Byes {
			_ = c.Write([]string{itoa(rd.Number), rd.Status, "", cell(b), "", "", "", "", "", "true", "bye"})
		}
	}
	c.Flush()
	return c.Error()
}

// WriteSheetsCSV writes every side of every deal entered.
func WriteSheetsCSV(w io.Writer, s Sheets) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"round", "table", "deal", "tie_break", "side", "number", "entry",
		"cards", "burraco", "closing", "hand", "pot", "total", "status"})
	for _, l := range s.Lines {
		_ = c.Write([]string{itoa(l.Round), itoa(l.Table), itoa(l.Deal), strconv.FormatBool(l.TieBreak), l.Side,
			itoa(l.Number), cell(l.Name), itoa(l.Cards), itoa(l.Burraco), itoa(l.Closing), itoa(l.Hand),
			itoa(l.Pot), itoa(l.Total), l.Status})
	}
	c.Flush()
	return c.Error()
}

func itoa(n int) string { return strconv.Itoa(n) }

// cell guards a user-given text against formula injection: a spreadsheet
// runs a cell starting with = + - @ (or a tab or carriage return before
// one) as a formula, so such a cell gets a leading apostrophe, which the
// spreadsheet shows as text (OWASP's advice for CSV exports).
func cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// FederationRow is one player's line of a federation's upload.
type FederationRow struct {
	FederationID string
	Player       string
	Number       int
	Entry        string
	Place        int // 0: not ranked
	VP, MPFor    int
	MPAgainst    int
	MPDiff       int
	Played       int
	Withdrawn    bool
	Tournament   string
	Club         string
	Date         string // YYYY-MM-DD, UTC
	Status       string
}

// WriteFederationCSV writes one row per player (docs/RESULTS-FORMAT.md
// names the columns).
func WriteFederationCSV(w io.Writer, rows []FederationRow) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"federation_id", "player", "entry_number", "entry", "place", "vp", "mp_for", "mp_against",
		"mp_difference", "rounds_played", "withdrawn", "tournament", "club", "date", "status"})
	for _, r := range rows {
		place := ""
		if r.Place > 0 {
			place = itoa(r.Place)
		}
		_ = c.Write([]string{cell(r.FederationID), cell(r.Player), itoa(r.Number), cell(r.Entry), place, itoa(r.VP),
			itoa(r.MPFor), itoa(r.MPAgainst), itoa(r.MPDiff), itoa(r.Played), strconv.FormatBool(r.Withdrawn),
			cell(r.Tournament), cell(r.Club), r.Date, r.Status})
	}
	c.Flush()
	return c.Error()
}
