package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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
	// Put stores an answer, replacing an expired one of the same owner
	// and key. Errors: ENotFound (the owner is missing).
	Put(a IdempotentAnswer) error
	// DeleteExpired deletes at most limit answers expired before now and
	// returns how many it deleted (fewer than limit: no more are left).
	DeleteExpired(now time.Time, limit int) (int64, error)
}

// idempotentRequest is a request as its Idempotency-Key knows it: a
// service builds one per request, looks the key up with replay before it
// acts, and stores its answer with remember in the same transaction, so a
// retry finds the answer exactly when the first request committed. The
// zero key (no Idempotency-Key sent) makes both do nothing.
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

// replay loads the first answer to the request into answer and reports
// whether there was one. Errors: EIdempotencyKeyReused (the key was sent
// with another request).
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
	if err := json.Unmarshal(prior.Answer, answer); err != nil {
		return false, fmt.Errorf("the answer stored under Idempotency-Key %q: %w", r.key, err)
	}
	return true, nil
}

// remember stores answer as the request's first answer, kept
// IdempotencyTTL from now.
func (r idempotentRequest) remember(tx Tx, now time.Time, answer any) error {
	if r.key == "" {
		return nil
	}
	b, err := json.Marshal(answer)
	if err != nil {
		return err
	}
	return tx.Idempotency().Put(IdempotentAnswer{OwnerID: r.owner, Key: r.key, Scope: r.scope,
		Fingerprint: r.fingerprint, Answer: b, ExpiresAt: now.Add(IdempotencyTTL)})
}
