// Package printout renders a tournament for paper and spreadsheets: the
// printable HTML pages a tournament director hands out or pins up
// (standings, per-round table cards with seats and blank score sheets,
// round results), laid out for A4, in Italian or English, and the CSV
// exports (standings, rounds, score sheets).
//
// It knows nothing of HTTP, the database or the tournament's rules: the API
// fills the plain models of this package (Standings, TableCards, Results,
// Sheets) from the tournament's state and writes what Render and the CSV
// functions produce. Names come from users, so every page is written with
// html/template (contextual escaping) and every CSV cell that a spreadsheet
// would read as a formula is quoted (see csvCell).
//
// Language: Lang picks the words; LangFor chooses it from a ?lang= value
// and an Accept-Language header, Italian or English, English by default.
package printout
