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
		"season_ranking": "Season ranking", "player": "Player", "evenings": "Evenings", "wins": "Won", "best": "Best",
		"evenings_counted":      "evenings counted",
		"scheme_placing_points": "placing points", "scheme_total_vp": "total VP", "scheme_average_vp": "average VP",
		"points_placing_points": "Points", "points_total_vp": "VP", "points_average_vp": "VP per evening",
		"no_evenings":                   "No evening counts yet.",
		"no_evenings_todo":              "The ranking fills in as the club's tournaments within the season's dates finish; open this page again then.",
		"notice_season_not_found_title": "Season not found",
		"notice_season_not_found":       "This club has no such season.",
		"notice_season_not_found_todo":  "Check the club's and the season's numbers in the address: the club's seasons are listed at /api/v1/clubs/CLUB/seasons.",
		"prizes":                        "Prizes", "prizes_from_final": "from the final standings", "category": "category", "place": "Place",
		"no_winners":                       "No entry qualifies for this prize.",
		"no_prizes":                        "This tournament has no prize list.",
		"no_prizes_todo":                   "The directors give the prize list on the tournament's set-up, before it starts.",
		"notice_standings_not_final_title": "Standings not final yet",
		"notice_standings_not_final":       "The prizes are given from the final standings, and these are still provisional.",
		"notice_standings_not_final_todo":  "Open this page again once the tournament is finished and every table's score is final.",
		"standings":                        "Standings", "provisional": "Provisional", "final": "Final",
		"group": "Group", "phase_of": "Phase %d of %d", "carried_in": "the VP carried into the phase included",
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
		"no_entries":      "No entry has registered yet.",
		"no_entries_todo": "The standings fill in as entries are added and rounds are played; open this page again then.",
		"no_results":      "No round has been drawn yet, so there are no results.",
		"no_results_todo": "Each round's results appear here once the director draws it and the tables enter their scores. The standings page lists the entries meanwhile.",
		"code":            "Code", "request": "request",
		"scroll_hint": "Scroll the table sideways to see every column →", "sheet": "Score sheet",
		"notice_not_found_title":           "Tournament not found",
		"notice_not_found":                 "There is no such tournament, or it is a draft you may not see.",
		"notice_not_found_todo":            "Check the tournament number in the address. A draft becomes visible to everyone when its registration opens; its directors see it in the director console.",
		"notice_round_not_found_title":     "No table cards yet",
		"notice_round_not_found":           "This round has not been drawn, so there are no tables to print.",
		"notice_round_not_found_todo":      "Draw the round in the director console (Rounds, then Draw the next round), then open this page again. Without ?round= the latest round drawn is printed.",
		"notice_invalid_parameter_title":   "Wrong address",
		"notice_invalid_parameter":         "A number or the language in the address is not valid.",
		"notice_invalid_parameter_todo":    "Use a positive number for the tournament and the round, and lang=it or lang=en (or no lang at all).",
		"notice_timeout_title":             "The server is busy",
		"notice_timeout":                   "The page could not be made in time.",
		"notice_timeout_todo":              "Reload the page in a moment.",
		"notice_service_unavailable_title": "The server is busy",
		"notice_service_unavailable":       "The page could not be made right now.",
		"notice_service_unavailable_todo":  "Reload the page in a moment.",
		"notice_error_title":               "This page cannot be printed",
		"notice_error":                     "The server could not make this page.",
		"notice_error_todo":                "Reload the page; if it happens again, tell the club and quote the code below.",
	},
	Italian: {
		"season_ranking": "Classifica della stagione", "player": "Giocatore", "evenings": "Serate", "wins": "Vinte", "best": "Migliore",
		"evenings_counted":      "serate contate",
		"scheme_placing_points": "punti per piazzamento", "scheme_total_vp": "VP totali", "scheme_average_vp": "media VP",
		"points_placing_points": "Punti", "points_total_vp": "VP", "points_average_vp": "VP per serata",
		"no_evenings":                   "Non conta ancora nessuna serata.",
		"no_evenings_todo":              "La classifica si riempie man mano che finiscono i tornei del circolo nelle date della stagione: riapri questa pagina più tardi.",
		"notice_season_not_found_title": "Stagione non trovata",
		"notice_season_not_found":       "Questo circolo non ha questa stagione.",
		"notice_season_not_found_todo":  "Controlla i numeri del circolo e della stagione nell'indirizzo: le stagioni del circolo sono elencate in /api/v1/clubs/CIRCOLO/seasons.",
		"prizes":                        "Premi", "prizes_from_final": "dalla classifica finale", "category": "categoria", "place": "Premio",
		"no_winners":                       "Nessun iscritto ha diritto a questo premio.",
		"no_prizes":                        "Questo torneo non ha un elenco dei premi.",
		"no_prizes_todo":                   "I direttori danno l'elenco dei premi nell'impostazione del torneo, prima che inizi.",
		"notice_standings_not_final_title": "Classifica non ancora finale",
		"notice_standings_not_final":       "I premi si assegnano dalla classifica finale, che è ancora provvisoria.",
		"notice_standings_not_final_todo":  "Riapri questa pagina quando il torneo è finito e il punteggio di ogni tavolo è definitivo.",
		"standings":                        "Classifica", "provisional": "Provvisoria", "final": "Finale",
		"group": "Girone", "phase_of": "Fase %d di %d", "carried_in": "compresi i VP portati nella fase",
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
		"no_entries":      "Non si è ancora iscritto nessuno.",
		"no_entries_todo": "La classifica si riempie man mano che si aggiungono gli iscritti e si giocano i turni: riapri questa pagina più tardi.",
		"no_results":      "Non è ancora stato sorteggiato nessun turno, quindi non ci sono risultati.",
		"no_results_todo": "I risultati di ogni turno compaiono qui quando il direttore lo sorteggia e i tavoli inseriscono i punteggi. Nel frattempo la pagina della classifica elenca gli iscritti.",
		"code":            "Codice", "request": "richiesta",
		"scroll_hint": "Scorri la tabella di lato per vedere tutte le colonne →", "sheet": "Segnapunti",
		"notice_not_found_title":           "Torneo non trovato",
		"notice_not_found":                 "Questo torneo non esiste, oppure è una bozza che non puoi vedere.",
		"notice_not_found_todo":            "Controlla il numero del torneo nell'indirizzo. Una bozza diventa visibile a tutti quando si aprono le iscrizioni; i suoi direttori la vedono nella console del direttore.",
		"notice_round_not_found_title":     "Ancora nessun cartellino",
		"notice_round_not_found":           "Questo turno non è stato sorteggiato, quindi non ci sono tavoli da stampare.",
		"notice_round_not_found_todo":      "Sorteggia il turno nella console del direttore (Turni, poi Sorteggia il prossimo turno) e riapri questa pagina. Senza ?round= si stampa l'ultimo turno sorteggiato.",
		"notice_invalid_parameter_title":   "Indirizzo sbagliato",
		"notice_invalid_parameter":         "Un numero o la lingua nell'indirizzo non sono validi.",
		"notice_invalid_parameter_todo":    "Usa un numero positivo per il torneo e il turno, e lang=it o lang=en (o nessuna lingua).",
		"notice_timeout_title":             "Il server è occupato",
		"notice_timeout":                   "La pagina non è stata preparata in tempo.",
		"notice_timeout_todo":              "Ricarica la pagina tra un momento.",
		"notice_service_unavailable_title": "Il server è occupato",
		"notice_service_unavailable":       "La pagina non può essere preparata ora.",
		"notice_service_unavailable_todo":  "Ricarica la pagina tra un momento.",
		"notice_error_title":               "Questa pagina non si può stampare",
		"notice_error":                     "Il server non è riuscito a preparare questa pagina.",
		"notice_error_todo":                "Ricarica la pagina; se succede ancora, avvisa il circolo citando il codice qui sotto.",
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
