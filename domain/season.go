package domain

import (
	"context"
	"time"
)

// A season (stagione) is a club's run of evenings whose results add up to
// its season ranking (la classifica del circolo, issue 28): every evening
// counts.
//
// Which tournaments count: the club's tournaments that are finished or
// whose results are published, starting (StartsAt, as a UTC date) within
// the season's dates, both days included, but for those a director
// excluded (with a reason). Cancelled tournaments and tournaments not yet
// finished never count. A finished tournament counts at once, marked not
// yet published, because its standings are final (every round closed) and
// the club's secretary wants the ranking the night the evening ends; a
// correction or a penalty before publishing moves the ranking. Published
// results cannot be corrected (409 results_published), so a published
// evening is fixed for good.
//
// The ranking is computed from the tournaments' current standings at read
// time, never stored: a correction, an exclusion or a change of the season
// shows at the next read.

// SeasonScheme is how a season ranks its players.
type SeasonScheme string

// The schemes.
const (
	// SchemePlacingPoints: in each evening, an entry placed first scores
	// as many points as there were entries that played, and each place
	// below PointsStep fewer, never below zero. Entries tied in an
	// evening's standings (the same rank) share the higher place's
	// points. With ReferenceSize > 0 an evening's points are scaled by its
	// size: points × entries / ReferenceSize, rounded to hundredths (half
	// away from zero), so a bigger evening is worth more.
	SchemePlacingPoints SeasonScheme = "placing_points"
	// SchemeTotalVP: the sum of the VP of the player's entries.
	SchemeTotalVP SeasonScheme = "total_vp"
	// SchemeAverageVP: the player's VP per evening (rounded to
	// hundredths); a player with fewer evenings than MinEvenings is listed
	// after the ranked players, unranked (no place).
	SchemeAverageVP SeasonScheme = "average_vp"
)

// SeasonSchemes lists the schemes.
var SeasonSchemes = []SeasonScheme{SchemePlacingPoints, SchemeTotalVP, SchemeAverageVP}

// Valid reports whether s is one of the schemes.
func (s SeasonScheme) Valid() bool {
	return s == SchemePlacingPoints || s == SchemeTotalVP || s == SchemeAverageVP
}

// Limits and defaults of a season's settings.
const (
	DefaultPointsStep = 1
	MaxPointsStep     = 100
	MaxReferenceSize  = 1000
	DefaultMinEvening = 1
	MaxMinEvenings    = 366
	SeasonDateLayout  = "2006-01-02"
)

// Season is a club's season. StartsOn and EndsOn are dates (YYYY-MM-DD,
// UTC), both included.
type Season struct {
	ID            int64
	ClubID        int64
	ClubName      string
	Name          string
	StartsOn      string
	EndsOn        string
	Scheme        SeasonScheme
	PointsStep    int // placing_points: the points one place below is worth less
	ReferenceSize int // placing_points: 0 no scaling, else the size an evening's points are scaled to
	MinEvenings   int // average_vp: the fewest evenings to be ranked
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Current reports whether day (UTC) is within the season's dates.
func (s Season) Current(day time.Time) bool {
	d := day.UTC().Format(SeasonDateLayout)
	return s.StartsOn <= d && d <= s.EndsOn
}

// SeasonInput creates a season; nil settings take their defaults.
type SeasonInput struct {
	Name          string
	StartsOn      string
	EndsOn        string
	Scheme        SeasonScheme
	PointsStep    *int
	ReferenceSize *int
	MinEvenings   *int
}

// SeasonPatch changes a season; nil fields are left as they are.
type SeasonPatch struct {
	Name          *string
	StartsOn      *string
	EndsOn        *string
	Scheme        *SeasonScheme
	PointsStep    *int
	ReferenceSize *int
	MinEvenings   *int
}

// SeasonExclusion is a tournament a director took out of a season, with
// why, who and when.
type SeasonExclusion struct {
	SeasonID     int64
	TournamentID int64
	Reason       string
	By           int64
	At           time.Time
}

// SeasonRepo stores seasons and their exclusions.
type SeasonRepo interface {
	// Create inserts s and sets its ID. Errors: ENotFound (club missing).
	Create(s *Season) error
	// Get returns a season with its club's name. Errors: ENotFound.
	Get(id int64) (Season, error)
	// Update stores every field of s but its ID, club and creation time.
	// Errors: ENotFound.
	Update(s Season) error
	// Delete removes a season and its exclusions. Errors: ENotFound.
	Delete(id int64) error
	// OfClub lists a club's seasons, latest start first.
	OfClub(clubID int64) ([]Season, error)
	// OfClubs lists the seasons of these clubs, latest start first.
	OfClubs(clubIDs []int64) ([]Season, error)
	// Exclusions lists a season's exclusions by tournament id.
	Exclusions(seasonID int64) ([]SeasonExclusion, error)
	// Exclude creates or replaces an exclusion. Errors: ENotFound.
	Exclude(x SeasonExclusion) error
	// Include deletes an exclusion and reports whether there was one.
	Include(seasonID, tournamentID int64) (bool, error)
	// Stamps lists what Results would, each tournament as a
	// SeasonTournament (id, name, start, kind, status, version): one light
	// statement, for a poll to know whether anything changed.
	Stamps(clubID int64, startsOn, endsOn string) ([]SeasonTournament, error)
	// Results lists, by start time, the club's tournaments that are
	// finished or have their results published and start within the
	// dates (UTC days, both included).
	Results(clubID int64, startsOn, endsOn string) ([]Tournament, error)
}

// SeasonService manages clubs' seasons and computes their rankings.
//
// Authorisation: anyone reads a club's seasons and their rankings (clubs
// are public, and only tournaments past their end count, which are public
// too); the club's admins and owners, and site admins, create, change and
// delete them and exclude or include tournaments.
type SeasonService interface {
	// Create creates a season of a club. Errors: EUnauthenticated,
	// ENotFound (club), EForbidden, EInvalid (name, starts_on, ends_on
	// before starts_on, scheme, points_step, reference_size,
	// min_evenings).
	Create(ctx context.Context, actor Actor, clubID int64, in SeasonInput) (Season, error)
	// List lists a club's seasons, latest first. Errors: ENotFound.
	List(ctx context.Context, clubID int64) ([]Season, error)
	// Get returns a season of a club with the tournaments it counts and
	// those excluded. Errors: ENotFound (club, or a season of another club).
	Get(ctx context.Context, clubID, id int64) (SeasonDetail, error)
	// Update changes a season. Errors: as Create, and ENotFound.
	Update(ctx context.Context, actor Actor, clubID, id int64, p SeasonPatch) (Season, error)
	// Delete deletes a season (its tournaments stay as they are). Errors:
	// EUnauthenticated, ENotFound, EForbidden.
	Delete(ctx context.Context, actor Actor, clubID, id int64) error
	// Exclude takes a tournament of the club out of the season, with a
	// reason (again: the new reason replaces the old). Errors:
	// EUnauthenticated, ENotFound (season, tournament), EForbidden,
	// EInvalid (reason), ETournamentOfAnotherClub.
	Exclude(ctx context.Context, actor Actor, clubID, id, tournamentID int64, reason string) (SeasonDetail, error)
	// Include puts an excluded tournament back. Errors: EUnauthenticated,
	// ENotFound (season; a tournament not excluded), EForbidden.
	Include(ctx context.Context, actor Actor, clubID, id, tournamentID int64) (SeasonDetail, error)
	// Ranking computes the season's ranking from the counted tournaments'
	// current standings. Errors: ENotFound.
	Ranking(ctx context.Context, clubID, id int64) (SeasonRanking, error)
	// Basis names what a ranking is computed from, as Ranking's Basis
	// does, without computing it: a poll whose basis has not moved has
	// the same ranking (in this process: the players' names are those its
	// tournaments' states read). Errors: ENotFound.
	Basis(ctx context.Context, clubID, id int64) (string, error)
	// Mine lists the rankings of the seasons the actor's player profiles
	// are in (an evening counted), by club and season. Errors:
	// EUnauthenticated.
	Mine(ctx context.Context, actor Actor) ([]MySeasonRanking, error)
}

// SeasonTournament is a tournament as a season sees it: counted, or
// excluded (with the exclusion).
type SeasonTournament struct {
	ID       int64
	Name     string
	StartsAt time.Time
	Kind     TournamentKind
	Status   TournamentStatus
	// Version is the tournament's version its standings were read at (the
	// basis of the ranking).
	Version   int64
	Excluded  *SeasonExclusion
	Entries   int // entries that played (a ranking's placing points)
	Published bool
}

// SeasonDetail is a season with its tournaments: those it counts and
// those excluded, by start time.
type SeasonDetail struct {
	Season
	Tournaments []SeasonTournament
}

// MySeasonRanking is one season ranking a user is in: the best row of
// their player profiles.
type MySeasonRanking struct {
	Season        Season
	Row           SeasonRow
	PlayersRanked int
}
