package domain

import (
	"crypto/rand"
	"io"
	"runtime"
	"time"
)

// DefaultRefreshTTL is how long a refresh token lives when Config leaves it 0.
const DefaultRefreshTTL = 30 * 24 * time.Hour

// Config tunes the services. Zero values mean the defaults.
type Config struct {
	// Now is the clock (default time.Now). Times are stored in UTC with
	// microsecond precision.
	Now func() time.Time
	// RefreshTTL is the lifetime of each refresh token (default 30 days).
	RefreshTTL time.Duration
	// PasswordParams are the argon2id parameters of new password hashes;
	// zero fields take DefaultPasswordParams. Tests may use
	// TestPasswordParams.
	PasswordParams PasswordParams
	// Random is the source of salts and tokens, of the tables' deal seeds
	// and invite codes, and of the tournaments' lots seeds (default
	// crypto/rand).
	Random io.Reader
	// Bot plays the bot seats of tables (default EngineBot).
	Bot BotFunc
	// MaxOpenTables is how many tables not finished one user may have
	// created at once (default DefaultMaxOpenTables; negative: no limit),
	// so that one account cannot fill the lobby (issue 19).
	MaxOpenTables int
	// OpenTableTTL is how long a table may stay open (not started) before
	// TableService.CloseStale cancels it (default DefaultOpenTableTTL;
	// negative: never), so that tables nobody plays leave the lobby and
	// their creator's count (issue 27).
	OpenTableTTL time.Duration
	// KeptReadsMaxAge is how long a read kept in memory (the lobby, the
	// player list) may be answered again while the store reports no write
	// to what it read (default DefaultKeptReadsMaxAge): the bound on how
	// late a write the store cannot hear of shows (another process on a
	// SQLite file, a change by hand).
	KeptReadsMaxAge time.Duration
}

// DefaultKeptReadsMaxAge is Config.KeptReadsMaxAge's default.
const DefaultKeptReadsMaxAge = time.Second

// DefaultMaxOpenTables is Config.MaxOpenTables's default.
const DefaultMaxOpenTables = 10

// DefaultOpenTableTTL is Config.OpenTableTTL's default: a day, long enough
// for players who agree on an evening to find the table waiting.
const DefaultOpenTableTTL = 24 * time.Hour

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.RefreshTTL <= 0 {
		c.RefreshTTL = DefaultRefreshTTL
	}
	c.PasswordParams = c.PasswordParams.withDefaults()
	if c.Random == nil {
		c.Random = rand.Reader
	}
	if c.MaxOpenTables == 0 {
		c.MaxOpenTables = DefaultMaxOpenTables
	}
	if c.OpenTableTTL == 0 {
		c.OpenTableTTL = DefaultOpenTableTTL
	}
	if c.KeptReadsMaxAge <= 0 {
		c.KeptReadsMaxAge = DefaultKeptReadsMaxAge
	}
	return c
}

// clock returns the current time as stored: UTC, microseconds.
func (c Config) clock() func() time.Time {
	now := c.Now
	return func() time.Time { return now().UTC().Truncate(time.Microsecond) }
}

// Services is the set of services the API needs; cmd wires it.
type Services struct {
	Auth        AuthService
	Clubs       ClubService
	Players     PlayerService
	Tournaments TournamentService
	// Play runs tournaments after their set-up: lifecycle, entries,
	// rounds, score sheets, standings.
	Play   TournamentPlayService
	Tables TableService
	// Joins lets players join by themselves (issue 28).
	Joins JoinService
	// Seasons are clubs' seasons and their rankings.
	Seasons SeasonService
	// Ratings are the players' ratings from rated online matches (issue 29).
	Ratings RatingService
	// Results exports and imports the open results format (issue 32).
	Results ResultsService
}

// NewServices returns the services over st.
func NewServices(st Storage, cfg Config) Services {
	cfg = cfg.withDefaults()
	now := cfg.clock()
	hasher := &passwordHasher{params: cfg.PasswordParams, random: cfg.Random, slots: make(chan struct{}, runtime.GOMAXPROCS(0))}
	hasher.prepare()
	stamps := newTournamentStamps()
	play := newTournamentPlayService(st, now, cfg.Random, stamps)
	kept := newKeptReads(st, cfg.KeptReadsMaxAge)
	tables := newTableService(st, now, cfg.Random, cfg.Bot, cfg.MaxOpenTables, cfg.OpenTableTTL, kept, play)
	play.tables = tables.match
	tables.notes.tournamentChanged = stamps.changed
	return Services{
		Auth: &authService{st: st, now: now, ttl: cfg.RefreshTTL, random: cfg.Random, hasher: hasher,
			actors: newActorCache(cfg.Now, ActorTTL, ActorTTLHeard)},
		Clubs:       &clubService{st: st, now: now},
		Players:     &playerService{st: st, now: now, kept: kept, random: cfg.Random},
		Tournaments: &tournamentService{st: st, now: now, random: cfg.Random, stamps: stamps},
		Play:        play,
		Tables:      tables,
		Joins:       &joinService{st: st, now: now, random: cfg.Random},
		Seasons:     &seasonService{st: st, now: now, play: play, kept: kept},
		Ratings:     &ratingService{st: st},
		Results:     resultsService{play: play},
	}
}

// errLoginRequired is returned to anonymous actors.
var errLoginRequired = Errorf(EUnauthenticated, "you must be logged in")
