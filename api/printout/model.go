package printout

import "time"

// Head is what every page and export starts with.
type Head struct {
	Tournament string
	Club       string
	// Generated is when the data was read (the caller's clock): a printed
	// sheet says how fresh it is.
	Generated time.Time
	// Version is the tournament's version the data was read at, printed
	// small so that two printouts can be told apart.
	Version int64
}

// Standings is the standings page and CSV.
type Standings struct {
	Head
	// Rounds is the number of rounds counted; Provisional is set while
	// scores of an open round are counted or results are not yet published.
	Rounds      int
	Provisional bool
	TieBreaks   []string // criterion codes, in order (vp, mp_difference, …)
	Rows        []StandingRow
	// Phase, when set, is the phase (from 1, of Phases, named PhaseName)
	// whose overall standings these are, and Group the group (A, B, …) they
	// rank alone: the title says so.
	Phase     int
	Phases    int
	PhaseName string
	Group     string
}

// StandingRow is one entry's line. AheadBy is the criterion code that put
// it ahead of the next row (empty when tied with it, or last).
type StandingRow struct {
	Rank      int
	Number    int
	Name      string
	Players   []string
	VP        int
	MPFor     int
	MPAgainst int
	MPDiff    int
	Played    int
	Byes      int
	PenaltyVP int
	PenaltyMP int
	AheadBy   string
}

// Seat is one side of a table: NS or EW for pairs and teams, N, S, E or W
// for individual events.
type Seat struct {
	Position string
	Number   int // the entry's number; 0 when none
	Names    []string
}

// TableCard is one table of a round as handed out: who sits where, and a
// blank score sheet.
type TableCard struct {
	Number int
	Seats  []Seat
}

// TableCards is the per-round table cards page.
type TableCards struct {
	Head
	Round int
	// Deals is the number of deals of the round; ExtraRows adds blank rows
	// for tie-break deals (knockout tables).
	Deals     int
	ExtraRows int
	Tables    []TableCard
	Byes      []string
}

// TableResult is one table's result in a round.
type TableResult struct {
	Number int
	NS, EW string
	MPNS   int
	MPEW   int
	VPNS   int
	VPEW   int
	// Done is false while the table's result is incomplete (provisional).
	Done bool
	// Note is a ruling shown beside the result (abandonment, time-out…),
	// already in the page's language or a proper name.
	Note string
}

// RoundResult is the results of one round.
type RoundResult struct {
	Number int
	Status string // pairings_published, playing, closed
	Tables []TableResult
	Byes   []string
}

// Results is the results page and the rounds CSV.
type Results struct {
	Head
	Rounds []RoundResult
}

// SheetLine is one side of one deal on a score sheet (the sheets CSV).
type SheetLine struct {
	Round    int
	Table    int
	Deal     int
	TieBreak bool
	Side     string // NS or EW
	Number   int
	Name     string
	Cards    int
	Burraco  int
	Closing  int
	Hand     int
	Pot      int
	Total    int
	Status   string // entered, confirmed
}

// Sheets is the score sheets CSV.
type Sheets struct {
	Head
	Lines []SheetLine
}

// Notice is the page a person gets instead of a printout that cannot be
// made (no such tournament, no round drawn yet, a wrong address): what is
// missing and what to do, never the API's JSON. Code is the API's stable
// problem code, printed small for whoever helps them.
type Notice struct {
	Head
	Title     string
	Message   string
	Todo      string
	Code      string
	RequestID string
}
