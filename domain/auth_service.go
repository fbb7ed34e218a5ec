package domain

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io"
	"strings"
	"time"
)

// refreshTokenBytes is the entropy of a refresh token.
const refreshTokenBytes = 32

var (
	errBadCredentials = Errorf(EUnauthenticated, "wrong email or password")
	errBadRefresh     = Errorf(EUnauthenticated, "invalid or expired refresh token")
	errTokenReused    = Errorf(ETokenReused, "refresh token was already used; please log in again")
)

// authService implements AuthService.
type authService struct {
	st     Storage
	now    func() time.Time
	ttl    time.Duration
	random io.Reader
	hasher *passwordHasher
	actors *actorCache
}

// Register implements AuthService. The password is hashed before the
// transaction, so that no lock is held while argon2 runs.
func (s *authService) Register(ctx context.Context, in RegisterInput) (User, error) {
	email, name := NormalizeEmail(in.Email), strings.TrimSpace(in.Name)
	var v Validator
	checkEmail(&v, "email", email)
	checkPassword(&v, "password", in.Password)
	checkText(&v, "name", name, true, MaxNameLength)
	if err := v.Err(); err != nil {
		return User{}, err
	}
	hash, err := s.hasher.hash(in.Password)
	if err != nil {
		return User{}, err
	}
	now := s.now()
	u := User{Email: email, Name: name, CreatedAt: now, UpdatedAt: now}
	err = s.st.InTx(ctx, func(tx Tx) error { return tx.Users().Create(&u, hash) })
	if err != nil {
		return User{}, err
	}
	return u, nil
}

// Login implements AuthService. It reads the user, checks the password
// outside any transaction (argon2 is slow on purpose), then stores the new
// session in its own transaction.
//
// An email that could not have been registered (malformed, too long, with
// control characters such as NUL, which PostgreSQL refuses in text) is not
// looked up: it fails like an unknown one, after the same hashing work.
func (s *authService) Login(ctx context.Context, email, password string) (Session, error) {
	email = NormalizeEmail(email)
	var v Validator
	if checkEmail(&v, "email", email); v.Err() != nil {
		s.hasher.spend(password)
		return Session{}, errBadCredentials
	}
	var u User
	var hash string
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		u, hash, err = tx.Users().ByEmail(email)
		return err
	})
	if ErrorCode(err) == ENotFound {
		s.hasher.spend(password)
		return Session{}, errBadCredentials
	}
	if err != nil {
		return Session{}, err
	}
	if !s.hasher.verify(password, hash) {
		return Session{}, errBadCredentials
	}
	var sess Session
	err = s.st.InTx(ctx, func(tx Tx) error {
		// The password was checked outside the transaction: if it was
		// reset since, the session would outlive the reset. The lock
		// makes a reset that comes now wait for the session, and revoke it.
		if v, err := tx.Users().LockSessionVersion(u.ID); ErrorCode(err) == ENotFound || (err == nil && v != u.SessionVersion) {
			return errBadCredentials
		} else if err != nil {
			return err
		}
		family, err := s.randomHex(16)
		if err != nil {
			return err
		}
		sess, err = s.issue(tx, u, family, s.now())
		return err
	})
	return sess, err
}

// Refresh implements AuthService. Reuse detection must commit the family's
// revocation, so the transaction succeeds and ETokenReused is returned after.
func (s *authService) Refresh(ctx context.Context, refreshToken string) (Session, error) {
	if err := needRefreshToken(refreshToken); err != nil {
		return Session{}, err
	}
	hash, ok := hashRefreshToken(refreshToken)
	if !ok {
		return Session{}, errBadRefresh
	}
	var sess Session
	var reused bool
	err := s.st.InTx(ctx, func(tx Tx) error {
		var err error
		sess, reused, err = s.rotate(tx, hash, s.now())
		return err
	})
	if err != nil {
		return Session{}, err
	}
	if reused {
		return Session{}, errTokenReused
	}
	return sess, nil
}

// rotate exchanges the token with the given hash for a new one of its
// family; reused reports a replayed token, whose family it revoked.
func (s *authService) rotate(tx Tx, hash string, now time.Time) (sess Session, reused bool, err error) {
	tokens := tx.RefreshTokens()
	t, err := tokens.ByHash(hash)
	switch {
	case ErrorCode(err) == ENotFound:
		return Session{}, false, errBadRefresh
	case err != nil:
		return Session{}, false, err
	case t.RevokedAt != nil:
		return Session{}, false, errBadRefresh
	case t.RotatedAt != nil:
		return Session{}, true, tokens.RevokeFamily(t.FamilyID, now)
	case !now.Before(t.ExpiresAt):
		return Session{}, false, errBadRefresh
	}
	won, err := tokens.MarkRotated(t.ID, now)
	if err != nil {
		return Session{}, false, err
	}
	if !won { // a concurrent request rotated it first: a replay
		return Session{}, true, tokens.RevokeFamily(t.FamilyID, now)
	}
	u, err := tx.Users().Get(t.UserID)
	if err != nil {
		return Session{}, false, err
	}
	sess, err = s.issue(tx, u, t.FamilyID, now)
	return sess, false, err
}

// issue stores a new refresh token of the family and returns the session.
func (s *authService) issue(tx Tx, u User, family string, now time.Time) (Session, error) {
	raw := make([]byte, refreshTokenBytes)
	if _, err := io.ReadFull(s.random, raw); err != nil {
		return Session{}, err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	hash, _ := hashRefreshToken(token)
	t := RefreshToken{UserID: u.ID, FamilyID: family, TokenHash: hash, CreatedAt: now, ExpiresAt: now.Add(s.ttl)}
	if err := tx.RefreshTokens().Create(&t); err != nil {
		return Session{}, err
	}
	return Session{User: u, RefreshToken: token, RefreshExpiresAt: t.ExpiresAt}, nil
}

// Logout implements AuthService.
func (s *authService) Logout(ctx context.Context, refreshToken string) error {
	if err := needRefreshToken(refreshToken); err != nil {
		return err
	}
	hash, ok := hashRefreshToken(refreshToken)
	if !ok {
		return nil
	}
	return s.st.InTx(ctx, func(tx Tx) error {
		t, err := tx.RefreshTokens().ByHash(hash)
		if ErrorCode(err) == ENotFound {
			return nil
		}
		if err != nil {
			return err
		}
		return tx.RefreshTokens().RevokeFamily(t.FamilyID, s.now())
	})
}

// User implements AuthService.
func (s *authService) User(ctx context.Context, id int64) (User, error) {
	var u User
	err := s.st.ViewOne(ctx, func(tx Tx) error {
		var err error
		u, err = tx.Users().Get(id)
		return err
	})
	return u, err
}

// Actor implements AuthService.
func (s *authService) Actor(ctx context.Context, id int64) (Actor, error) {
	a, _, err := s.actor(ctx, id)
	return a, err
}

// errSessionEnded refuses an access token minted before a password reset.
var errSessionEnded = Errorf(EUnauthenticated, "the access token was issued before the password was reset; log in again")

// Authenticate implements AuthService. It is on the path of every
// authenticated request, so it answers from the cache when it can (see
// ActorTTL and ActorTTLHeard): the session check is one comparison more.
func (s *authService) Authenticate(ctx context.Context, id, session int64) (Actor, error) {
	a, current, err := s.actor(ctx, id)
	if err != nil {
		return Actor{}, err
	}
	// Not !=: a token minted after a reset on another process may reach
	// this one while its cache still holds the version from before.
	if session < current {
		return Actor{}, errSessionEnded
	}
	return a, nil
}

// actor is the user's Actor and session version, from the cache when it
// has them.
func (s *authService) actor(ctx context.Context, id int64) (Actor, int64, error) {
	if a, session, ok := s.actors.get(id); ok {
		return a, session, nil
	}
	gen := s.actors.generation()
	u, err := s.User(ctx, id)
	if err != nil {
		return Actor{}, 0, err
	}
	a := Actor{UserID: u.ID, SiteAdmin: u.SiteAdmin}
	s.actors.put(a, u.SessionVersion, gen)
	return a, u.SessionVersion, nil
}

// Follow implements AuthService.
func (s *authService) Follow(ctx context.Context) error {
	feed, ok := s.st.(UserFeed)
	if !ok {
		<-ctx.Done()
		return nil
	}
	return feed.FollowUsers(ctx, s.actors.forget, s.actors.listening)
}

// SetSiteAdmin implements AuthService. The site admins' rows are locked, so
// that two admins taking away each other's rights at once cannot leave the
// site without one.
func (s *authService) SetSiteAdmin(ctx context.Context, actor Actor, userID int64, admin bool) (User, error) {
	if err := mustBeSiteAdmin(actor); err != nil {
		return User{}, err
	}
	var u User
	err := s.st.InTx(ctx, func(tx Tx) error {
		var err error
		if u, err = tx.Users().Get(userID); err != nil {
			return err
		}
		if u.SiteAdmin == admin {
			return nil
		}
		if !admin {
			if err := keepASiteAdmin(tx, userID); err != nil {
				return err
			}
		}
		u.SiteAdmin, u.UpdatedAt = admin, s.now()
		return tx.Users().SetSiteAdmin(userID, admin, u.UpdatedAt)
	})
	s.actors.forget(userID) // after the commit (or the failure)
	if err != nil {
		return User{}, err
	}
	return u, nil
}

// DeleteUser implements AuthService.
func (s *authService) DeleteUser(ctx context.Context, actor Actor, userID int64) error {
	if actor.Anonymous() {
		return errLoginRequired
	}
	if actor.UserID != userID && !actor.SiteAdmin {
		return Errorf(EForbidden, "only a site admin may delete another user")
	}
	err := s.st.InTx(ctx, func(tx Tx) error {
		u, err := tx.Users().Get(userID)
		if err != nil {
			return err
		}
		if u.SiteAdmin {
			if err := keepASiteAdmin(tx, userID); err != nil {
				return err
			}
		}
		memberships, err := tx.Memberships().OfUser(userID)
		if err != nil {
			return err
		}
		for _, m := range memberships {
			if m.Role != RoleOwner {
				continue
			}
			if _, err := tx.Clubs().Lock(m.ClubID); err != nil {
				return err
			}
			if err := keepAnOwner(tx, m); ErrorCode(err) == EConflict {
				return Errorf(EConflict, "the user is the last owner of club %d: hand the club over first", m.ClubID)
			} else if err != nil {
				return err
			}
		}
		return tx.Users().Delete(userID)
	})
	s.actors.forget(userID)
	return err
}

func mustBeSiteAdmin(actor Actor) error {
	switch {
	case actor.Anonymous():
		return errLoginRequired
	case !actor.SiteAdmin:
		return Errorf(EForbidden, "only a site admin may do this")
	}
	return nil
}

// keepASiteAdmin returns EConflict when userID is the last site admin.
func keepASiteAdmin(tx Tx, userID int64) error {
	ids, err := tx.Users().LockSiteAdmins()
	if err != nil {
		return err
	}
	if len(ids) == 1 && ids[0] == userID {
		return Errorf(EConflict, "the last site admin cannot be removed or demoted")
	}
	return nil
}

// EnsureAdmin implements AuthService. If the email belongs to a user who is
// not a site admin, it returns EConflict rather than promote an account
// whose password the operator did not choose.
func (s *authService) EnsureAdmin(ctx context.Context, email, password string) (bool, error) {
	email = NormalizeEmail(email)
	var v Validator
	checkEmail(&v, "email", email)
	checkPassword(&v, "password", password)
	if err := v.Err(); err != nil {
		return false, err
	}
	hash, err := s.hasher.hash(password)
	if err != nil {
		return false, err
	}
	var created bool
	ensure := func(tx Tx) error {
		created, err = ensureAdmin(tx.Users(), email, hash, s.now())
		return err
	}
	// Several server processes starting at once race to create the admin;
	// the losers see a conflict, and then, checking again, the winner's
	// admin. A conflict that remains is a real one.
	if err = s.st.InTx(ctx, ensure); ErrorCode(err) == EConflict {
		err = s.st.InTx(ctx, ensure)
	}
	return created, err
}

// ResetPassword implements AuthService.
func (s *authService) ResetPassword(ctx context.Context, email, password string) (User, error) {
	email = NormalizeEmail(email)
	var v Validator
	checkEmail(&v, "email", email)
	checkPassword(&v, "password", password)
	if err := v.Err(); err != nil {
		return User{}, err
	}
	hash, err := s.hasher.hash(password)
	if err != nil {
		return User{}, err
	}
	var u User
	err = s.st.InTx(ctx, func(tx Tx) error {
		var err error
		if u, _, err = tx.Users().ByEmail(email); ErrorCode(err) == ENotFound {
			return Errorf(ENotFound, "no user with the e-mail address %s", email)
		} else if err != nil {
			return err
		}
		now := s.now()
		if err := tx.Users().SetPassword(u.ID, hash, now); err != nil {
			return err
		}
		u.SessionVersion++
		return tx.RefreshTokens().RevokeUser(u.ID, now)
	})
	if err == nil {
		s.actors.forget(u.ID) // after the commit
	}
	return u, err
}

func ensureAdmin(users UserRepo, email, hash string, now time.Time) (bool, error) {
	if exists, err := users.AnySiteAdmin(); err != nil || exists {
		return false, err
	}
	_, _, err := users.ByEmail(email)
	if err == nil {
		return false, Errorf(EConflict, "%s is registered to a user who is not a site admin", email)
	}
	if ErrorCode(err) != ENotFound {
		return false, err
	}
	name, _, _ := strings.Cut(email, "@")
	u := User{Email: email, Name: name, SiteAdmin: true, CreatedAt: now, UpdatedAt: now}
	return true, users.Create(&u, hash)
}

// hashRefreshToken returns the stored form of a token (hex SHA-256), and
// false when the token is not even well-formed.
func hashRefreshToken(token string) (string, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != refreshTokenBytes {
		return "", false
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:]), true
}

func (s *authService) randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.random, b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// needRefreshToken refuses a missing refresh token as invalid input, on
// refresh and on logout alike: a logout without one is a client's bug,
// not a session ended. A token sent but unknown is not refused here
// (refresh answers it 401; logout, idempotent, 204).
func needRefreshToken(token string) error {
	var v Validator
	v.Check(token != "", "refresh_token", "required", "refresh_token is required")
	return v.Err()
}
