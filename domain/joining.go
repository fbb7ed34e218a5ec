package domain

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
)

// Players join by themselves (issue 28): a club's directors invite people
// with a link (an Invitation), a person claims the profile a director made
// for them with its claim code, and directors import their club's list of
// players.

// Invitation is a link that makes whoever opens it (signed in) a member of
// a club. Only the SHA-256 of its token is stored: the token itself is
// shown once, to the director who created it.
type Invitation struct {
	ID        int64
	ClubID    int64
	ClubName  string
	TokenHash string
	CreatedBy *int64
	ExpiresAt *time.Time
	MaxUses   *int
	Uses      int
	RevokedAt *time.Time
	CreatedAt time.Time
}

// Refusal is why the invitation no longer makes members at now: "" when it
// does, otherwise EInvitationRevoked, EInvitationExpired or
// EInvitationUsedUp (in that order, the first that holds).
func (i Invitation) Refusal(now time.Time) Code {
	switch {
	case i.RevokedAt != nil:
		return EInvitationRevoked
	case i.ExpiresAt != nil && !now.Before(*i.ExpiresAt):
		return EInvitationExpired
	case i.MaxUses != nil && i.Uses >= *i.MaxUses:
		return EInvitationUsedUp
	}
	return ""
}

// InvitationInput creates an invitation: both limits are optional.
type InvitationInput struct {
	ExpiresAt *time.Time
	MaxUses   *int
}

// NewInvitation is a created invitation with its token, which is not
// stored and cannot be read again.
type NewInvitation struct {
	Invitation
	Token string
}

// InvitationPreview is what anyone holding the link may know of it: the
// club's name and whether it still works (Refusal "" when it does).
type InvitationPreview struct {
	ClubID   int64
	ClubName string
	Refusal  Code
}

// Joined is the membership an accepted invitation gave (or the one the
// person already had: Already).
type Joined struct {
	Membership
	Already bool
}

// ClaimCode is a club's profile as its directors see it for claims: the
// code of a profile without an account, or that it is claimed (Code "").
type ClaimCode struct {
	PlayerID     int64
	Name         string
	FederationID *string
	Code         string
	Claimed      bool
}

// ClaimAlphabet is what claim codes are written with: 31 letters and
// digits not mistaken for one another on a printed card (no 0/O, 1/I/L).
const ClaimAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// ClaimCodeLength is the length of a claim code: 31^8 (about 8.5e11)
// codes, against MaxClaimFailures guesses an hour per account and per
// address.
const ClaimCodeLength = 8

// MaxClaimFailures is how many failed claims an account, or an address,
// may make in ClaimFailureWindow; the next is refused with
// ETooManyClaimAttempts until the oldest leaves the window.
const MaxClaimFailures = 10

// ClaimFailureWindow is the window of MaxClaimFailures.
const ClaimFailureWindow = time.Hour

// InvitationTokenBytes is the randomness of an invitation's token (128
// bits), written as 22 characters of unpadded base64url.
const InvitationTokenBytes = 16

// MaxInvitationUses bounds an invitation's max_uses.
const MaxInvitationUses = 10000

// JoinRepo stores invitations, claim codes and failed claims.
type JoinRepo interface {
	// CreateInvitation inserts inv and sets its ID. Errors: ENotFound
	// (club), EConflict (token hash taken).
	CreateInvitation(inv *Invitation) error
	// Invitation returns an invitation of a club. Errors: ENotFound.
	Invitation(clubID, id int64) (Invitation, error)
	// InvitationByHash returns the invitation whose token has this hash,
	// with its club's name. Errors: ENotFound.
	InvitationByHash(tokenHash string) (Invitation, error)
	// Invitations lists a club's invitations, newest first.
	Invitations(clubID int64) ([]Invitation, error)
	// RevokeInvitation marks it revoked (kept as it is when it was).
	// Errors: ENotFound.
	RevokeInvitation(id int64, at time.Time) error
	// UseInvitation counts one use if the invitation has uses left, and
	// reports whether it did: two people taking the last use at once get
	// one true and one false.
	UseInvitation(id int64) (bool, error)
	// LinkPlayer gives a profile without an account to the user, and
	// reports whether it did: false when it has an account (another claim
	// came first). Errors: EConflict (the user has a profile).
	LinkPlayer(playerID, userID int64, at time.Time) (bool, error)
	// SetClaimCode sets (or, nil, clears) a player's claim code. Errors:
	// ENotFound, EConflict (the code is taken).
	SetClaimCode(playerID int64, code *string) error
	// ByClaimCode returns the player with this claim code. Errors:
	// ENotFound.
	ByClaimCode(code string) (Player, error)
	// ClaimCodes lists the club's profiles by name: the code of each one
	// without an account, and which are claimed.
	ClaimCodes(clubID int64) ([]ClaimCode, error)
	// NoteClaimFailure records a failed claim.
	NoteClaimFailure(userID int64, address string, at time.Time) error
	// ClaimFailures counts the failed claims since a time, of the user and
	// of the address.
	ClaimFailures(userID int64, address string, since time.Time) (byUser, byAddress int, err error)
	// DeleteClaimFailures deletes at most limit failed claims made before
	// the given time and returns how many it deleted.
	DeleteClaimFailures(before time.Time, limit int) (int64, error)
	// ClubPlayers lists every profile of a club, by id.
	ClubPlayers(clubID int64) ([]Player, error)
	// ByFederationID returns the profile with this federation id. Errors:
	// ENotFound.
	ByFederationID(federationID string) (Player, error)
}

// JoinService lets people join clubs and claim their profiles, and
// directors invite them and import their players. Authorisation: a club's
// admins and owners (and site admins) manage its invitations, see its
// claim codes, unlink a claimed profile and import players; anyone
// holding an invitation's link previews it; any signed-in user accepts
// one and claims a profile of a club they are a member of.
type JoinService interface {
	// CreateInvitation creates an invitation of the club. Errors:
	// EUnauthenticated, ENotFound, EForbidden, EInvalid (an expiry not in
	// the future, max_uses outside 1..MaxInvitationUses).
	CreateInvitation(ctx context.Context, actor Actor, clubID int64, in InvitationInput) (NewInvitation, error)
	// Invitations lists the club's invitations, newest first. Errors: as
	// CreateInvitation.
	Invitations(ctx context.Context, actor Actor, clubID int64) ([]Invitation, error)
	// RevokeInvitation revokes one (again: no change). Errors: as
	// CreateInvitation.
	RevokeInvitation(ctx context.Context, actor Actor, clubID, id int64) (Invitation, error)
	// PreviewInvitation tells what the link is for. Errors: ENotFound (no
	// such token).
	PreviewInvitation(ctx context.Context, token string) (InvitationPreview, error)
	// AcceptInvitation makes the actor a member (role member) of the
	// invitation's club, counting one use. Someone already a member gets
	// their membership, Already set, and no use is counted. Errors:
	// EUnauthenticated, ENotFound, EInvitationRevoked,
	// EInvitationExpired, EInvitationUsedUp.
	AcceptInvitation(ctx context.Context, actor Actor, token string) (Joined, error)
	// ClaimCodes lists the club's profiles with the code of each one
	// without an account, and which are claimed (to unlink a wrong
	// claim). Errors: as CreateInvitation.
	ClaimCodes(ctx context.Context, actor Actor, clubID int64) ([]ClaimCode, error)
	// Claim links the profile with this code to the actor, its history
	// with it; address is the caller's network address. Claiming one's
	// own profile again answers it. Errors: EUnauthenticated,
	// ETooManyClaimAttempts (MaxClaimFailures failures in the last
	// ClaimFailureWindow by this account or from this address),
	// EClaimCodeInvalid (no such code: counted as a failure),
	// EProfileClaimed, ENotAMember (of the profile's club),
	// EAlreadyHasProfile.
	Claim(ctx context.Context, actor Actor, address, code string) (Player, error)
	// Unlink undoes a claim: the profile loses its account and gets a new
	// claim code. Its club's directors and site admins may. Errors:
	// EUnauthenticated, ENotFound, EForbidden.
	Unlink(ctx context.Context, actor Actor, playerID int64) (Player, error)
	// ImportPlayers reads a CSV list of players into the club (see
	// ParsePlayerCSV) and reports what it did, or with dryRun what it
	// would do, line by line. Errors: as CreateInvitation; EInvalid when
	// the file cannot be read as CSV or has no name column.
	ImportPlayers(ctx context.Context, actor Actor, clubID int64, csv io.Reader, dryRun bool) (ImportReport, error)
}

// joinService implements JoinService.
type joinService struct {
	st     Storage
	now    func() time.Time
	random io.Reader
}

// HashInvitationToken is what is stored of a token.
func HashInvitationToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// newClaimCode draws a claim code: each character uniform over
// ClaimAlphabet (bytes past the last whole multiple of its length are
// drawn again).
func newClaimCode(random io.Reader) (string, error) {
	out := make([]byte, 0, ClaimCodeLength)
	var b [16]byte
	limit := 256 - 256%len(ClaimAlphabet)
	for len(out) < ClaimCodeLength {
		if _, err := io.ReadFull(random, b[:]); err != nil {
			return "", fmt.Errorf("claim code: %w", err)
		}
		for _, c := range b {
			if int(c) < limit && len(out) < ClaimCodeLength {
				out = append(out, ClaimAlphabet[int(c)%len(ClaimAlphabet)])
			}
		}
	}
	return string(out), nil
}

// NormalizeClaimCode is how a typed code is compared: upper case, without
// spaces or dashes (a card may print it as ABCD-EFGH).
func NormalizeClaimCode(code string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(code) {
		if r != ' ' && r != '-' && r != '\t' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// wellFormedClaimCode reports whether a normalised code could be one.
func wellFormedClaimCode(code string) bool {
	if len(code) != ClaimCodeLength {
		return false
	}
	for _, r := range code {
		if !strings.ContainsRune(ClaimAlphabet, r) {
			return false
		}
	}
	return true
}

// clubDirected loads a club the actor directs. Errors: EUnauthenticated,
// ENotFound, EForbidden.
func clubDirected(tx Tx, actor Actor, clubID int64) error {
	if actor.Anonymous() {
		return errLoginRequired
	}
	_, err := accessFor(tx, actor).clubToManage(clubID, readClub)
	return err
}

// CreateInvitation implements JoinService.
func (s *joinService) CreateInvitation(ctx context.Context, actor Actor, clubID int64, in InvitationInput) (NewInvitation, error) {
	if actor.Anonymous() {
		return NewInvitation{}, errLoginRequired
	}
	now := s.now()
	raw := make([]byte, InvitationTokenBytes)
	if _, err := io.ReadFull(s.random, raw); err != nil {
		return NewInvitation{}, fmt.Errorf("invitation token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	inv := Invitation{ClubID: clubID, TokenHash: HashInvitationToken(token), CreatedBy: &actor.UserID,
		MaxUses: in.MaxUses, CreatedAt: now}
	if in.ExpiresAt != nil {
		at := in.ExpiresAt.UTC().Truncate(time.Microsecond)
		inv.ExpiresAt = &at
	}
	err := s.st.InTx(ctx, func(tx Tx) error {
		// The caller's right first: whoever may not invite is told so,
		// whatever the body (as every director-only route does).
		if err := clubDirected(tx, actor, clubID); err != nil {
			return err
		}
		if err := checkInvitation(in, now); err != nil {
			return err
		}
		return tx.Joins().CreateInvitation(&inv)
	})
	if err != nil {
		return NewInvitation{}, err
	}
	return NewInvitation{Invitation: inv, Token: token}, nil
}

// checkInvitation lists every bad limit of an invitation created at now.
func checkInvitation(in InvitationInput, now time.Time) error {
	var v Validator
	v.Check(in.ExpiresAt == nil || in.ExpiresAt.After(now), "expires_at", "out_of_range", "expires_at must be in the future")
	v.Check(in.MaxUses == nil || (*in.MaxUses >= 1 && *in.MaxUses <= MaxInvitationUses), "max_uses", "out_of_range",
		fmt.Sprintf("max_uses must be 1..%d", MaxInvitationUses))
	return v.Err()
}

// Invitations implements JoinService.
func (s *joinService) Invitations(ctx context.Context, actor Actor, clubID int64) ([]Invitation, error) {
	var out []Invitation
	err := s.st.View(ctx, func(tx Tx) error {
		if err := clubDirected(tx, actor, clubID); err != nil {
			return err
		}
		var err error
		out, err = tx.Joins().Invitations(clubID)
		return err
	})
	return out, err
}

// RevokeInvitation implements JoinService.
func (s *joinService) RevokeInvitation(ctx context.Context, actor Actor, clubID, id int64) (Invitation, error) {
	var inv Invitation
	err := s.st.InTx(ctx, func(tx Tx) error {
		if err := clubDirected(tx, actor, clubID); err != nil {
			return err
		}
		if err := tx.Joins().RevokeInvitation(id, s.now()); err != nil {
			return err
		}
		var err error
		inv, err = tx.Joins().Invitation(clubID, id)
		return err
	})
	return inv, err
}

// invitationByToken finds the invitation of a token. Errors: ENotFound.
func invitationByToken(tx Tx, token string) (Invitation, error) {
	inv, err := tx.Joins().InvitationByHash(HashInvitationToken(token))
	if ErrorCode(err) == ENotFound {
		return Invitation{}, Errorf(ENotFound, "no such invitation")
	}
	return inv, err
}

// PreviewInvitation implements JoinService.
func (s *joinService) PreviewInvitation(ctx context.Context, token string) (InvitationPreview, error) {
	var inv Invitation
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		inv, err = invitationByToken(tx, token)
		return err
	})
	if err != nil {
		return InvitationPreview{}, err
	}
	return InvitationPreview{ClubID: inv.ClubID, ClubName: inv.ClubName, Refusal: inv.Refusal(s.now())}, nil
}

// invitationRefused is the error of a refusal code.
func invitationRefused(code Code) error {
	switch code {
	case EInvitationRevoked:
		return Errorf(code, "this invitation was revoked by the club")
	case EInvitationExpired:
		return Errorf(code, "this invitation has expired")
	}
	return Errorf(EInvitationUsedUp, "this invitation has been used as many times as it may")
}

// AcceptInvitation implements JoinService.
func (s *joinService) AcceptInvitation(ctx context.Context, actor Actor, token string) (Joined, error) {
	if actor.Anonymous() {
		return Joined{}, errLoginRequired
	}
	var j Joined
	err := s.st.InTx(ctx, func(tx Tx) error {
		inv, err := invitationByToken(tx, token)
		if err != nil {
			return err
		}
		// A member opening the link again (a second tap, a reload) is
		// answered as the first time, whatever the invitation's state.
		if m, err := tx.Memberships().Get(inv.ClubID, actor.UserID); err == nil {
			j = Joined{Membership: m, Already: true}
			return nil
		} else if ErrorCode(err) != ENotFound {
			return err
		}
		if code := inv.Refusal(s.now()); code != "" {
			return invitationRefused(code)
		}
		if ok, err := tx.Joins().UseInvitation(inv.ID); err != nil || !ok {
			return orDenied(err, invitationRefused(EInvitationUsedUp))
		}
		m := Membership{ClubID: inv.ClubID, UserID: actor.UserID, Role: RoleMember, CreatedAt: s.now()}
		if err := tx.Memberships().Create(&m); err != nil {
			return err
		}
		m, err = tx.Memberships().Get(inv.ClubID, actor.UserID)
		j = Joined{Membership: m}
		return err
	})
	return j, err
}

// ClaimCodes implements JoinService.
func (s *joinService) ClaimCodes(ctx context.Context, actor Actor, clubID int64) ([]ClaimCode, error) {
	var out []ClaimCode
	err := s.st.View(ctx, func(tx Tx) error {
		if err := clubDirected(tx, actor, clubID); err != nil {
			return err
		}
		var err error
		out, err = tx.Joins().ClaimCodes(clubID)
		return err
	})
	return out, err
}

// Claim implements JoinService. A failure is recorded in a transaction
// that commits (the refusal is returned after it), so that guesses count
// however they end.
func (s *joinService) Claim(ctx context.Context, actor Actor, address, code string) (Player, error) {
	if actor.Anonymous() {
		return Player{}, errLoginRequired
	}
	code = NormalizeClaimCode(code)
	var p Player
	failed := false
	err := s.st.InTx(ctx, func(tx Tx) error {
		now := s.now()
		byUser, byAddress, err := tx.Joins().ClaimFailures(actor.UserID, address, now.Add(-ClaimFailureWindow))
		if err != nil {
			return err
		}
		if byUser >= MaxClaimFailures || byAddress >= MaxClaimFailures {
			return Errorf(ETooManyClaimAttempts, "too many wrong codes; try again in an hour")
		}
		if wellFormedClaimCode(code) {
			p, err = tx.Joins().ByClaimCode(code)
		} else {
			err = Errorf(ENotFound, "no such code")
		}
		if ErrorCode(err) == ENotFound {
			failed = true
			return tx.Joins().NoteClaimFailure(actor.UserID, address, now)
		}
		if err != nil {
			return err
		}
		return s.link(tx, actor, &p, now)
	})
	if err == nil && failed {
		err = Errorf(EClaimCodeInvalid, "no profile has this code; check it with the club's director")
	}
	if err != nil {
		return Player{}, err
	}
	return p, nil
}

// link gives the profile p to the actor.
func (s *joinService) link(tx Tx, actor Actor, p *Player, now time.Time) error {
	if p.UserID != nil {
		if *p.UserID == actor.UserID {
			return nil // claimed before by the same person: answered again
		}
		return Errorf(EProfileClaimed, "this profile belongs to another account; ask the club's director")
	}
	if ok, err := accessFor(tx, actor).canClaimPlayer(*p); err != nil || !ok {
		return orDenied(err, Errorf(ENotAMember, "join the club first (with its invitation), then enter the code"))
	}
	ids, err := tx.Players().IDsOfUser(actor.UserID)
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		return Errorf(EAlreadyHasProfile, "your account has a player profile already; ask the club's director")
	}
	// Conditional: of two claims at once (PostgreSQL runs them side by
	// side), the second finds the profile taken.
	ok, err := tx.Joins().LinkPlayer(p.ID, actor.UserID, now)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(EProfileClaimed, "this profile belongs to another account; ask the club's director")
	}
	p.UserID, p.UpdatedAt = &actor.UserID, now
	return nil
}

// Unlink implements JoinService.
func (s *joinService) Unlink(ctx context.Context, actor Actor, playerID int64) (Player, error) {
	if actor.Anonymous() {
		return Player{}, errLoginRequired
	}
	code, err := newClaimCode(s.random)
	if err != nil {
		return Player{}, err
	}
	var p Player
	err = s.st.InTx(ctx, func(tx Tx) error {
		var err error
		if p, err = tx.Players().Get(playerID); err != nil {
			return err
		}
		if ok, err := accessFor(tx, actor).canUnlinkPlayer(p); err != nil || !ok {
			return orDenied(err, Errorf(EForbidden, "only the directors of the player's club may unlink it"))
		}
		p.UserID, p.UpdatedAt = nil, s.now()
		if err := tx.Players().Update(p); err != nil {
			return err
		}
		return tx.Joins().SetClaimCode(p.ID, &code)
	})
	if err != nil {
		return Player{}, err
	}
	return p, nil
}

// giveClaimCode gives a new profile without an account its claim code.
func giveClaimCode(tx Tx, random io.Reader, p Player) error {
	if p.UserID != nil {
		return nil
	}
	code, err := newClaimCode(random)
	if err != nil {
		return err
	}
	return tx.Joins().SetClaimCode(p.ID, &code)
}
