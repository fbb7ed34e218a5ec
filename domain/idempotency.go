package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// IdempotencyTTL is how long an Idempotency-Key is remembered.
const IdempotencyTTL = 24 * time.Hour

// MaxIdempotencyKeyLength bounds an Idempotency-Key.
const MaxIdempotencyKeyLength = 200

// IdempotentAnswer is the stored first answer to a request sent with an
// Idempotency-Key, whatever the request addressed (a table's move, a
// tournament's command). A key is its owner's: one key, one request.
type IdempotentAnswer struct {
	OwnerID int64
	Key     string
	// Scope names what the request addressed ("tables/12",
	// "tournaments/5"); Fingerprint identifies the request itself. A retry
	// matches when both do.
	Scope       string
	Fingerprint string
	Answer      json.RawMessage // what the first request answered, as JSON
	ExpiresAt   time.Time
}

// IdempotencyRepo stores the first answers to requests sent with an
// Idempotency-Key (one store for every kind of request).
type IdempotencyRepo interface {
	// Get returns the answer stored under an owner's key that has not
	// expired at now. Errors: ENotFound.
	Get(ownerID int64, key string, now time.Time) (IdempotentAnswer, error)
	// Put stores an answer unless one of the same owner and key is live
	// at now (expires at or after it), which it leaves as it is; an
	// expired one it replaces. It reports whether it stored a. Errors:
	// ENotFound (the owner is missing).
	Put(a IdempotentAnswer, now time.Time) (bool, error)
	// DeleteExpired deletes at most limit answers expired before now and
	// returns how many it deleted (fewer than limit: no more are left).
	DeleteExpired(now time.Time, limit int) (int64, error)
}

// idempotentRequest is a request as its Idempotency-Key knows it: a
// service builds one per request and, in the transaction that acts on
// it, either looks the key up with replay before it acts and stores its
// answer with remember (a tournament's command), or acts first and lets
// remember and replayFailed find an earlier answer (a table's move:
// replayFailed), so that a retry finds the answer exactly when the first
// request committed. The zero key (no Idempotency-Key sent) makes each do
// nothing.
type idempotentRequest struct {
	owner       int64
	key         string
	scope       string
	fingerprint string
}

// newIdempotentRequest names the request the owner sent under key to scope;
// parts are what tells it from another request to the same scope. The
// fingerprint hashes the parts joined by new lines: the tables' and the
// tournaments' own hashes before they shared this store, so that answers
// stored before it replay after it. Without a key there is nothing to
// hash.
func newIdempotentRequest(owner int64, key, scope string, parts ...string) idempotentRequest {
	if key == "" {
		return idempotentRequest{}
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\n")))
	return idempotentRequest{owner: owner, key: key, scope: scope, fingerprint: hex.EncodeToString(sum[:])}
}

// tableScope and tournamentScope are the scopes of requests to a table
// and to a tournament.
func tableScope(id int64) string      { return fmt.Sprintf("tables/%d", id) }
func tournamentScope(id int64) string { return fmt.Sprintf("tournaments/%d", id) }

// checkIdempotencyKey records a key too long to store in v.
func checkIdempotencyKey(v *Validator, key string) {
	v.Check(len(key) <= MaxIdempotencyKeyLength, "Idempotency-Key", "too_long",
		fmt.Sprintf("Idempotency-Key must be at most %d characters", MaxIdempotencyKeyLength))
}

// errAnsweredBefore ends a transaction that acted on a request and then
// found it answered before under its key (remember, replayFailed): the
// transaction rolls back what it did, and the caller answers the first
// answer, which they loaded.
var errAnsweredBefore = errors.New("the request was answered before under its Idempotency-Key")

// answeredBefore reports whether err is errAnsweredBefore, and the error
// left when it is not.
func answeredBefore(err error) (bool, error) {
	if errors.Is(err, errAnsweredBefore) {
		return true, nil
	}
	return false, err
}

// replay loads the first answer to the request into answer (a pointer,
// set to the stored answer whatever it held) and reports whether there
// was one. Errors: EIdempotencyKeyReused (the key was sent with another
// request).
func (r idempotentRequest) replay(tx Tx, now time.Time, answer any) (bool, error) {
	if r.key == "" {
		return false, nil
	}
	prior, err := tx.Idempotency().Get(r.owner, r.key, now)
	switch {
	case ErrorCode(err) == ENotFound:
		return false, nil
	case err != nil:
		return false, err
	case prior.Scope != r.scope || prior.Fingerprint != r.fingerprint:
		return false, Errorf(EIdempotencyKeyReused, "this Idempotency-Key was used for another request; use a new key for each request")
	}
	v := reflect.ValueOf(answer)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return false, fmt.Errorf("the answer stored under Idempotency-Key %q: %T is no place to load it", r.key, answer)
	}
	v.Elem().SetZero() // a field the stored answer omits is not the one answer held
	if err := json.Unmarshal(prior.Answer, answer); err != nil {
		return false, fmt.Errorf("the answer stored under Idempotency-Key %q: %w", r.key, err)
	}
	return true, nil
}

// replayFailed is what a request that acted before looking its key up
// answers when it failed with failed: a retry of a request that was
// played is usually refused by what the first one changed (a move's
// version has moved on), and must be answered the first answer instead
// (errAnsweredBefore, answer loaded), or EIdempotencyKeyReused when the
// key was another request's; otherwise failed. The lookup runs in the
// failed transaction: when that cannot read any more (a PostgreSQL
// transaction aborted by a failed statement), failed is the answer, as it
// is when the key is unknown.
func (r idempotentRequest) replayFailed(tx Tx, now time.Time, failed error, answer any) error {
	if r.key == "" {
		return failed
	}
	ok, err := r.replay(tx, now, answer)
	switch {
	case ErrorCode(err) == EIdempotencyKeyReused:
		return err
	case err != nil || !ok:
		return failed
	}
	return errAnsweredBefore
}

// remember stores the answer answer points to as the request's first
// answer, kept IdempotencyTTL from now, in one statement. When the key
// holds a live answer already (a request that acted before looking its
// key up: another request's key, or, for a request that can act twice,
// its own first answer), nothing is stored: EIdempotencyKeyReused, or
// errAnsweredBefore with the first answer loaded into answer.
func (r idempotentRequest) remember(tx Tx, now time.Time, answer any) error {
	if r.key == "" {
		return nil
	}
	a, err := r.answer(now, answer)
	if err != nil {
		return err
	}
	stored, err := tx.Idempotency().Put(a, now)
	if err != nil || stored {
		return err
	}
	ok, err := r.replay(tx, now, answer)
	switch {
	case err != nil:
		return err
	case !ok: // not live at now for Put, yet no longer there: nothing to answer but a conflict
		return Errorf(EConflict, "the answer stored under this Idempotency-Key changed meanwhile; send the request again")
	}
	return errAnsweredBefore
}

// answer is the row that stores answer as the request's first answer,
// kept IdempotencyTTL from now (remember's; a store that writes a request
// in one statement of its own may carry it likewise).
func (r idempotentRequest) answer(now time.Time, answer any) (IdempotentAnswer, error) {
	b, err := json.Marshal(answer)
	if err != nil {
		return IdempotentAnswer{}, err
	}
	return IdempotentAnswer{OwnerID: r.owner, Key: r.key, Scope: r.scope, Fingerprint: r.fingerprint, Answer: b,
		ExpiresAt: now.Add(IdempotencyTTL)}, nil
}
