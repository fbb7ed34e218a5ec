package api

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/clientaddr"
	"github.com/burraco/burraco/internal/ratelimit"
)

// The limits of the auth endpoints (issue 27). A club's hall puts every
// phone behind one Wi-Fi address, so a limit of sign-ins per address alone
// either refuses the hall or lets a guesser through; these limits tell
// the two apart:
//
//   - sign-ups and sign-ins (register, login) per client address, generous
//     enough for a hall: Config.AuthBurst at once, then AuthPerMinute a
//     minute (each costs an argon2 hash, which this bounds);
//   - refreshes and logouts per client address, a limit of their own
//     (Config.RefreshPerMinute): a refresh is no sign-in;
//   - failed logins, per account (the email given) and per client address:
//     Config.LoginFailuresPerAccount and LoginFailuresPerAddress at once,
//     then as many an hour. Past either, a login is refused with 429
//     too_many_failed_logins before its password is checked.
const (
	DefaultAuthPerMinute           = 60
	DefaultAuthBurst               = 100
	DefaultRefreshPerMinute        = 120
	DefaultLoginFailuresPerAccount = 10
	DefaultLoginFailuresPerAddress = 50
)

// codeTooManyFailedLogins is the 429 of a login refused by the limits of
// failed logins: the account, or the address, has failed too often.
const codeTooManyFailedLogins = "too_many_failed_logins"

// maxAccountKey bounds what of an email is kept as a key (RFC 5321 allows
// 254 characters): a longer one could not have been registered anyway.
const maxAccountKey = 320

// loginFailures holds the limits of failed logins; a nil limiter is no
// limit.
type loginFailures struct {
	perAccount, perAddress *ratelimit.Limiter
}

func newLoginFailures(cfg Config) loginFailures {
	return loginFailures{
		perAccount: hourlyLimiter(cfg.LoginFailuresPerAccount, cfg),
		perAddress: hourlyLimiter(cfg.LoginFailuresPerAddress, cfg),
	}
}

// hourlyLimiter is a limiter of n at once and n an hour; nil when n is
// negative (no limit).
func hourlyLimiter(n int, cfg Config) *ratelimit.Limiter {
	if n < 0 {
		return nil
	}
	return ratelimit.NewEvery(n, time.Hour, n, cfg.RateLimitKeys, cfg.Now)
}

// perMinuteLimiter is a limiter of burst at once and then perMinute a
// minute; nil when perMinute is negative (no limit).
func perMinuteLimiter(perMinute, burst int, cfg Config) *ratelimit.Limiter {
	if perMinute < 0 || burst < 0 {
		return nil
	}
	return ratelimit.New(perMinute, burst, cfg.RateLimitKeys, cfg.Now)
}

// attempt takes a failure's token from the account's and the address's
// limits before a login is tried, so that logins at once cannot all pass
// an almost empty bucket; done gives the tokens back unless the login
// failed on its credentials. When either bucket is empty, nothing is taken
// and err is the 429 (Retry-After set on w).
func (f loginFailures) attempt(w http.ResponseWriter, email, addr string) (done func(error), err error) {
	email = domain.NormalizeEmail(email)
	if len(email) > maxAccountKey {
		email = email[:maxAccountKey]
	}
	if ok, wait := take(f.perAccount, email); !ok {
		return nil, tooManyFailures(w, wait, "this account")
	}
	if ok, wait := take(f.perAddress, addr); !ok {
		giveBack(f.perAccount, email)
		return nil, tooManyFailures(w, wait, "this address")
	}
	return func(err error) {
		if domain.ErrorCode(err) == domain.EUnauthenticated {
			return // a failure: the tokens stay taken
		}
		giveBack(f.perAccount, email)
		giveBack(f.perAddress, addr)
	}, nil
}

func take(l *ratelimit.Limiter, key string) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	return l.Allow(key)
}

func giveBack(l *ratelimit.Limiter, key string) {
	if l != nil {
		l.Return(key)
	}
}

func tooManyFailures(w http.ResponseWriter, wait time.Duration, whose string) error {
	secs := retryAfter(wait)
	w.Header().Set("Retry-After", secs)
	return problem(codeTooManyFailedLogins, "too many failed logins for "+whose+"; retry after "+secs+" s")
}

// retryAfter is a wait in whole seconds, at least 1.
func retryAfter(wait time.Duration) string {
	return strconv.Itoa(max(int(math.Ceil(wait.Seconds())), 1))
}

// loginAddress is the key of the client's address in the limits.
func (s *server) loginAddress(r *http.Request) string {
	return clientaddr.Key(s.proxies.ClientAddr(r))
}
