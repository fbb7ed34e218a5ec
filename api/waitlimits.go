package api

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/burraco/burraco/internal/clientaddr"
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

// waitRetryAfter is the Retry-After of a refused long poll or stream, in
// seconds: one of the caller's own is likely to end by then.
const waitRetryAfter = "5"

// holdLimit counts the requests each caller holds open at once, up to max
// (negative: no limit). A caller is a user, or an anonymous client's
// address. The counts are per server process.
type holdLimit struct {
	max  int
	mu   sync.Mutex
	held map[string]int
}

func newHoldLimit(max int) *holdLimit { return &holdLimit{max: max, held: map[string]int{}} }

// acquire counts one more request of key and returns its release, or
// reports false when key holds max already.
func (l *holdLimit) acquire(key string) (release func(), ok bool) {
	if l.max < 0 {
		return func() {}, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held[key] >= l.max {
		return nil, false
	}
	l.held[key]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.held[key]--; l.held[key] <= 0 {
			delete(l.held, key) // the map holds only callers with a request open
		}
	}, true
}

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
func (s *server) hold(w http.ResponseWriter, r *http.Request, l *holdLimit, code, what string) (release func(), err error) {
	release, ok := l.acquire(s.holder(r))
	if !ok {
		w.Header().Set("Retry-After", waitRetryAfter)
		return nil, problem(code, "you have "+strconv.Itoa(l.max)+" "+what+" open, the most one may; close one first")
	}
	return release, nil
}
