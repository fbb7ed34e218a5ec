package printout

import (
	"strings"

	"golang.org/x/text/language"
)

// Lang is a page's language.
type Lang string

// The languages of the printouts.
const (
	English Lang = "en"
	Italian Lang = "it"
)

var matcher = language.NewMatcher([]language.Tag{language.English, language.Italian})

// LangFor chooses the language: the query's lang when it names one we
// have, else the best match of the Accept-Language header, else English.
// ok is false when query is set but names no language we have, so the API
// can refuse it instead of guessing.
func LangFor(query, acceptLanguage string) (l Lang, ok bool) {
	if query != "" {
		switch strings.ToLower(query) {
		case "it", "it-it", "ita", "italiano":
			return Italian, true
		case "en", "en-gb", "en-us", "eng", "english":
			return English, true
		}
		return English, false
	}
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return English, true
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No || i == 0 {
		return English, true
	}
	return Italian, true
}

// words are the fixed texts of the pages, by language.
var words = map[Lang]map[string]string{
	English: {
		"standings": "Standings", "provisional": "Provisional", "final": "Final",
		"after_rounds": "after %d rounds", "after_round": "after 1 round",
		"rank": "Rank", "no": "No.", "entry": "Entry", "players": "Players",
		"vp": "VP", "mp_for": "MP for", "mp_against": "MP against", "mp_diff": "MP diff.",
		"played": "Played", "byes": "Byes", "penalties": "Penalties", "ahead_by": "Ahead by",
		"tie_breaks": "Tie-breaks", "generated": "Printed", "version": "version",
		"round": "Round", "table": "Table", "tables": "Table cards", "deal": "Deal",
		"tie_break_deal": "Tie-break", "cards": "Cards", "burraco": "Burraco", "closing": "Closing",
		"hand": "Hand", "pot": "Pot", "total": "Total", "signature": "Signature",
		"referee": "Referee", "bye": "Rest", "results": "Results", "incomplete": "incomplete",
		"status_pairings_published": "pairings published", "status_playing": "playing",
		"status_closed": "closed", "running_total": "Running total",
		"crit_vp": "VP", "crit_mp_difference": "MP difference", "crit_mp_for": "MP for",
		"crit_head_to_head": "head-to-head", "crit_opponents_vp": "opponents' VP", "crit_lots": "lots",
	},
	Italian: {
		"standings": "Classifica", "provisional": "Provvisoria", "final": "Finale",
		"after_rounds": "dopo %d turni", "after_round": "dopo 1 turno",
		"rank": "Pos.", "no": "N.", "entry": "Iscritto", "players": "Giocatori",
		"vp": "VP", "mp_for": "MP fatti", "mp_against": "MP subiti", "mp_diff": "Diff. MP",
		"played": "Giocati", "byes": "Riposi", "penalties": "Penalità", "ahead_by": "Davanti per",
		"tie_breaks": "Spareggi", "generated": "Stampato", "version": "versione",
		"round": "Turno", "table": "Tavolo", "tables": "Cartellini dei tavoli", "deal": "Smazzata",
		"tie_break_deal": "Spareggio", "cards": "Carte", "burraco": "Burraco", "closing": "Chiusura",
		"hand": "Mano", "pot": "Pozzetto", "total": "Totale", "signature": "Firma",
		"referee": "Arbitro", "bye": "Riposo", "results": "Risultati", "incomplete": "incompleto",
		"status_pairings_published": "abbinamenti pubblicati", "status_playing": "in gioco",
		"status_closed": "chiuso", "running_total": "Progressivo",
		"crit_vp": "VP", "crit_mp_difference": "differenza MP", "crit_mp_for": "MP fatti",
		"crit_head_to_head": "scontro diretto", "crit_opponents_vp": "VP degli avversari", "crit_lots": "sorteggio",
	},
}

// word is the text of key in l; the key itself when missing (a test
// checks that both languages have every key).
func (l Lang) word(key string) string {
	if w, ok := words[l][key]; ok {
		return w
	}
	return key
}
