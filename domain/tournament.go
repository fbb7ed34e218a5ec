package domain

import (
	"context"
	"encoding/json"
	"time"

	"github.com/burraco/burraco/engine"
)

// RuleSet is the engine's rule set id (fibur, fibur-row, reale, aberto,
// fechado), named here so that the layers above the domain need not import
// the engine.
type RuleSet = engine.RuleSet

// TournamentStatus is where a tournament is in its life. It only moves
// forward, one step at a time: draft → published → running → finished.
type TournamentStatus string

// Tournament statuses.
const (
	TournamentDraft     TournamentStatus = "draft"     // being prepared; seen only by the club's admins
	TournamentPublished TournamentStatus = "published" // announced: public, rules frozen
	TournamentRunning   TournamentStatus = "running"   // being played
	TournamentFinished  TournamentStatus = "finished"  // over
)

// tournamentNext is the one status each status may move on to.
var tournamentNext = map[TournamentStatus]TournamentStatus{
	TournamentDraft:     TournamentPublished,
	TournamentPublished: TournamentRunning,
	TournamentRunning:   TournamentFinished,
}

// Valid reports whether s is one of the tournament statuses.
func (s TournamentStatus) Valid() bool {
	_, ok := tournamentNext[s]
	return ok || s == TournamentFinished
}

// Public reports whether anyone may see a tournament in this status.
func (s TournamentStatus) Public() bool { return s.Valid() && s != TournamentDraft }

// TournamentKind is the kind of event a tournament is (RULES §10): who
// plays together, and against whom.
type TournamentKind string

// Tournament kinds.
const (
	PairsTournament      TournamentKind = "pairs"      // fixed pairs (coppie)
	TeamsTournament      TournamentKind = "teams"      // a team fields pairs per match (squadre)
	IndividualTournament TournamentKind = "individual" // partners change each round
)

// Valid reports whether k is one of the tournament kinds.
func (k TournamentKind) Valid() bool {
	return k == PairsTournament || k == TeamsTournament || k == IndividualTournament
}

// Limits of a tournament's round.
const (
	DefaultDealsPerRound = 3 // smazzate per table per round, when not given
	MinDealsPerRound     = 1
	MaxDealsPerRound     = 8
)

// Tournament is an event of a club. What decides how its tables play (the
// rule set, the players per table and the options) is frozen once it leaves
// draft.
//
// Entries, rounds, pairings (movements), VP tables, standings and score
// sheets belong to a tournament; they are not part of this type.
type Tournament struct {
	ID          int64
	ClubID      int64
	ClubName    string
	Name        string
	Description string
	// Rules is the engine's rule set (fibur, fibur-row, reale, aberto,
	// fechado).
	Rules engine.RuleSet
	// Options is the complete options object of RULES §11 for the rule set:
	// the defaults with the organiser's choices over them, as
	// engine.ParseOptions reads it. It is the default of every table.
	Options         json.RawMessage
	PlayersPerTable int // 4 (two pairs) or 2
	Kind            TournamentKind
	DealsPerRound   int
	StartsAt        time.Time
	Status          TournamentStatus
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// TournamentInput creates a tournament (as a draft).
type TournamentInput struct {
	Name        string
	Description string
	Rules       engine.RuleSet
	// Options holds the options that differ from the rule set's defaults
	// (RULES §11 keys); nil or empty means the defaults.
	Options json.RawMessage
	// PlayersPerTable, DealsPerRound and StartsAt are nil when absent:
	// PlayersPerTable and StartsAt are then required, DealsPerRound is
	// DefaultDealsPerRound. A zero that was given is a value like any other,
	// and checked as such.
	PlayersPerTable *int
	Kind            TournamentKind
	DealsPerRound   *int
	StartsAt        *time.Time
}

// TournamentPatch updates a tournament; nil fields are left as they are.
// Rules, PlayersPerTable and Options may change only while the tournament is a
// draft. Options given replace the stored ones (over the rule set's
// defaults); a new rule set without Options resets them to its defaults.
type TournamentPatch struct {
	Name            *string
	Description     *string
	Rules           *engine.RuleSet
	Options         json.RawMessage // nil: unchanged
	PlayersPerTable *int
	Kind            *TournamentKind
	DealsPerRound   *int
	StartsAt        *time.Time
	Status          *TournamentStatus
}

// TournamentFilter filters and pages a tournament list.
type TournamentFilter struct {
	ClubID *int64           // only this club's tournaments
	Status TournamentStatus // empty: every status the caller may see
	Query  string           // substring of the name, ignoring case and accents
	Limit  int
	Offset int
}

// DraftScope says which drafts a tournament list may show besides the
// public tournaments: every draft (site admins), or those of the listed
// clubs (the ones the caller administers).
type DraftScope struct {
	All     bool
	ClubIDs []int64
}

// TournamentService manages tournaments. Authorisation: the admins and
// owners of the tournament's club, and site admins, create, update and
// delete it; a draft is visible only to them (to anyone else it does not
// exist: ENotFound); published, running and finished tournaments are public.
type TournamentService interface {
	// Create creates a draft tournament of a club. Errors:
	// EUnauthenticated, ENotFound (club), EForbidden, EInvalid (name,
	// description, rules, options, players_per_table, kind, deals_per_round,
	// starts_at; all of them at once).
	Create(ctx context.Context, actor Actor, clubID int64, in TournamentInput) (Tournament, error)
	// Get returns a tournament the actor may see. Errors: ENotFound (also
	// a draft the actor may not see).
	Get(ctx context.Context, actor Actor, id int64) (Tournament, error)
	// List returns the tournaments the actor may see, ordered by start time.
	// Errors: EInvalid (club_id, status, query, limit, offset).
	List(ctx context.Context, actor Actor, f TournamentFilter) (Page[Tournament], error)
	// Update changes a tournament. The status moves one step forward
	// (draft → published → running → finished) or stays; rules, players per table
	// and options change only while it is a draft. Errors:
	// EUnauthenticated, ENotFound, EForbidden, EInvalid, EConflict (a
	// status that does not move forward, or frozen fields).
	Update(ctx context.Context, actor Actor, id int64, p TournamentPatch) (Tournament, error)
	// Delete removes a draft tournament. Errors: EUnauthenticated,
	// ENotFound, EForbidden, EConflict (no longer a draft).
	Delete(ctx context.Context, actor Actor, id int64) error
}
