package domain

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
)

// MaxLoadAccounts bounds LoadAccounts' one transaction.
const MaxLoadAccounts = 100_000

// loadAccountDomain is the mail domain every load account's email must be
// under: .test is reserved (RFC 6761) and no real address ends in it, so
// the operator's tool can never take a person's email.
const loadAccountDomain = ".test"

// LoadAccounts implements AuthService. A load test of a thousand tables
// signs up four thousand players; with each password hashed by argon2id
// (slow on purpose, at most GOMAXPROCS at once) their sign-ups and logins
// took twenty minutes. Here one hash is made, of a random password nobody
// is told, and shared: the accounts are reached by their sessions' refresh
// tokens only (POST /auth/refresh, the path every client takes every 15
// minutes), and no account of anyone else is touched, nor any setting of
// the server's hashing.
func (s *authService) LoadAccounts(ctx context.Context, emails []string) ([]Session, error) {
	norm, err := loadEmails(emails)
	if err != nil {
		return nil, err
	}
	raw := make([]byte, 32)
	if _, err := s.random.Read(raw); err != nil {
		return nil, err
	}
	hash, err := s.hasher.hash(base64.RawURLEncoding.EncodeToString(raw))
	if err != nil {
		return nil, err
	}
	sessions := make([]Session, 0, len(norm))
	err = s.st.InTx(ctx, func(tx Tx) error {
		sessions = sessions[:0] // a retried transaction starts over
		now := s.now()
		for _, email := range norm {
			u := User{Email: email, Name: email[:strings.IndexByte(email, '@')], CreatedAt: now, UpdatedAt: now}
			if err := tx.Users().Create(&u, hash); err != nil {
				return err
			}
			family, err := s.randomHex(16)
			if err != nil {
				return err
			}
			sess, err := s.issue(tx, u, family, now)
			if err != nil {
				return err
			}
			sessions = append(sessions, sess)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sessions, nil
}

// loadEmails normalizes the emails of LoadAccounts and checks them: valid,
// under .test, as many as MaxLoadAccounts at most, each once.
func loadEmails(emails []string) ([]string, error) {
	var v Validator
	if len(emails) == 0 || len(emails) > MaxLoadAccounts {
		v.Add("emails", "out_of_range", fmt.Sprintf("from 1 to %d emails", MaxLoadAccounts))
		return nil, v.Err()
	}
	norm := make([]string, len(emails))
	seen := make(map[string]bool, len(emails))
	for i, e := range emails {
		e = NormalizeEmail(e)
		field := fmt.Sprintf("emails[%d]", i)
		checkEmail(&v, field, e)
		switch {
		case v.Err() != nil:
		case !strings.HasSuffix(e, loadAccountDomain):
			v.Add(field, "invalid", "a load account's email is under the reserved domain .test")
		case seen[e]:
			v.Add(field, "duplicate", "given twice")
		}
		seen[e], norm[i] = true, e
		if v.Err() != nil {
			return nil, v.Err() // the first bad one is enough: thousands would bury it
		}
	}
	return norm, nil
}
