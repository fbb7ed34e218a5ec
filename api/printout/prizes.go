package printout

import (
	"encoding/csv"
	"io"
	"strings"
)

// Prizes is the prize list page and CSV (issue 32): the awards in the
// order they were given, from the final standings.
type Prizes struct {
	Head
	Awards []PrizeAward
}

// PrizeAward is one prize and its winners, best first.
type PrizeAward struct {
	Name     string
	Category string // "" for an overall prize
	Places   int
	Winners  []PrizeWinner
}

// PrizeWinner is an entry that won a place of a prize.
type PrizeWinner struct {
	Place   int
	Rank    int
	Number  int
	Name    string
	Players []string
}

// RenderPrizes writes the printable prize list.
func RenderPrizes(w io.Writer, l Lang, p Prizes) error {
	return pages.ExecuteTemplate(w, "prizes.html", page{l, p})
}

// WritePrizesCSV writes the prize list, one row per place won.
func WritePrizesCSV(w io.Writer, p Prizes) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"prize", "category", "place", "rank", "number", "entry", "players"})
	for _, a := range p.Awards {
		for _, win := range a.Winners {
			_ = c.Write([]string{cell(a.Name), a.Category, itoa(win.Place), itoa(win.Rank), itoa(win.Number),
				cell(win.Name), cell(strings.Join(win.Players, "; "))})
		}
	}
	c.Flush()
	return c.Error()
}
