package domain

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/domain/vp"
	"github.com/burraco/burraco/engine"
)

// TournamentStatus is where a tournament is in its life (issue 8): draft →
// registration open → registration closed (check-in) → running → finished →
// results published; cancelled (with a reason) from any status before
// finished. The status moves only by the lifecycle's actions, each an event
// of the tournament's log; the status column mirrors the log.
type TournamentStatus string

// Tournament statuses.
const (
	TournamentDraft              TournamentStatus = "draft"               // being prepared; seen only by the club's admins
	TournamentRegistrationOpen   TournamentStatus = "registration_open"   // announced: public, entries accepted
	TournamentRegistrationClosed TournamentStatus = "registration_closed" // check-in
	TournamentRunning            TournamentStatus = "running"             // being played, round by round
	TournamentFinished           TournamentStatus = "finished"            // every round closed; results not yet final
	TournamentResultsPublished   TournamentStatus = "results_published"   // the final standings
	TournamentCancelled          TournamentStatus = "cancelled"           // called off, with a reason
)

// TournamentStatuses lists the statuses in the order of the lifecycle.
var TournamentStatuses = []TournamentStatus{TournamentDraft, TournamentRegistrationOpen, TournamentRegistrationClosed,
	TournamentRunning, TournamentFinished, TournamentResultsPublished, TournamentCancelled}

// Valid reports whether s is one of the tournament statuses.
func (s TournamentStatus) Valid() bool { return slices.Contains(TournamentStatuses, s) }

// SetupEditable reports whether the set-up (movement, rounds, VP table, ...)
// may still change: until the tournament runs.
func (s TournamentStatus) SetupEditable() bool {
	return s == TournamentDraft || s == TournamentRegistrationOpen || s == TournamentRegistrationClosed
}

// statusList is the statuses for messages: "draft, registration_open, ...".
func statusList() string {
	names := make([]string, len(TournamentStatuses))
	for i, s := range TournamentStatuses {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

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

// Limits of a tournament's round: a table plays 2, 3 or 4 deals (smazzate)
// per round (RULES §10).
const (
	DefaultDealsPerRound = 3 // when not given
	MinDealsPerRound     = tourney.MinDealsPerRound
	MaxDealsPerRound     = tourney.MaxDealsPerRound
)

// Tournament is an event of a club. What decides how its tables play and
// who enters (the rule set, the players per table, the options, the kind and
// the pairs of a team) is frozen once it leaves draft; the rest of the
// set-up (TournamentSetup) once it runs.
//
// Entries, rounds, pairings, score sheets and standings are the fold of the
// tournament's event log (TournamentEventRepo); they are not part of this
// type.
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
	TournamentSetup
	// LotsSeed is the seed of the tournament's draw of lots (the last
	// tie-break), drawn from the injected random source at creation and
	// never shown before the standings are: nobody can know the lots
	// ahead.
	LotsSeed uint64
	// CancelReason says why a cancelled tournament was called off.
	CancelReason string
	// OpenedAt is when the tournament first left draft: from then on it is
	// public (also once cancelled); nil for a draft, and for a draft that
	// was cancelled before it opened, which stays hidden.
	OpenedAt *time.Time
	// Version is the sequence number of the last event of its log (0: no
	// event yet).
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Public reports whether anyone may see the tournament: once it has left
// draft.
func (t Tournament) Public() bool { return t.OpenedAt != nil }

// TournamentSetup is how a tournament is played beyond the rules of its
// tables. The part the tournament's log is folded under is tourney.Setup,
// one type from the request to the fold, validated in one place
// (tourney.Setup.Problems); what only the services use goes beside it.
type TournamentSetup struct {
	tourney.Setup
	// Played is where the rounds are played (issue 17): live (score
	// sheets entered by hand; "" reads as live) or online (at online
	// tables, under Online, which is then set).
	Played Played
	Online *OnlineSettings
	// Prizes is the prize list (issue 32), nil for none.
	Prizes []Prize
}

// VPTableInForce is the table that converts the tournament's MP: its own,
// or RULES §10's built-in one for its deals per round (3 or 4 deals, pairs
// and individual events); ok is false when there is neither.
func (t Tournament) VPTableInForce() (table vp.Table, ok bool) {
	return t.Setup.VPTableInForce(string(t.Kind), t.DealsPerRound)
}

// Movement is how a tournament's entries are paired round after round
// (RULES §10; package pairing).
type Movement = tourney.Movement

// Movements.
const (
	MovementMitchell       = tourney.Mitchell
	MovementDanish         = tourney.Danish
	MovementModifiedDanish = tourney.ModifiedDanish
	MovementRoundRobin     = tourney.RoundRobin
	MovementRandom         = tourney.Random
	MovementKnockout       = tourney.Knockout
)

// Movements lists the movements.
var Movements = tourney.Movements

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
	// Setup holds the set-up the organiser chose; absent fields take their
	// defaults (DefaultSetup).
	Setup SetupInput
}

// SetupInput chooses set-up fields; nil fields are absent.
type SetupInput struct {
	Movement             *Movement
	Rounds               *int
	MitchellStep         *int
	TargetScore          *int
	VPTable              *vp.Table // the organiser's own table
	BuiltinVPTable       bool      // patch only: back to the built-in table (with VPTable nil)
	TieBreaks            []standings.Criterion
	RestVP, RestMP       *int
	AbandonVP            *int
	RemainingGetsRest    *bool
	ForbidSameClub       *bool
	AvoidRepeatOpponents *bool
	LateEntryRound       *int
	TeamPairs            *int
	// Played moves the tournament between live and online play; Online
	// replaces the online settings (absent fields take their defaults).
	Played *Played
	Online *OnlineSettings
	// Prizes replaces the prize list (an empty list clears it).
	Prizes *[]Prize
	// Phases replaces the phases (docs/PHASES.md; an empty list: one
	// phase again). With phases, the movement, rounds, Mitchell step and
	// VP table follow them (tourney.Setup.MirrorPhases).
	Phases *[]tourney.Phase
}

// DefaultMovement is the movement of a new pairs or teams tournament when
// none is given. The set-up's other defaults and its limits are tourney's,
// which validates it.
const DefaultMovement = MovementModifiedDanish

// TournamentPatch updates a tournament; nil fields are left as they are.
// Rules, PlayersPerTable, Options, Kind and the team pairs may change only
// while the tournament is a draft, the rest of the set-up until it runs.
// Options given replace the stored ones (over the rule set's defaults); a
// new rule set without Options resets them to its defaults. Status cannot
// change here: only the current status is accepted (the lifecycle moves by
// its actions).
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
	Setup           SetupInput
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
// clubs (the ones the caller administers) and those RefereeUserID (when not
// 0) is assigned to referee while holding the referee role or higher in its
// club.
type DraftScope struct {
	All           bool
	ClubIDs       []int64
	RefereeUserID int64
}

// TournamentService manages tournaments. Authorisation: the admins and
// owners of the tournament's club, and site admins, create, update and
// delete it and assign its referees; a draft is visible only to them and
// to its assigned referees, who prepare it (to anyone else it does not
// exist: ENotFound); a tournament that has left draft is public, also once
// cancelled.
type TournamentService interface {
	// Create creates a draft tournament of a club, with a fresh secret
	// lots seed. Errors: EUnauthenticated, ENotFound (club), EForbidden,
	// EInvalid (name, description, rules, options, players_per_table, kind,
	// deals_per_round, starts_at and the set-up fields; all of them at
	// once).
	Create(ctx context.Context, actor Actor, clubID int64, in TournamentInput) (Tournament, error)
	// Get returns a tournament the actor may see. Errors: ENotFound (also
	// a draft the actor may not see).
	Get(ctx context.Context, actor Actor, id int64) (Tournament, error)
	// List returns the tournaments the actor may see, ordered by start time.
	// Errors: EInvalid (club_id, status, query, limit, offset).
	List(ctx context.Context, actor Actor, f TournamentFilter) (Page[Tournament], error)
	// Update changes a tournament. Rules, players per table, options, kind
	// and team pairs change only while it is a draft, the rest of the
	// set-up until it runs; name, description and start any time. The
	// status does not change here. Errors: EUnauthenticated, ENotFound,
	// EForbidden, EInvalid (every bad field; a status other than the
	// current one is status:lifecycle_action), EConflict (frozen fields).
	Update(ctx context.Context, actor Actor, id int64, p TournamentPatch) (Tournament, error)
	// Delete removes a draft tournament. Errors: EUnauthenticated,
	// ENotFound, EForbidden, EConflict (no longer a draft).
	Delete(ctx context.Context, actor Actor, id int64) error

	// Referees lists the tournament's referees. Anyone who may see the
	// tournament may list them. Errors: ENotFound.
	Referees(ctx context.Context, actor Actor, id int64) ([]TournamentReferee, error)
	// AssignReferee makes a user a referee of the tournament (again: no
	// change). The user must be a member of the tournament's club with the
	// referee role or higher. Errors: EUnauthenticated, ENotFound,
	// EForbidden, ENotAReferee.
	AssignReferee(ctx context.Context, actor Actor, id, userID int64) (TournamentReferee, error)
	// UnassignReferee takes a referee off the tournament; one who is not
	// assigned is no error. Errors: EUnauthenticated, ENotFound,
	// EForbidden.
	UnassignReferee(ctx context.Context, actor Actor, id, userID int64) error
}

// TournamentReferee is a referee (arbitro) assigned to a tournament, with
// their role in the club now (a referee whose role was taken away stays
// listed, with it, but no longer referees: canRefereeTournament).
type TournamentReferee struct {
	TournamentID int64
	UserID       int64
	UserName     string
	Role         Role // "" when no longer a member of the club
	AssignedAt   time.Time
}
