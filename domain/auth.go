package domain

import (
	"context"
	"time"
)

// User is an account that can log in. A person who plays but never logs in
// (e.g. at a live club tournament) is a Player without a User.
type User struct {
	ID        int64
	Email     string
	Name      string
	SiteAdmin bool
	// SessionVersion counts the resets of the user's password: an access
	// token carries the version it was minted at, and one of an older
	// version is refused (see AuthService.Authenticate).
	SessionVersion int64
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Actor is who is asking: the authenticated user, or the zero Actor for an
// anonymous caller. Services take it explicitly and decide authorisation
// themselves, so the rules live in one place and are tested without HTTP.
type Actor struct {
	UserID    int64
	SiteAdmin bool
}

// Anonymous reports whether the actor is not logged in.
func (a Actor) Anonymous() bool { return a.UserID == 0 }

// Session is the result of a login or a refresh: the user and a new opaque
// refresh token (shown once; only its hash is stored). Access tokens (JWT)
// are minted by the api package from the User.
type Session struct {
	User             User
	RefreshToken     string
	RefreshExpiresAt time.Time
}

// RegisterInput is a new account.
type RegisterInput struct {
	Email    string
	Password string
	Name     string
}

// AuthService registers users and manages refresh-token sessions.
//
// Refresh tokens rotate: each Refresh revokes the token it was given and
// returns a new one of the same family. Presenting a token that was already
// rotated is a reuse: the whole family is revoked and ETokenReused returned.
type AuthService interface {
	// Register creates a user. Errors: EInvalid (email, password >= 10 chars,
	// name), EConflict (email taken).
	Register(ctx context.Context, in RegisterInput) (User, error)
	// Login checks the password and starts a session. Errors: EUnauthenticated
	// (same error for unknown email and wrong password).
	Login(ctx context.Context, email, password string) (Session, error)
	// Refresh rotates a refresh token. Errors: EUnauthenticated (unknown,
	// expired or revoked), ETokenReused.
	Refresh(ctx context.Context, refreshToken string) (Session, error)
	// Logout revokes the token's family. Unknown tokens are not an error.
	Logout(ctx context.Context, refreshToken string) error
	// User returns a user by id. Errors: ENotFound.
	User(ctx context.Context, id int64) (User, error)
	// Actor returns who the user of an authenticated request is. It may
	// answer from this process's cache, at most ActorTTL old, or
	// ActorTTLHeard while Follow hears other processes' changes;
	// SetSiteAdmin, DeleteUser and ResetPassword clear the user's entry
	// at once here, and in the processes that hear them as soon as the
	// notice arrives. Errors: ENotFound.
	Actor(ctx context.Context, id int64) (Actor, error)
	// Authenticate is Actor for an access token minted at the user's
	// session version session: a token minted before a password reset is
	// refused at once on the process that reset it, as soon as the
	// notice arrives on a process that follows the storage's UserFeed,
	// and within ActorTTL on the others. Errors: EUnauthenticated (an
	// older session version), ENotFound.
	Authenticate(ctx context.Context, id, session int64) (Actor, error)
	// Follow hears the storage's UserFeed until ctx ends (at once on
	// storage without one): while it hears it, Actor's cache keeps a
	// user for ActorTTLHeard and forgets them at each change another
	// process makes.
	Follow(ctx context.Context) error
	// SetSiteAdmin grants or takes away a user's site-admin rights; only a
	// site admin may. Errors: EUnauthenticated, EForbidden, ENotFound,
	// EConflict (taking them from the last site admin).
	SetSiteAdmin(ctx context.Context, actor Actor, userID int64, admin bool) (User, error)
	// DeleteUser deletes an account with its sessions and memberships (a
	// player profile stays, unlinked); the user themself or a site admin
	// may. Errors: EUnauthenticated, EForbidden, ENotFound, EConflict (the
	// last site admin, or the last owner of a club).
	DeleteUser(ctx context.Context, actor Actor, userID int64) error
	// EnsureAdmin creates the bootstrap site admin if no site admin exists;
	// created reports whether it did.
	EnsureAdmin(ctx context.Context, email, password string) (created bool, err error)
	// ResetPassword sets the password of the user with that email and ends
	// their sessions: their refresh tokens are revoked and their session
	// version bumped, which refuses the access tokens minted before (see
	// Authenticate); a login that checked the old password gets no
	// session that outlives the reset. It is the operator's tool (`burraco admin
	// reset-password`), not an API action: whoever runs it holds the
	// database. Errors: EInvalid (email, password), ENotFound (no user
	// with that email, said in plain words).
	ResetPassword(ctx context.Context, email, password string) (User, error)
	// LoadAccounts creates a load test's users, one per email (under the
	// reserved domain .test), with one session each, in one transaction:
	// one password hash, of a random password told to nobody, is made and
	// shared, and the sessions' refresh tokens are how the accounts are
	// reached. The operator's tool (`burraco admin load-accounts`), not an
	// API action. Errors: EInvalid (no email, too many, one not valid, not
	// under .test, or given twice), EConflict (an email taken).
	LoadAccounts(ctx context.Context, emails []string) ([]Session, error)
}
