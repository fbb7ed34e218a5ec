package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/logs"
)

// config is what the commands read from flags and the environment. A flag
// wins over its environment variable, which wins over the default.
type config struct {
	addr           string         // BURRACO_ADDR
	metricsAddr    string         // BURRACO_METRICS_ADDR: /metrics and /debug/pprof/; empty: not served
	databaseURL    string         // DATABASE_URL
	logLevel       string         // LOG_LEVEL
	trustedProxies []netip.Prefix // BURRACO_TRUSTED_PROXIES
	limits         userLimits
	openTableTTL   time.Duration // BURRACO_OPEN_TABLE_TTL
	auth           authLimits
	owners         ownership // -internal-addr, -lease-ttl: table ownership on PostgreSQL
	// parkPolls holds waiting long polls and idle connections without a
	// goroutine (api.Park); off (BURRACO_PARK_POLLS=false) they wait in
	// net/http's handlers, as before issue 30's memory cut.
	parkPolls bool          // BURRACO_PARK_POLLS
	parkGrace time.Duration // BURRACO_PARK_GRACE: api.Config.ParkGrace
}

// parkPollsFlag registers -park-polls, on unless the environment says a
// boolean false; an environment value that is not a boolean is an error.
func (c *config) parkPollsFlag(fs *flag.FlagSet) error {
	def := true
	if v := os.Getenv("BURRACO_PARK_POLLS"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("BURRACO_PARK_POLLS=%q is not true or false", v)
		}
		def = b
	}
	fs.BoolVar(&c.parkPolls, "park-polls", def,
		"hold waiting long polls and idle keep-alive connections without a goroutine (a few KB each instead of 20-37 KB); -park-polls=false leaves them to net/http (env BURRACO_PARK_POLLS)")
	return nil
}

// durationFlags registers -open-table-ttl and -park-grace, with their
// defaults from the environment; an environment variable that is not a
// duration is an error.
func (c *config) durationFlags(fs *flag.FlagSet) error {
	return errors.Join(
		durationFlag(fs, &c.openTableTTL, "open-table-ttl", "BURRACO_OPEN_TABLE_TTL", domain.DefaultOpenTableTTL,
			"how long a table may stay open (not started) before the server cancels it; negative: never"),
		durationFlag(fs, &c.parkGrace, "park-grace", "BURRACO_PARK_GRACE", api.DefaultParkGrace,
			"how long a long poll of a table moving briskly (bots' pace) waits in its handler before it is parked (-park-polls); 0: parked at once"))
}

// durationFlag registers a duration flag defaulting to its environment
// variable when set; one that is not a duration is an error.
func durationFlag(fs *flag.FlagSet, p *time.Duration, name, env string, def time.Duration, usage string) error {
	var err error
	if v := os.Getenv(env); v != "" {
		d, perr := time.ParseDuration(v)
		if perr != nil {
			err = fmt.Errorf("%s=%q is not a duration such as 24h, 90m or 200ms", env, v)
		} else {
			def = d
		}
	}
	fs.DurationVar(p, name, def, fmt.Sprintf("%s (env %s)", usage, env))
	return err
}

// authLimits are serve's limits of the auth endpoints (issue 27: a hall's
// phones share one address); 0 takes the default, negative means no
// limit. See api/login_limits.go.
type authLimits struct {
	perMinute       int // BURRACO_AUTH_PER_MINUTE
	burst           int // BURRACO_AUTH_BURST
	refreshes       int // BURRACO_REFRESH_PER_MINUTE
	accountFailures int // BURRACO_LOGIN_FAILURES_PER_ACCOUNT
	addressFailures int // BURRACO_LOGIN_FAILURES_PER_ADDRESS
}

// flags registers the auth limits' flags, with defaults from the
// environment; an environment variable that is not an integer is an error.
func (l *authLimits) flags(fs *flag.FlagSet) error {
	return intFlags(fs, []intFlag{
		{&l.perMinute, "auth-per-minute", "BURRACO_AUTH_PER_MINUTE", api.DefaultAuthPerMinute,
			"sign-ups and sign-ins (register, login) one client address may make a minute, after -auth-burst at once; negative: no limit"},
		{&l.burst, "auth-burst", "BURRACO_AUTH_BURST", api.DefaultAuthBurst,
			"sign-ups and sign-ins one client address may make at once; negative: no limit"},
		{&l.refreshes, "refresh-per-minute", "BURRACO_REFRESH_PER_MINUTE", api.DefaultRefreshPerMinute,
			"token refreshes and logouts one client address may make a minute, as many at once; negative: no limit"},
		{&l.accountFailures, "login-failures-per-account", "BURRACO_LOGIN_FAILURES_PER_ACCOUNT", api.DefaultLoginFailuresPerAccount,
			"failed logins one account may have at once, then as many an hour; past it logins are refused (429 too_many_failed_logins); negative: no limit"},
		{&l.addressFailures, "login-failures-per-address", "BURRACO_LOGIN_FAILURES_PER_ADDRESS", api.DefaultLoginFailuresPerAddress,
			"failed logins one client address may have at once, then as many an hour; negative: no limit"},
	})
}

// intFlag is an integer flag with an environment variable; usage says
// what it is.
type intFlag struct {
	p         *int
	name, env string
	def       int
	usage     string
}

// intFlags registers fs's integer flags, each defaulting to its
// environment variable when set; one that is not an integer is an error.
func intFlags(fs *flag.FlagSet, flags []intFlag) error {
	for _, f := range flags {
		def := f.def
		if v := os.Getenv(f.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%s=%q is not an integer", f.env, v)
			}
			def = n
		}
		fs.IntVar(f.p, f.name, def, fmt.Sprintf("%s (env %s)", f.usage, f.env))
	}
	return nil
}

// userLimits are serve's limits per user on what one account may hold at
// once (issue 19); 0 takes the default, negative means no limit.
type userLimits struct {
	openTables   int // BURRACO_MAX_OPEN_TABLES
	longPolls    int // BURRACO_MAX_LONG_POLLS
	eventStreams int // BURRACO_MAX_EVENT_STREAMS
}

// flags registers the limits' flags, with defaults from the environment;
// an environment variable that is not an integer is an error.
func (l *userLimits) flags(fs *flag.FlagSet) error {
	var flags []intFlag
	for _, f := range []struct {
		p         *int
		name, env string
		def       int
		what      string
	}{
		{&l.openTables, "max-open-tables", "BURRACO_MAX_OPEN_TABLES", domain.DefaultMaxOpenTables, "tables not finished one user may have created"},
		{&l.longPolls, "max-long-polls", "BURRACO_MAX_LONG_POLLS", api.DefaultMaxLongPolls, "long polls of table states one user (or anonymous client address) may hold open"},
		{&l.eventStreams, "max-event-streams", "BURRACO_MAX_EVENT_STREAMS", api.DefaultMaxEventStreams, "table event streams one user (or anonymous client address) may hold open"},
	} {
		flags = append(flags, intFlag{f.p, f.name, f.env, f.def, fmt.Sprintf("most %s at once; negative: no limit", f.what)})
	}
	return intFlags(fs, flags)
}

// flags registers the common flags on fs, with defaults from the environment.
func (c *config) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.databaseURL, "database", envOr("DATABASE_URL", "burraco.db"),
		"database: a SQLite file path or a postgres:// URL (env DATABASE_URL)")
	fs.StringVar(&c.logLevel, "log-level", envOr("LOG_LEVEL", "info"),
		"log level: debug, info, warn or error (env LOG_LEVEL)")
}

// parseTrustedProxies reads a comma-separated list of CIDRs; a bare
// address stands for itself alone (a /32 or /128).
func parseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range splitList(list) {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil || a.Zone() != "" {
				return nil, fmt.Errorf("trusted proxies: %q is not a CIDR such as 10.0.0.0/8 or fd00::/8, nor an address", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if p.Addr().Is4In6() && p.Bits() >= 96 { // clients' addresses are unmapped too
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// parseFlags parses args, printing errors and usage to stderr; ok is false
// when the command should stop with exit code 2 (or 0 after -h).
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	fs.SetOutput(stderr)
	switch err := fs.Parse(args); {
	case err == flag.ErrHelp:
		return 0, false
	case err != nil:
		return 2, false
	}
	return 0, true
}

// newLogger returns a text logger on w at the named level: slog's text
// handler, in the form whose request lines the API writes without slog.
func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, fmt.Errorf("bad log level %q: want debug, info, warn or error", level)
	}
	return slog.New(logs.NewHandler(w, logs.Text, l)), nil
}
