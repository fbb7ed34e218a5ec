package domain

import (
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// PasswordParams are the argon2id parameters of new password hashes.
// Existing hashes keep the parameters they were made with (they are encoded
// in the hash), so raising them never locks anybody out.
type PasswordParams struct {
	Memory      uint32 // KiB
	Iterations  uint32
	Parallelism uint8
	SaltLength  uint32 // bytes
	KeyLength   uint32 // bytes
}

// DefaultPasswordParams follow the OWASP minimum for argon2id
// (m=19 MiB, t=2, p=1).
var DefaultPasswordParams = PasswordParams{Memory: 19 * 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// TestPasswordParams are cheap parameters for tests. Never use them in
// production.
var TestPasswordParams = PasswordParams{Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// withDefaults fills zero fields from DefaultPasswordParams.
func (p PasswordParams) withDefaults() PasswordParams {
	d := DefaultPasswordParams
	if p.Memory == 0 {
		p.Memory = d.Memory
	}
	if p.Iterations == 0 {
		p.Iterations = d.Iterations
	}
	if p.Parallelism == 0 {
		p.Parallelism = d.Parallelism
	}
	if p.SaltLength == 0 {
		p.SaltLength = d.SaltLength
	}
	if p.KeyLength == 0 {
		p.KeyLength = d.KeyLength
	}
	return p
}

// passwordHasher makes and checks argon2id hashes in the PHC string format:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key> (unpadded standard base64).
type passwordHasher struct {
	params PasswordParams
	random io.Reader
	// slots bounds the hashes computed at once (nil: no bound). Each holds
	// params.Memory (19 MiB by default) while it runs: a sign-in storm of
	// a hundred players at once held 1.9 GB, and the process's resident set
	// stayed that large long after (issue 30's load runs: 400 MB with 8
	// sign-ups at a time). Hashing is CPU-bound, so more at once than the
	// CPUs finishes none sooner.
	slots chan struct{}
	// derive is argon2.IDKey (nil), or a recorder in tests.
	derive func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte

	dummyOnce sync.Once
	dummy     string // a hash to check against when the user is unknown
}

func (h *passwordHasher) hash(password string) (string, error) {
	p := h.params
	salt := make([]byte, p.SaltLength)
	if _, err := io.ReadFull(h.random, salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	key := h.key(password, salt, p, p.KeyLength)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Iterations, p.Parallelism, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// verify reports whether password matches encoded, in constant time.
func (h *passwordHasher) verify(password, encoded string) bool {
	p, salt, key, err := decodeHash(encoded)
	if err != nil {
		return false
	}
	got := h.key(password, salt, p, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1
}

// key derives the argon2id key of password, in one of the hasher's slots.
func (h *passwordHasher) key(password string, salt []byte, p PasswordParams, keyLen uint32) []byte {
	if h.slots != nil {
		h.slots <- struct{}{}
		defer func() { <-h.slots }()
	}
	derive := h.derive
	if derive == nil {
		derive = argon2.IDKey
	}
	return derive([]byte(password), salt, p.Iterations, p.Memory, p.Parallelism, keyLen)
}

// spend checks password against a throw-away hash, so that a login for an
// unknown email takes as long as one with a wrong password.
func (h *passwordHasher) spend(password string) {
	h.prepare()
	h.verify(password, h.dummy)
}

// prepare makes the throw-away hash; NewServices calls it, so that the
// first unknown-email login is not slower than the others.
func (h *passwordHasher) prepare() {
	h.dummyOnce.Do(func() {
		h.dummy, _ = h.hash("burraco-dummy-password")
	})
}

var errBadHash = errors.New("malformed password hash")

func decodeHash(encoded string) (p PasswordParams, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, nil, nil, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Iterations, &p.Parallelism); err != nil {
		return p, nil, nil, errBadHash
	}
	b64 := base64.RawStdEncoding
	if salt, err = b64.DecodeString(parts[4]); err != nil {
		return p, nil, nil, errBadHash
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) == 0 {
		return p, nil, nil, errBadHash
	}
	return p, salt, key, nil
}
