package api

import (
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/burraco/burraco/domain"
)

// tokenIssuer mints and checks the short-lived access tokens: HS256 JWTs
// whose subject is the user id. The algorithm is pinned and exp is
// required, so "none", RS256 and tokens without expiry are refused; base64
// is decoded strictly, so a token cannot be respelt.
type tokenIssuer struct {
	secret   []byte
	ttl      time.Duration
	now      func() time.Time
	verified *tokenCache
}

const jwtIssuer = "burraco"

// accessClaims are an access token's claims: the registered ones and the
// user's session version when it was minted (domain.User.SessionVersion),
// left out while it is 0, so that a token of a user whose password was
// never reset is as it was before session versions.
type accessClaims struct {
	jwt.RegisteredClaims
	Session int64 `json:"sv,omitempty"`
}

// Mint returns a signed access token for the user and its lifetime.
func (ti tokenIssuer) Mint(u domain.User) (string, time.Duration, error) {
	now := ti.now()
	claims := accessClaims{RegisteredClaims: jwt.RegisteredClaims{
		Issuer:    jwtIssuer,
		Subject:   strconv.FormatInt(u.ID, 10),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ti.ttl)),
	}, Session: u.SessionVersion}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(ti.secret)
	return s, ti.ttl, err
}

// errBadToken is what every token failure becomes: the caller learns only
// that the token is not acceptable.
var errBadToken = domain.Errorf(domain.EUnauthenticated, "the access token is invalid or expired")

// Parse checks a token and returns its user id and session version.
func (ti tokenIssuer) Parse(token string) (id, session int64, err error) {
	if v, ok := ti.verified.get(token); ok && v.validAt(ti.now()) {
		return v.userID, v.session, nil
	}
	var claims accessClaims
	_, err = jwt.ParseWithClaims(token, &claims,
		func(*jwt.Token) (any, error) { return ti.secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithIssuer(jwtIssuer),
		jwt.WithTimeFunc(ti.now),
		jwt.WithStrictDecoding(), // one spelling per token: no padding bits, no '=' padding
	)
	if err != nil {
		return 0, 0, &domain.Error{Code: errBadToken.Code, Message: errBadToken.Message, Err: err}
	}
	id, err = strconv.ParseInt(claims.Subject, 10, 64)
	if err != nil || id <= 0 || claims.Session < 0 {
		return 0, 0, &domain.Error{Code: errBadToken.Code, Message: errBadToken.Message, Err: errors.New("bad subject or session")}
	}
	v := verifiedToken{userID: id, session: claims.Session, expires: claims.ExpiresAt.Time}
	if claims.IssuedAt != nil {
		v.validFrom = claims.IssuedAt.Time
	}
	if claims.NotBefore != nil && claims.NotBefore.After(v.validFrom) {
		v.validFrom = claims.NotBefore.Time
	}
	ti.verified.put(token, v)
	return id, claims.Session, nil
}

// maxVerifiedTokens bounds the memory of the tokenCache.
const maxVerifiedTokens = 10_000

// tokenCache remembers the tokens this process has verified: a client
// sends the same access token with each request for its 15 minutes, and
// decoding its JSON claims and checking its signature again was a tenth of
// the work of a request. A token is kept only with the time window in which
// it is valid, which every use checks; any other spelling of it is another
// key, and is verified in full.
type tokenCache struct {
	mu sync.RWMutex
	m  map[string]verifiedToken
}

type verifiedToken struct {
	userID    int64
	session   int64     // the sv claim
	validFrom time.Time // iat, or nbf when later
	expires   time.Time // exp
}

func newTokenCache() *tokenCache { return &tokenCache{m: map[string]verifiedToken{}} }

// validAt applies the checks of the JWT validator: iat and nbf not after
// now, exp after it.
func (v verifiedToken) validAt(now time.Time) bool {
	return !now.Before(v.validFrom) && now.Before(v.expires)
}

func (c *tokenCache) get(token string) (verifiedToken, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[token]
	return v, ok
}

// put stores a verified token; when the cache is full it starts afresh
// (tokens live 15 minutes, so most of a full cache is stale anyway).
func (c *tokenCache) put(token string, v verifiedToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxVerifiedTokens {
		clear(c.m)
	}
	c.m[token] = v
}
