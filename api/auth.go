package api

import (
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/burraco/burraco/domain"
)

// tokenIssuer mints and checks the short-lived access tokens: HS256 JWTs
// whose subject is the user id. The algorithm is pinned and exp is
// required, so "none", RS256 and tokens without expiry are refused; base64
// is decoded strictly, so a token cannot be respelt.
type tokenIssuer struct {
	secret []byte
	ttl    time.Duration
	now    func() time.Time
}

const jwtIssuer = "burraco"

// Mint returns a signed access token for the user and its lifetime.
func (ti tokenIssuer) Mint(userID int64) (string, time.Duration, error) {
	now := ti.now()
	claims := jwt.RegisteredClaims{
		Issuer:    jwtIssuer,
		Subject:   strconv.FormatInt(userID, 10),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ti.ttl)),
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(ti.secret)
	return s, ti.ttl, err
}

// errBadToken is what every token failure becomes: the caller learns only
// that the token is not acceptable.
var errBadToken = domain.Errorf(domain.EUnauthenticated, "the access token is invalid or expired")

// Parse checks a token and returns its user id.
func (ti tokenIssuer) Parse(token string) (int64, error) {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims,
		func(*jwt.Token) (any, error) { return ti.secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithIssuer(jwtIssuer),
		jwt.WithTimeFunc(ti.now),
		jwt.WithStrictDecoding(), // one spelling per token: no padding bits, no '=' padding
	)
	if err != nil {
		return 0, &domain.Error{Code: errBadToken.Code, Message: errBadToken.Message, Err: err}
	}
	id, err := strconv.ParseInt(claims.Subject, 10, 64)
	if err != nil || id <= 0 {
		return 0, &domain.Error{Code: errBadToken.Code, Message: errBadToken.Message, Err: errors.New("bad subject")}
	}
	return id, nil
}
