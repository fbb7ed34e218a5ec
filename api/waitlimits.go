package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/burraco/burraco/internal/clientaddr"
	"github.com/burraco/burraco/internal/metrics"
	"github.com/burraco/burraco/internal/ratelimit"
)

// Codes of the per-user limits on requests that hold a connection open
// (issue 19: one user held 200 long polls and 150 event streams). 429,
// stable like every code.
const (
	codeTooManyLongPolls    = "too_many_long_polls"
	codeTooManyEventStreams = "too_many_event_streams"
)

// Defaults of Config.MaxLongPolls and Config.MaxEventStreams.
const (
	DefaultMaxLongPolls    = 20
	DefaultMaxEventStreams = 10
)

// DefaultParkGrace is what serve sets Config.ParkGrace to: at bots' pace
// (100 tables on two cores) a table moves every 60–130 ms, so a poll is
// answered within it; at a person's pace (seconds a move) no table is
// brisk and every poll is parked at once, as without it.
const DefaultParkGrace = 200 * time.Millisecond

// waitRetryAfter is the Retry-After of a refused long poll or stream, in
// seconds: one of the caller's own is likely to end by then.
const waitRetryAfter = "5"

// holder is who holds a request open: the user, or an anonymous client's
// address (as the rate limits see it).
func (s *server) holder(r *http.Request) string {
	if a := ActorFrom(r.Context()); !a.Anonymous() {
		return "u" + strconv.FormatInt(a.UserID, 10)
	}
	return "a" + clientaddr.Key(s.proxies.ClientAddr(r))
}

// hold counts the request against l, or returns 429 with code (its
// Retry-After set on w).
func (s *server) hold(w http.ResponseWriter, r *http.Request, l *ratelimit.Holds, open *metrics.Gauge, code, what string) (release func(), err error) {
	release, ok := l.Acquire(s.holder(r))
	if !ok {
		w.Header().Set("Retry-After", waitRetryAfter)
		return nil, problem(code, "you have "+strconv.Itoa(l.Max())+" "+what+" open, the most one may; close one first")
	}
	WaitsLong(r) // it holds its connection for long: it must not hold back others' requests (tables_park_admit.go)
	return openGauge(open, release), nil
}
