package tourney

import "github.com/burraco/burraco/domain/pairing"

// Actor is who gives a command, as the service knows them: the user, the
// player profiles they play as, whether they referee this tournament, and
// whether they direct it (an admin or owner of its club, or a site admin).
// A director may do everything a referee may.
type Actor struct {
	UserID   int64
	Players  []int64
	Referee  bool
	Director bool
	// Server is the server itself, writing an online table's play into
	// the tournament (OpenOnlineTables, RecordPlayedDeal); UserID is 0.
	Server bool
}

// staff reports whether the actor runs the tournament (referee or director).
func (a Actor) staff() bool { return a.Referee || a.Director }

// Command is one thing someone asks of a tournament. The set is closed: the
// types below are all of them; ParseCommand reads one from JSON by name.
type Command interface {
	// CommandName is the command's name in ParseCommand and in the API.
	CommandName() string
	decide(s *State, who Actor, rnd pairing.Rand) (payload, string, error)
}

// OpenRegistration opens registration (director; from draft, or from
// registration_closed to reopen it).
type OpenRegistration struct{}

// CloseRegistration closes registration: check-in time (director).
type CloseRegistration struct{}

// Start starts the tournament (referee or director; from
// registration_closed). When check-in was used (some entry checked in), the
// entries that did not check in are left out, recorded as absent.
type Start struct{}

// AddEntry enters a pair, team or player. A player may enter themself (they
// must be one of Players) while registration is open; a referee or director
// any time before the start, and while running up to the late-entry round.
// Players: 2 per pair at 4-player tables (1 at 2-player tables), TeamPairs
// pairs per team, 1 for an individual event. Number 0 takes the next free
// number; Seed 0 is unseeded (1 is the strongest; knockout seeding).
type AddEntry struct {
	Players []int64 `json:"players"`
	Name    string  `json:"name,omitempty"`
	Club    string  `json:"club,omitempty"`
	Number  int     `json:"number,omitempty"`
	Seed    int     `json:"seed,omitempty"`
	FeePaid bool    `json:"fee_paid,omitempty"`
}

// UpdateEntry changes an entry's name, club, number, seed or fee-paid flag;
// nil fields stay (referee or director, before the end).
type UpdateEntry struct {
	Entry   int64   `json:"entry"`
	Name    *string `json:"name,omitempty"`
	Club    *string `json:"club,omitempty"`
	Number  *int    `json:"number,omitempty"`
	Seed    *int    `json:"seed,omitempty"`
	FeePaid *bool   `json:"fee_paid,omitempty"`
}

// CheckIn marks an entry present (Undo: not present), by one of its players
// or the staff, before the start.
type CheckIn struct {
	Entry int64 `json:"entry"`
	Undo  bool  `json:"undo,omitempty"`
}

// Withdraw takes an entry out: before the start by one of its players or the
// staff, while running by the staff. It gets no more pairings; its table of
// the current round, when not yet complete, is forfeited: decided as an
// abandonment by it (RULES §10: it keeps at most the abandonment VP, the
// other side keeps what it scored or gets the rest score, as the set-up
// says).
type Withdraw struct {
	Entry  int64  `json:"entry"`
	Reason string `json:"reason,omitempty"`
}

// DrawRound publishes the pairings of round Round, the next one, by the
// movement (referee or director). The drawn round is recorded in the event,
// so a replay never draws again.
type DrawRound struct {
	Round int `json:"round"`
	// Groups are the groups of a phase whose groups are made by hand,
	// given when drawing its first round: entry numbers, one list per
	// group, A first (docs/PHASES.md). Any other draw takes none.
	Groups [][]int `json:"groups,omitempty"`
}

// OverridePairings sets a round by hand (referee or director, with a
// reason): the next round instead of a draw, or the current one while its
// pairings are published and no score is in. Pairs and teams give Tables
// (teams: one table per team match), individual events Foursomes; Byes the
// entries sitting out. Validated: every entry once, no forbidden pair, byes
// only as an odd field needs. Not for a knockout (its bracket decides).
type OverridePairings struct {
	Round     int                `json:"round"`
	Tables    []pairing.Table    `json:"tables,omitempty"`
	Foursomes []pairing.Foursome `json:"foursomes,omitempty"`
	Byes      []int64            `json:"byes,omitempty"`
	Reason    string             `json:"reason"`
	// Groups replace the computed groups when the round is a phase's
	// first (entry numbers, as DrawRound's); absent, the phase's own way
	// makes them.
	Groups [][]int `json:"groups,omitempty"`
}

// StartRound starts play of a round whose pairings are published.
type StartRound struct {
	Round int `json:"round"`
}

// Parts is one side's score of a deal, RULES §7a: Cards (melded card
// points), Burraco (burraco bonuses), Closing (100 or 0), Hand (cards left in
// hand, as a positive amount taken off), Pot (the pot penalty, 100 or 0,
// taken off) and Total = Cards + Burraco + Closing − Hand − Pot (rounded up
// to a multiple of 10 under round_up_10). All are multiples of 5.
type Parts struct {
	Cards   int `json:"cards"`
	Burraco int `json:"burraco"`
	Closing int `json:"closing"`
	Hand    int `json:"hand"`
	Pot     int `json:"pot"`
	Total   int `json:"total"`
}

// DealInput is one deal of a score sheet as entered: its number (1 is the
// first deal of the table) and both sides' parts. TimeOut marks a deal ended
// by the referee (no closing); only a ruling or a correction sets it.
type DealInput struct {
	Number  int   `json:"number"`
	NS      Parts `json:"ns"`
	EW      Parts `json:"ew"`
	TimeOut bool  `json:"time_out,omitempty"`
}

// EnterScore enters deals of a table's sheet: the next deals, or deals
// entered but not yet confirmed again. By the staff (confirmed at once) or by
// a player seated at the table (entered, for an opponent or the staff to
// confirm). Version is the sheet's version the client saw.
type EnterScore struct {
	Round   int         `json:"round"`
	Table   int         `json:"table"`
	Version int64       `json:"version"`
	Deals   []DealInput `json:"deals"`
}

// ConfirmScore confirms entered deals (Deals empty: all of them), by an
// opponent of the side that entered them, or the staff.
type ConfirmScore struct {
	Round   int   `json:"round"`
	Table   int   `json:"table"`
	Version int64 `json:"version"`
	Deals   []int `json:"deals,omitempty"`
}

// CorrectScore replaces a deal already on the sheet (referee or director,
// with a reason), in a round being played or closed, while the results are
// not published. VP and standings follow; Danish pairings published on them
// and not yet played are drawn again (see ScoreCorrected).
type CorrectScore struct {
	Round   int       `json:"round"`
	Table   int       `json:"table"`
	Version int64     `json:"version"`
	Deal    DealInput `json:"deal"`
	Reason  string    `json:"reason"`
}

// Ruling kinds.
const (
	RulingTimeOut     = "time_out"     // the table's time is up: the deal in play (Deal) as it stands, no closing; no more deals
	RulingAbandonment = "abandonment"  // Entry left the table (RULES §10 abandonment)
	RulingBye         = "bye"          // Entry did not turn up: the others score a bye, it scores nothing
	RulingLateArrival = "late_arrival" // Entry came late: the table plays Deals deals
	rulingWithdrawal  = "withdrawal"   // a table decided by a withdrawal (not a command)
)

// Ruling is a referee's decision at a table of a round being played.
// Version, when not 0, is checked as a sheet version.
type Ruling struct {
	Round   int        `json:"round"`
	Table   int        `json:"table"`
	Version int64      `json:"version,omitempty"`
	Kind    string     `json:"kind"`
	Entry   int64      `json:"entry,omitempty"`
	Deal    *DealInput `json:"deal,omitempty"`
	Deals   int        `json:"deals,omitempty"`
	Reason  string     `json:"reason,omitempty"`
}

// Penalty takes VP and/or MP (positive amounts) from an entry, with a
// reason (referee or director). Round 0 is a penalty of the event.
type Penalty struct {
	Round  int    `json:"round,omitempty"`
	Entry  int64  `json:"entry"`
	VP     int    `json:"vp,omitempty"`
	MP     int    `json:"mp,omitempty"`
	Reason string `json:"reason"`
}

// CloseRound closes a round being played: every table has its result, all
// deals confirmed, or a ruling decided it.
type CloseRound struct {
	Round int `json:"round"`
}

// ReopenRound reopens the latest round, closed, for play again (referee or
// director, with a reason).
type ReopenRound struct {
	Round  int    `json:"round"`
	Reason string `json:"reason"`
}

// Finish ends a running tournament whose rounds are all closed.
type Finish struct{}

// PublishResults publishes the results of a finished tournament (director).
type PublishResults struct{}

// Cancel cancels the tournament, from any status before finished, with a
// reason (director).
type Cancel struct {
	Reason string `json:"reason"`
}

// SetForbidden sets the pairs of entries the referee keeps apart (it
// replaces the list). Mitchell and round robin keep the list they started
// with: their schedule is fixed at the start.
type SetForbidden struct {
	Pairs  [][2]int64 `json:"pairs"`
	Reason string     `json:"reason,omitempty"`
}

// Names of the commands.
func (OpenRegistration) CommandName() string  { return "open_registration" }
func (CloseRegistration) CommandName() string { return "close_registration" }
func (Start) CommandName() string             { return "start" }
func (AddEntry) CommandName() string          { return "add_entry" }
func (UpdateEntry) CommandName() string       { return "update_entry" }
func (CheckIn) CommandName() string           { return "check_in" }
func (Withdraw) CommandName() string          { return "withdraw" }
func (DrawRound) CommandName() string         { return "draw_round" }
func (OverridePairings) CommandName() string  { return "override_pairings" }
func (StartRound) CommandName() string        { return "start_round" }
func (EnterScore) CommandName() string        { return "enter_score" }
func (ConfirmScore) CommandName() string      { return "confirm_score" }
func (CorrectScore) CommandName() string      { return "correct_score" }
func (Ruling) CommandName() string            { return "ruling" }
func (Penalty) CommandName() string           { return "penalty" }
func (CloseRound) CommandName() string        { return "close_round" }
func (ReopenRound) CommandName() string       { return "reopen_round" }
func (Finish) CommandName() string            { return "finish" }
func (PublishResults) CommandName() string    { return "publish_results" }
func (Cancel) CommandName() string            { return "cancel" }
func (SetForbidden) CommandName() string      { return "set_forbidden" }
