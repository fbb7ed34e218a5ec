package api

import (
	"context"
	"log"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/clientaddr"
	"github.com/burraco/burraco/internal/logs"
	"github.com/burraco/burraco/internal/ratelimit"
)

// Config configures the HTTP API. Zero fields take the defaults below.
type Config struct {
	JWTSecret      []byte        // HS256 key for access tokens; required, at least 32 bytes
	AccessTokenTTL time.Duration // default 15 min
	MaxBodyBytes   int64         // default 1 MiB
	RequestTimeout time.Duration // default 30 s
	CORSOrigins    []string      // default ["*"]: tokens travel in headers, not cookies
	// Sign-ups and sign-ins (register, login): AuthBurst at once per client
	// address, then AuthPerMinute a minute; defaults DefaultAuthBurst and
	// DefaultAuthPerMinute, which let a hall's phones behind one address
	// all sign in (see login_limits.go). Negative: no limit.
	AuthPerMinute int
	AuthBurst     int
	// RefreshPerMinute is the refreshes and logouts per client address a
	// minute, as many at once; default DefaultRefreshPerMinute, negative:
	// no limit.
	RefreshPerMinute int
	// LoginFailuresPerAccount and LoginFailuresPerAddress are the failed
	// logins one account (the email given) and one client address may
	// have at once, and then per hour; past either, logins are refused
	// with 429 too_many_failed_logins. Defaults
	// DefaultLoginFailuresPerAccount and DefaultLoginFailuresPerAddress;
	// negative: no limit.
	LoginFailuresPerAccount int
	LoginFailuresPerAddress int
	RateLimitKeys           int // most keys (client addresses, accounts) each limit tracks at once; default 10000
	// TrustedProxies are the reverse proxies in front of the server: on a
	// connection from one of them, the client address (of the rate limits
	// and the access log) is read from X-Forwarded-For or Forwarded.
	// Default none: the headers are ignored, as any client can send them.
	TrustedProxies []netip.Prefix
	// OpenAPI is the document served at /openapi.yaml (and shown at /docs).
	OpenAPI []byte
	// Now is the clock of token expiry and rate limits; default time.Now.
	Now func() time.Time
	// Shutdown is done when the server shuts down: long polls then end at
	// once (304), and event streams end. Default: never.
	Shutdown context.Context
	// EventsHeartbeat is how often a table's event stream sends a comment
	// line when nothing changed, so that proxies keep it open; default 15 s.
	EventsHeartbeat time.Duration
	// MaxLongPolls and MaxEventStreams are how many long polls of table
	// states (a wait that is not answered at once) and table event streams
	// one user (or, anonymous, one client address) may hold open at once
	// in this process; more are refused with 429. Defaults
	// DefaultMaxLongPolls and DefaultMaxEventStreams; negative: no limit.
	MaxLongPolls    int
	MaxEventStreams int
	// ParkGrace is how long a long poll of a table that moves briskly
	// (its last two versions within ParkGrace of each other) waits in its
	// handler before it is parked (Park): such a poll is usually answered
	// within it, and parking and resuming its connection cost more CPU
	// than the wait holds memory. Zero (unlike the fields above): none,
	// every poll parked at once; serve sets DefaultParkGrace.
	ParkGrace time.Duration
	// Metrics receives the API's figures (see Metrics), which its Registry
	// serves to an operator's scraper; default: figures kept and not
	// served.
	Metrics *Metrics
}

func (c Config) withDefaults() Config {
	if c.AccessTokenTTL == 0 {
		c.AccessTokenTTL = 15 * time.Minute
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = 1 << 20
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = 30 * time.Second
	}
	if len(c.CORSOrigins) == 0 {
		c.CORSOrigins = []string{"*"}
	}
	if c.AuthPerMinute == 0 {
		c.AuthPerMinute = DefaultAuthPerMinute
	}
	if c.AuthBurst == 0 {
		c.AuthBurst = DefaultAuthBurst
	}
	if c.RefreshPerMinute == 0 {
		c.RefreshPerMinute = DefaultRefreshPerMinute
	}
	if c.LoginFailuresPerAccount == 0 {
		c.LoginFailuresPerAccount = DefaultLoginFailuresPerAccount
	}
	if c.LoginFailuresPerAddress == 0 {
		c.LoginFailuresPerAddress = DefaultLoginFailuresPerAddress
	}
	if c.RateLimitKeys == 0 {
		c.RateLimitKeys = 10000
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Shutdown == nil {
		c.Shutdown = context.Background()
	}
	if c.EventsHeartbeat <= 0 {
		c.EventsHeartbeat = 15 * time.Second
	}
	if c.MaxLongPolls == 0 {
		c.MaxLongPolls = DefaultMaxLongPolls
	}
	if c.MaxEventStreams == 0 {
		c.MaxEventStreams = DefaultMaxEventStreams
	}
	if c.Metrics == nil {
		c.Metrics = NewMetrics()
	}
	return c
}

// NewHTTPServer returns the http.Server that serves handler, with the
// limits a public server needs: slow clients cannot hold a connection
// (header, body and idle time-outs), and a write may last as long as the
// longest long poll. The request-path benchmarks give their bare baseline
// the same server, so that their ratios measure the handler alone.
func NewHTTPServer(handler http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      90 * time.Second, // past the longest long poll (maxWait)
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          errorLog,
	}
}

// Pinger reports whether the database is reachable (for /readyz).
type Pinger interface {
	Ping(ctx context.Context) error
}

// server holds what the handlers share: the configuration, the services,
// the caches, the limits and the token issuer. Each resource's handlers are
// a type of their own (clubHandlers, tableHandlers, …) holding a pointer to
// it, not embedding it, so that a reader sees which type owns which
// handler; what stays a method of server is what several resources use
// (serve, decode, failErr, the middlewares, the play and page helpers).
type server struct {
	cfg     Config
	svc     domain.Services
	db      Pinger
	log     *slog.Logger
	reqLog  *logs.RequestLogger // log's request lines without slog; nil when log is not logs.NewHandler's
	tokens  tokenIssuer
	signIns *ratelimit.Limiter // register and login per client address; nil: no limit
	// refreshes are refreshes and logouts per client address; nil: no limit
	refreshes *ratelimit.Limiter
	failures  loginFailures // failed logins per account and per address
	proxies   clientaddr.TrustedProxies
	states    *stateCache // tables' marshalled states per version and seat (polls)
	// playBodies are tournaments' encoded standings and rounds per version (hall screens)
	playBodies   *playBodies
	stamped      *stampedBodies         // stamped lists' encoded answers (the lobby)
	stampedItems *stampedBodies         // tables encoded as tableOut, by domain.Table.ShownStamp (the lobby's items, the states' table)
	polls        *ratelimit.Holds       // long polls held open per caller
	streams      *ratelimit.Holds       // event streams held open per caller
	specJSON     func() ([]byte, error) // cfg.OpenAPI as JSON, converted once
}

// NewServer returns the HTTP handler of the whole API: /api/v1, the health
// endpoints and the API documentation.
func NewServer(cfg Config, svc domain.Services, db Pinger, log *slog.Logger) http.Handler {
	cfg = cfg.withDefaults()
	if len(cfg.JWTSecret) < 32 {
		panic("api: Config.JWTSecret must be at least 32 bytes")
	}
	s := &server{
		cfg:          cfg,
		states:       newStateCache(),
		playBodies:   newPlayBodies(),
		stamped:      newStampedBodies(maxStampedBodies),
		stampedItems: newStampedBodies(maxStampedItems),
		polls:        ratelimit.NewHolds(cfg.MaxLongPolls),
		streams:      ratelimit.NewHolds(cfg.MaxEventStreams),
		svc:          svc,
		db:           db,
		log:          log,
		reqLog:       logs.RequestLoggerOf(log.Handler()),
		tokens:       tokenIssuer{secret: cfg.JWTSecret, ttl: cfg.AccessTokenTTL, now: cfg.Now, verified: newTokenCache()},
		signIns:      perMinuteLimiter(cfg.AuthPerMinute, cfg.AuthBurst, cfg),
		refreshes:    perMinuteLimiter(cfg.RefreshPerMinute, cfg.RefreshPerMinute, cfg),
		failures:     newLoginFailures(cfg),
		proxies:      clientaddr.TrustedProxies(cfg.TrustedProxies),
		specJSON:     specJSONOnce(cfg.OpenAPI),
	}
	return front{Router: s.routes(), s: s}
}
