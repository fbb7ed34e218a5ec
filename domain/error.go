package domain

import (
	"errors"
	"fmt"

	"github.com/burraco/burraco/domain/tourney"
)

// Code is a stable, machine-readable error code. Codes are part of the API
// contract: frontends switch on them. Never rename one. The set is open:
// besides the codes below, the engine's rule codes (see RuleKind) and codes
// that later services define pass through to the client as they are; what
// the client is told beyond the code (the HTTP status) follows the error's
// Kind.
type Code string

// Kind is the class of a failure, which picks the HTTP status: the api
// package's one table of problems (api/problem.go) maps each kind to one
// status, which the domain does not know. Kinds are few and closed; codes
// are many and open.
type Kind string

// Kinds.
const (
	KindInvalid         Kind = "invalid"         // fields break the rules, see Fields
	KindUnauthenticated Kind = "unauthenticated" // no, bad or revoked credentials
	KindForbidden       Kind = "forbidden"       // authenticated but not allowed
	KindNotFound        Kind = "not_found"       // no such thing, or one the caller may not see
	KindConflict        Kind = "conflict"        // the state of the resource forbids it now
	KindRule            Kind = "rule"            // a move or input the rules of the game refuse
	KindRateLimited     Kind = "rate_limited"    // too many requests: retry later
	KindUnavailable     Kind = "unavailable"     // retry shortly
	KindInternal        Kind = "internal"        // logged, never echoed
)

// Error codes of the domain, each with its kind in codeKinds. An error that
// is not a *Error is an internal error (500, logged, never echoed).
const (
	EInvalid         Code = "invalid_input"        // KindInvalid: bad fields, see Fields
	EUnauthenticated Code = "unauthenticated"      // KindUnauthenticated: no or bad credentials/token
	EForbidden       Code = "forbidden"            // KindForbidden
	ENotFound        Code = "not_found"            // KindNotFound
	EConflict        Code = "conflict"             // KindConflict: e.g. email already registered
	EVersionConflict Code = "version_conflict"     // KindConflict: optimistic concurrency lost
	ETokenReused     Code = "refresh_token_reused" // KindUnauthenticated: a rotated refresh token was replayed; the family is revoked
	ERateLimited     Code = "rate_limited"         // KindRateLimited
	EUnavailable     Code = "unavailable"          // KindUnavailable: the database is busy (lock wait ran out)
	EInternal        Code = "internal"             // KindInternal

	// ETableOwnerMoved (KindUnavailable): with table leases (several
	// processes on PostgreSQL), this process no longer owns the table
	// whose request it serves: its write was fenced off, or its owner
	// could not be reached in time. Worth another try.
	ETableOwnerMoved Code = "table_owner_moved"

	// EIdempotencyKeyReused (KindInvalid): an Idempotency-Key (a table
	// move's, a tournament request's) sent again with another request.
	EIdempotencyKeyReused Code = "idempotency_key_reused"

	// ENotAReferee (KindInvalid): the user assigned as a tournament's
	// referee is not a member of its club with the referee role or higher.
	ENotAReferee Code = "not_a_referee"

	// ETooManyOpenTables (KindConflict): the user has created as many
	// tables not finished as one may (Config.MaxOpenTables).
	ETooManyOpenTables Code = "too_many_open_tables"

	// Rematches and rated tables (issue 29): EMatchNotOver (KindConflict),
	// a rematch asked before the match ended; ENotSeated (KindForbidden),
	// by one who did not play it; ERematchStarted (KindConflict), a wish
	// withdrawn after every player agreed and the rematch began;
	// ERatedWithBots (KindConflict), a bot seated at a rated table.
	EMatchNotOver   Code = "match_not_over"
	ENotSeated      Code = "not_seated"
	ERematchStarted Code = "rematch_started"
	ERatedWithBots  Code = "rated_with_bots"

	// Players join by themselves (issue 28): a club's invitation link
	// refused, a claim code refused.
	EInvitationExpired    Code = "invitation_expired"      // KindConflict: past its expiry
	EInvitationUsedUp     Code = "invitation_used_up"      // KindConflict: used as many times as it may be
	EInvitationRevoked    Code = "invitation_revoked"      // KindConflict: a director revoked it
	EClaimCodeInvalid     Code = "claim_code_invalid"      // KindInvalid: no profile has this code (a failed attempt)
	EProfileClaimed       Code = "profile_already_claimed" // KindConflict: another account has the profile
	EAlreadyHasProfile    Code = "already_has_profile"     // KindConflict: the account has a player profile already
	ENotAMember           Code = "not_a_member"            // KindForbidden: the profile's club is not the caller's
	ETooManyClaimAttempts Code = "too_many_claim_attempts" // KindRateLimited: too many failed claims this hour
	// ETournamentOfAnotherClub (KindInvalid): a season's exclusion names a
	// tournament of another club than the season's.
	ETournamentOfAnotherClub Code = "tournament_of_another_club"

	// EOwnTable (KindForbidden): a referee (or a director, a site admin, a
	// friendly table's creator) who sits at a table acts as its referee: a
	// stand-in, a time-out. Nobody referees a match they play (issue 27).
	EOwnTable Code = "own_table"

	// ETableCancelled (KindConflict): the table was closed before its match
	// started (by its creator, left by everyone, or not started in time):
	// nobody sits at it, and nothing is played there.
	ETableCancelled Code = "table_cancelled"

	// Claims and aborts at an online table (issue 29), all KindConflict:
	// EOpponentPresent, no opponent is gone (or, for an abort, nobody else
	// is); EWindowNotOver, an opponent is gone but their reconnect window
	// has not ended (Fields says when it does); EClaimNotAllowed, the
	// table's claim policy does not give what was claimed (none: no claims);
	// EAlreadyStarted, an abort after a player's first move;
	// EAbortNotAllowed, an abort at a tournament's table (a no-show there
	// is the tournament's matter: a claim or the grace period).
	EOpponentPresent Code = "opponent_present"
	EWindowNotOver   Code = "window_not_over"
	EClaimNotAllowed Code = "claim_not_allowed"
	EAlreadyStarted  Code = "already_started"
	EAbortNotAllowed Code = "abort_not_allowed"
)

// codeKinds is the kind of each of the domain's own codes.
var codeKinds = map[Code]Kind{
	EInvalid:         KindInvalid,
	EUnauthenticated: KindUnauthenticated,
	EForbidden:       KindForbidden,
	ENotFound:        KindNotFound,
	EConflict:        KindConflict,
	EVersionConflict: KindConflict,
	ETokenReused:     KindUnauthenticated,
	ERateLimited:     KindRateLimited,
	EUnavailable:     KindUnavailable,
	EInternal:        KindInternal,

	ETableOwnerMoved:      KindUnavailable,
	EIdempotencyKeyReused: KindInvalid,
	ENotAReferee:          KindInvalid,
	ETooManyOpenTables:    KindConflict,
	EMatchNotOver:         KindConflict,
	ENotSeated:            KindForbidden,
	ERematchStarted:       KindConflict,
	EStandingsNotFinal:    KindConflict,
	ERatedWithBots:        KindConflict,

	EInvitationExpired:       KindConflict,
	EInvitationUsedUp:        KindConflict,
	EInvitationRevoked:       KindConflict,
	EClaimCodeInvalid:        KindInvalid,
	EProfileClaimed:          KindConflict,
	EAlreadyHasProfile:       KindConflict,
	ENotAMember:              KindForbidden,
	ETooManyClaimAttempts:    KindRateLimited,
	ETournamentOfAnotherClub: KindInvalid,
	EOwnTable:                KindForbidden,
	ETableCancelled:          KindConflict,
	EOpponentPresent:         KindConflict,
	EWindowNotOver:           KindConflict,
	EClaimNotAllowed:         KindConflict,
	EAlreadyStarted:          KindConflict,
	EAbortNotAllowed:         KindConflict,
	EUnsupportedFormat:       KindInvalid,
}

// tourneyKinds is the domain's kind of each of the tourney package's kinds.
var tourneyKinds = map[tourney.Kind]Kind{
	tourney.KindInvalid:   KindInvalid,
	tourney.KindConflict:  KindConflict,
	tourney.KindForbidden: KindForbidden,
	tourney.KindNotFound:  KindNotFound,
}

// tourneyCodeKinds is the kind of each code of the tourney package (the
// refusals of a tournament's commands, which pass through to the client).
var tourneyCodeKinds = func() map[Code]Kind {
	out := map[Code]Kind{}
	for c, k := range tourney.Codes() {
		out[Code(c)] = tourneyKinds[k]
	}
	return out
}()

// KindOf returns the kind of a known code: one of the domain's own codes,
// an engine rule code or a tourney code. An unknown code is KindInternal.
func KindOf(code Code) Kind {
	if k, ok := codeKinds[code]; ok {
		return k
	}
	if k, ok := ruleKinds[engineCode(code)]; ok {
		return k
	}
	if k, ok := tourneyCodeKinds[code]; ok {
		return k
	}
	return KindInternal
}

// KnownCodes returns every code the domain gives its errors, its own, the
// engine's rule codes and the tourney package's codes, with their kinds:
// what the API documents.
func KnownCodes() map[Code]Kind {
	out := make(map[Code]Kind, len(codeKinds)+len(ruleKinds)+len(tourneyCodeKinds))
	for c, k := range tourneyCodeKinds {
		out[c] = k
	}
	for c, k := range ruleKinds {
		out[Code(c)] = k
	}
	for c, k := range codeKinds {
		out[c] = k
	}
	return out
}

// FieldError is one invalid input field.
type FieldError struct {
	Field   string // JSON name of the field, e.g. "email"
	Code    string // e.g. "required", "too_long", "invalid"
	Message string // human-readable
}

// Error is the one error type of the domain. Kind picks the HTTP status,
// Code is what the client switches on.
type Error struct {
	// Kind is the class of the failure; when empty (an Error built as a
	// literal with a known Code) it is KindOf(Code).
	Kind    Kind
	Code    Code
	Message string       // safe to show to the user
	Fields  []FieldError // for EInvalid: every invalid field, not just the first
	// Current is, for EVersionConflict, the version now stored (nil when
	// unknown), so that a client can resync without another read.
	Current *int64
	Err     error // the cause, for logs only; never shown
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns a *Error with a known code (its kind is KindOf(code)) and
// a formatted user-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Kind: KindOf(code), Code: code, Message: fmt.Sprintf(format, args...)}
}

// Newf returns a *Error of any kind and code, for codes of their own that
// services define (e.g. a conflict with its own code for a seat already
// taken), with a formatted user-safe message.
func Newf(kind Kind, code Code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err: its *Error's Code, or EInternal.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorKind returns the kind of err: its *Error's Kind (KindOf its Code
// when the Kind is empty), or KindInternal for any other error.
func ErrorKind(err error) Kind {
	var e *Error
	switch {
	case !errors.As(err, &e):
		return KindInternal
	case e.Kind != "":
		return e.Kind
	}
	return KindOf(e.Code)
}

// Validator collects field errors so that a request reports all of them.
type Validator struct{ fields []FieldError }

// Add records an invalid field.
func (v *Validator) Add(field, code, message string) {
	v.fields = append(v.fields, FieldError{Field: field, Code: code, Message: message})
}

// Check records an invalid field when ok is false.
func (v *Validator) Check(ok bool, field, code, message string) {
	if !ok {
		v.Add(field, code, message)
	}
}

// Err returns an EInvalid *Error listing every recorded field, or nil.
func (v *Validator) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return &Error{Kind: KindInvalid, Code: EInvalid, Message: "some fields are invalid", Fields: v.fields}
}
