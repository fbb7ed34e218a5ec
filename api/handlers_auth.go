package api

import (
	"net/http"

	"github.com/burraco/burraco/domain"
)

// authHandlers sign people up and in, refresh their tokens and sign them
// out (/api/v1/auth). They ignore the Authorization header (routes.go).
type authHandlers struct{ s *server }

// signInRoutes are the ones limited per client address as sign-ins.
func (h authHandlers) signInRoutes(r routes) {
	r.post("/register", h.register)
	r.post("/login", h.login)
}

// refreshRoutes are the ones limited per client address as refreshes.
func (h authHandlers) refreshRoutes(r routes) {
	r.post("/refresh", h.refresh)
	r.post("/logout", h.logout)
}

// register creates an account.
//
//	@Summary		Register an account
//	@ID			register
//	@Description	Creates a user. Log in afterwards to get tokens. Rate-limited per client address, with logins, generously: the phones of a club's hall share one address.
//	@Tags			auth
//	@Accept			json
//	@Produce		json
//	@Param			body	body		RegisterRequest	true	"The new account"
//	@Success		201		{object}	User			"Location: /api/v1/me"
//	@Header			201		{string}	Location		"/api/v1/me"
//	@Failure	400	{object}	Problem	"malformed_json: the body is not JSON, not an object, or has a field of the wrong type or an unknown field (named in errors)"
//	@Failure	409	{object}	Problem	"conflict: the email is already registered"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (email, password of 10 to 1024 characters, name)"
//	@Failure	429	{object}	Problem	"rate_limited: too many sign-ups and sign-ins from this address (serve -auth-burst at once, then -auth-per-minute); see Retry-After"
//	@Header		429	{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/auth/register [post]
func (h authHandlers) register(w http.ResponseWriter, r *http.Request) error {
	var req RegisterRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	u, err := h.s.svc.Auth.Register(r.Context(), domain.RegisterInput{Email: req.Email, Password: req.Password, Name: req.Name})
	if err != nil {
		return err
	}
	return created(w, "/api/v1/me", userOut(u))
}

// login starts a session.
//
//	@Summary		Log in
//	@ID			login
//	@Description	Checks the password and returns an access token (short-lived JWT) and a refresh token. Rate-limited per client address, with registrations, generously: the phones of a club's hall share one address. Failed logins are limited per account (the email given, whether or not it is registered) and per client address: past either limit, a login is refused with 429 too_many_failed_logins, its password unchecked, until Retry-After.
//	@Tags			auth
//	@Accept			json
//	@Produce		json
//	@Param			body	body		LoginRequest	true	"Credentials"
//	@Success		200		{object}	TokenResponse
//	@Failure	400	{object}	Problem	"malformed_json: the body is not JSON, not an object, or has a field of the wrong type or an unknown field (named in errors)"
//	@Failure	401	{object}	Problem	"unauthenticated: unknown email or wrong password (the same answer for both)"
//	@Failure	429	{object}	Problem	"rate_limited (too many sign-ups and sign-ins from this address: serve -auth-burst at once, then -auth-per-minute) or too_many_failed_logins (too many failed logins for this email, serve -login-failures-per-account, or from this address, -login-failures-per-address, at once and then an hour: refused before the password is checked); see Retry-After"
//	@Header		429	{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/auth/login [post]
func (h authHandlers) login(w http.ResponseWriter, r *http.Request) error {
	var req LoginRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	done, err := h.s.failures.attempt(w, req.Email, h.s.loginAddress(r))
	if err != nil {
		return err
	}
	sess, err := h.s.svc.Auth.Login(r.Context(), req.Email, req.Password)
	done(err)
	return h.respondSession(w, r, sess, err)
}

// refresh rotates a refresh token.
//
//	@Summary		Refresh the tokens
//	@ID			refreshTokens
//	@Description	Exchanges a refresh token for a new access token and a new refresh token. The old refresh token stops working; presenting it again is treated as theft and revokes the whole session (code refresh_token_reused).
//	@Tags			auth
//	@Accept			json
//	@Produce		json
//	@Param			body	body		RefreshRequest	true	"The current refresh token"
//	@Success		200		{object}	TokenResponse
//	@Failure	400	{object}	Problem	"malformed_json: the body is not JSON, not an object, or has a field of the wrong type or an unknown field (named in errors)"
//	@Failure	401	{object}	Problem	"unauthenticated (unknown, expired or revoked refresh token) or refresh_token_reused (a rotated token was replayed: the session is revoked, log in again)"
//	@Failure	422	{object}	Problem	"invalid_input: refresh_token missing or empty (errors names it, code required)"
//	@Failure	429	{object}	Problem	"rate_limited: too many refreshes and logouts from this address (serve -refresh-per-minute); see Retry-After"
//	@Header		429	{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/auth/refresh [post]
func (h authHandlers) refresh(w http.ResponseWriter, r *http.Request) error {
	var req RefreshRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	sess, err := h.s.svc.Auth.Refresh(r.Context(), req.RefreshToken)
	return h.respondSession(w, r, sess, err)
}

// respondSession answers a login or refresh: the session with a fresh
// access token, or the error.
func (h authHandlers) respondSession(w http.ResponseWriter, r *http.Request, sess domain.Session, err error) error {
	if err != nil {
		return err
	}
	access, ttl, err := h.s.tokens.Mint(sess.User)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return respond(w, http.StatusOK, TokenResponse{
		AccessToken:      access,
		TokenType:        "Bearer",
		ExpiresIn:        int(ttl.Seconds()),
		RefreshToken:     sess.RefreshToken,
		RefreshExpiresAt: sess.RefreshExpiresAt,
		User:             userOut(sess.User),
	})
}

// logout revokes a session.
//
//	@Summary		Log out
//	@ID			logout
//	@Description	Revokes the refresh token and every token rotated from the same login. A token sent but unknown is accepted silently (204); a missing or empty refresh_token is 422 invalid_input naming it. Access tokens already issued stay valid until they expire (at most expires_in seconds).
//	@Tags			auth
//	@Accept			json
//	@Param			body	body	RefreshRequest	true	"The refresh token to revoke"
//	@Success		204
//	@Failure	422	{object}	Problem	"invalid_input: refresh_token missing or empty (errors names it, code required)"
//	@Failure	400	{object}	Problem	"malformed_json: the body is not JSON, not an object, or has a field of the wrong type or an unknown field (named in errors)"
//	@Failure	429	{object}	Problem	"rate_limited: too many refreshes and logouts from this address (serve -refresh-per-minute); see Retry-After"
//	@Header		429	{integer}	Retry-After	"seconds to wait before retrying"
//	@Router			/api/v1/auth/logout [post]
func (h authHandlers) logout(w http.ResponseWriter, r *http.Request) error {
	var req RefreshRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	if err := h.s.svc.Auth.Logout(r.Context(), req.RefreshToken); err != nil {
		return err
	}
	return noContent(w)
}
