package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/burraco/burraco"
	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/internal/logs"
	"github.com/burraco/burraco/migrations"
)

// runServe starts the HTTP API: it opens (and creates) the database,
// applies the migrations, makes sure there is a site admin, and serves until
// ctx is cancelled, then shuts down gracefully.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", envOr("BURRACO_ADDR", ":8080"), "listen address (env BURRACO_ADDR); port 0 picks a free port")
	fs.StringVar(&c.metricsAddr, "metrics-addr", os.Getenv("BURRACO_METRICS_ADDR"),
		"listen address of /metrics (Prometheus) and /debug/pprof/, kept apart from the API's (env BURRACO_METRICS_ADDR); default empty: not served")
	proxies := fs.String("trusted-proxies", os.Getenv("BURRACO_TRUSTED_PROXIES"),
		"comma-separated CIDRs of the reverse proxies whose X-Forwarded-For and Forwarded headers give the client address (env BURRACO_TRUSTED_PROXIES); default none")
	memLimit := fs.String("memory-limit", os.Getenv("BURRACO_MEMORY_LIMIT"),
		"the Go runtime's soft memory limit, e.g. 150MiB, 1GiB, or off (env BURRACO_MEMORY_LIMIT); default: GOMEMLIMIT if set, else 80% of the container's memory limit when one is found, else none")
	c.flags(fs)
	if err := errors.Join(c.limits.flags(fs), c.auth.flags(fs)); err != nil {
		fmt.Fprintln(stderr, "burraco serve:", err)
		return 2
	}
	if err := errors.Join(c.durationFlags(fs), c.owners.flags(fs), c.parkPollsFlag(fs)); err != nil {
		fmt.Fprintln(stderr, "burraco serve:", err)
		return 2
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	var err error
	if c.trustedProxies, err = parseTrustedProxies(*proxies); err != nil {
		fmt.Fprintln(stderr, "burraco serve:", err)
		return 2
	}
	self, _ := os.ReadFile("/proc/self/cgroup")
	limit, err := chooseMemoryLimit(*memLimit, os.Getenv("GOMEMLIMIT"), "/sys/fs/cgroup", self)
	if err != nil {
		fmt.Fprintln(stderr, "burraco serve:", err)
		return 2
	}
	// One write(2) per access-log line was a cost of every request: the
	// log is buffered: Warn and above written at once, the rest within
	// 100 ms and on exit.
	buf := logs.NewBuffer(stderr)
	defer buf.Close()
	log, err := newLogger(buf, c.logLevel)
	if err != nil {
		fmt.Fprintln(stderr, "burraco serve:", err)
		return 2
	}
	log = slog.New(buf.Handler(log.Handler()))
	applyMemoryLimit(limit, log)
	if err := serve(ctx, c, log); err != nil {
		log.Error("serve failed", "err", err)
		return 1
	}
	return 0
}

func serve(ctx context.Context, c config, log *slog.Logger) error {
	db, err := openDB(ctx, ownedDatabaseURL(c.databaseURL, c.owners), log)
	if err != nil {
		return err
	}
	defer db.Close()
	secret, err := jwtSecret(ctx, db, log)
	if err != nil {
		return err
	}
	svc := domain.NewServices(db, domain.Config{MaxOpenTables: c.limits.openTables, OpenTableTTL: c.openTableTTL})
	if err := bootstrapAdmin(ctx, svc.Auth, log); err != nil {
		return err
	}
	stopPurging := startPurging(ctx, db, log)
	defer stopPurging() // before db.Close, deferred above
	stopClosing := startClosingStaleTables(ctx, svc.Tables, c.openTableTTL, log)
	defer stopClosing()
	if len(c.trustedProxies) > 0 {
		log.Info("client addresses are read from X-Forwarded-For and Forwarded on connections from trusted proxies",
			"trusted_proxies", c.trustedProxies)
	}
	m := newMetrics(db, log)
	if c.metricsAddr != "" {
		stop, err := listenMetrics(c.metricsAddr, metricsHandler(m, db), log)
		if err != nil {
			return fmt.Errorf("metrics: %w", err)
		}
		defer stop()
	}
	handler := api.NewServer(api.Config{
		JWTSecret:               secret,
		CORSOrigins:             splitList(os.Getenv("BURRACO_CORS_ORIGINS")),
		TrustedProxies:          c.trustedProxies,
		OpenAPI:                 burraco.OpenAPI,
		Shutdown:                ctx, // long polls of table states end at once on shutdown
		MaxLongPolls:            c.limits.longPolls,
		MaxEventStreams:         c.limits.eventStreams,
		ParkGrace:               c.parkGrace,
		AuthPerMinute:           c.auth.perMinute,
		AuthBurst:               c.auth.burst,
		RefreshPerMinute:        c.auth.refreshes,
		LoginFailuresPerAccount: c.auth.accountFailures,
		LoginFailuresPerAddress: c.auth.addressFailures,
		Metrics:                 m,
	}, svc, db, log)
	own, err := startOwnership(ctx, c.owners, db, handler, svc.Tables.Forget, log)
	if err != nil {
		return err
	}
	if own != nil {
		defer own.stop() // after the public listener's shutdown (listenAndServe)
		handler = own.public
		registerOwnershipMetrics(m, own)
	}
	go tickTables(ctx, svc.Tables, own.clocks(), log)
	go func() { // other processes' table changes wake this one's long polls (PostgreSQL)
		if err := svc.Tables.Follow(ctx); err != nil {
			log.Error("table feed", "err", err)
		}
	}()
	go func() { // users kept for authentication, forgotten at other processes' changes (PostgreSQL)
		if err := svc.Auth.Follow(ctx); err != nil {
			log.Error("user feed", "err", err)
		}
	}()
	go func() { // standings polls answered from memory, forgotten at other processes' changes
		if err := svc.Play.Follow(ctx); err != nil {
			log.Error("tournament feed", "err", err)
		}
	}()
	return listenAndServe(ctx, c.addr, handler, c.parkPolls, m, log)
}

// tickTables plays the tables' time-outs every second until ctx ends: of
// the tables own gives this process (with leases: those it owns, and the
// clocked tables whose owner is gone, which it takes over), of every table
// when own is nil.
func tickTables(ctx context.Context, tables domain.TableService, own domain.ClockOwner, log *slog.Logger) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if _, err := tables.TickOwned(ctx, now, own); err != nil && ctx.Err() == nil {
				log.Error("table clocks", "err", err)
			}
		}
	}
}

// openDB opens the database and applies the pending migrations.
func openDB(ctx context.Context, databaseURL string, log *slog.Logger) (*store.DB, error) {
	db, err := store.Open(ctx, databaseURL)
	if err != nil {
		return nil, err
	}
	applied, err := migrations.Up(ctx, db.SQL(), db.Dialect())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	log.Info("database ready", "dialect", db.Dialect(), "migrations_applied", applied)
	return db, nil
}

// jwtSecret is JWT_SECRET, or else a random secret generated on first run
// and kept in the database so that every server process shares it.
func jwtSecret(ctx context.Context, db *store.DB, log *slog.Logger) ([]byte, error) {
	if s := os.Getenv("JWT_SECRET"); s != "" {
		if len(s) < 32 {
			return nil, errors.New("JWT_SECRET must be at least 32 characters")
		}
		return []byte(s), nil
	}
	secret, created, err := db.Secret(ctx, "jwt_secret", func() ([]byte, error) { return randomBytes(32) })
	if err != nil {
		return nil, fmt.Errorf("jwt secret: %w", err)
	}
	if created {
		log.Warn("JWT_SECRET is not set: generated a random one and stored it in the database; set JWT_SECRET to manage it yourself")
	}
	return secret, nil
}

// bootstrapAdmin creates the site admin BURRACO_ADMIN_EMAIL when there is
// no site admin yet. Without BURRACO_ADMIN_PASSWORD a password is generated
// and logged, once.
func bootstrapAdmin(ctx context.Context, auth domain.AuthService, log *slog.Logger) error {
	email := envOr("BURRACO_ADMIN_EMAIL", "admin@burraco.local")
	password := os.Getenv("BURRACO_ADMIN_PASSWORD")
	generated := password == ""
	if generated {
		b, err := randomBytes(15)
		if err != nil {
			return err
		}
		password = base64.RawURLEncoding.EncodeToString(b)
	}
	created, err := auth.EnsureAdmin(ctx, email, password)
	if err != nil {
		return fmt.Errorf("bootstrap admin: %w", err)
	}
	switch {
	case created && generated:
		log.Warn("created the site admin with a generated password; it is shown only now", "email", email, "password", password)
	case created:
		log.Info("created the site admin", "email", email)
	}
	return nil
}

// listenAndServe serves handler on addr until ctx is cancelled, then
// finishes the requests in flight (for at most 15 s). park: long polls and
// idle connections are held without a goroutine, and connections admitted
// to net/http a few hundred at a time (api.Park; its figures go to m).
func listenAndServe(ctx context.Context, addr string, handler http.Handler, park bool, m *api.Metrics, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := api.NewHTTPServer(handler, slog.NewLogLogger(log.Handler(), slog.LevelWarn))
	errc := make(chan error, 1)
	serving := ln
	if park {
		serving = api.Park(srv, ln) // long polls held without a goroutine
		m.Admission(serving)
	}
	go func() { errc <- srv.Serve(serving) }()
	log.Info("listening", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// listenMetrics serves handler on addr (metricsHandler's) until stop.
func listenMetrics(addr string, handler http.Handler, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() { _ = srv.Serve(ln) }()
	log.Info("metrics listening", "addr", ln.Addr().String())
	// Close, not Shutdown: a scrape or a profile in flight is not worth
	// holding the server's exit for.
	return func() { _ = srv.Close() }, nil
}

func randomBytes(n int) ([]byte, error) {
	b := make([]byte, n)
	_, err := rand.Read(b)
	return b, err
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
