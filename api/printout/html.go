package printout

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"
)

//go:embed templates/*.html
var templateFS embed.FS

// pages is parsed once; each page template is executed with a page value.
var pages = template.Must(template.New("printout").Funcs(template.FuncMap{
	"w":    func(l Lang, key string) string { return l.word(key) },
	"crit": func(l Lang, code string) string { return l.word("crit_" + code) },
	"join": strings.Join,
	"dict": func(l Lang, title string) map[string]any { return map[string]any{"Lang": l, "Title": title} },
	"seq": func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = i + 1
		}
		return s
	},
	"after": afterRounds,
	"num":   number,
	"stamp": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
	"signed": func(n int) string {
		if n > 0 {
			return fmt.Sprintf("+%d", n)
		}
		return fmt.Sprint(n)
	},
}).ParseFS(templateFS, "templates/*.html"))

func afterRounds(l Lang, n int) string {
	if n == 1 {
		return l.word("after_round")
	}
	return fmt.Sprintf(l.word("after_rounds"), n)
}

// page is what every template gets: the language and the model.
type page struct {
	Lang Lang
	Data any
}

// RenderStandings writes the printable standings page.
func RenderStandings(w io.Writer, l Lang, s Standings) error {
	return pages.ExecuteTemplate(w, "standings.html", page{l, s})
}

// RenderTableCards writes a round's table cards, each with its seats and a
// blank score sheet, two to an A4 page.
func RenderTableCards(w io.Writer, l Lang, t TableCards) error {
	return pages.ExecuteTemplate(w, "tables.html", page{l, t})
}

// RenderResults writes the results of every round.
func RenderResults(w io.Writer, l Lang, r Results) error {
	return pages.ExecuteTemplate(w, "results.html", page{l, r})
}
