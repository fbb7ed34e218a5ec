package store

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/burraco/burraco/domain"
)

// idempotencyRow is a stored first answer (migration 0012: one table for
// the answers to table moves and to tournament commands).
type idempotencyRow struct {
	OwnerID     int64  `gorm:"primaryKey"`
	IdemKey     string `gorm:"primaryKey"`
	Scope       string
	Fingerprint string
	Answer      string
	ExpiresAt   time.Time
}

func (idempotencyRow) TableName() string { return "idempotency_keys" }

type idempotencyRepo struct{ t *tx }

func (r idempotencyRepo) Get(ownerID int64, key string, now time.Time) (domain.IdempotentAnswer, error) {
	var row idempotencyRow
	err := r.t.db.Where("owner_id = ? AND idem_key = ? AND expires_at >= ?", ownerID, key, utc(now)).Take(&row).Error
	if err != nil {
		return domain.IdempotentAnswer{}, translate(err, "idempotency key")
	}
	return domain.IdempotentAnswer{OwnerID: row.OwnerID, Key: row.IdemKey, Scope: row.Scope, Fingerprint: row.Fingerprint,
		Answer: json.RawMessage(row.Answer), ExpiresAt: row.ExpiresAt.UTC()}, nil
}

// upsertAnswer is the statement that stores a unless its key is live at
// now: an upsert that replaces the key's row only when it has expired.
// It replaced a lookup, a DELETE and an INSERT: on PostgreSQL each is a
// round trip, and a move sent with a key made three more than one
// without. A live row is left as it is and the statement changes no row
// (RETURNING none); the WHERE is read under the row's lock, so of two
// transactions storing one key at once the second waits for the first
// and, when it commits, finds its row live.
//
// from "" stores a's row from VALUES (Put). On PostgreSQL from may name
// a WITH's result instead (e.g. a move's fence, "f"): the row is then
// stored only when that result has one, and the statement can be a
// data-modifying WITH of a larger one (kept AS (…) RETURNING 1), whose
// other writes read kept to write nothing when the key is live. Its
// placeholders are numbered after args' (which it extends).
func upsertAnswer(args *sqlArgs, a domain.IdempotentAnswer, now time.Time, from string) string {
	values := []any{a.OwnerID, a.Key, a.Scope, a.Fingerprint, string(a.Answer), utc(a.ExpiresAt)}
	types := []string{"bigint", "text", "text", "text", "text", "timestamptz"} // INSERT … SELECT learns no types from its columns
	ph := make([]string, len(values))
	for i, v := range values {
		ph[i] = args.add(v)
		if from != "" {
			ph[i] += "::" + types[i]
		}
	}
	source := "VALUES (" + strings.Join(ph, ", ") + ")"
	if from != "" {
		source = "SELECT " + strings.Join(ph, ", ") + " FROM " + from
	}
	return `INSERT INTO idempotency_keys (owner_id, idem_key, scope, fingerprint, answer, expires_at) ` + source + `
	ON CONFLICT (owner_id, idem_key) DO UPDATE SET scope = excluded.scope, fingerprint = excluded.fingerprint,
		answer = excluded.answer, expires_at = excluded.expires_at
	WHERE idempotency_keys.expires_at < ` + args.add(utc(now))
}

func (r idempotencyRepo) Put(a domain.IdempotentAnswer, now time.Time) (bool, error) {
	var args sqlArgs
	n, err := r.t.exec(upsertAnswer(&args, a, now, ""), args...)
	if err != nil {
		return false, translate(err, "idempotency key")
	}
	return n > 0, nil
}

// DeleteExpired deletes one batch, picked through the expires_at index:
// DELETE ... WHERE (owner_id, idem_key) IN (SELECT ... LIMIT n) reads the
// same on SQLite and PostgreSQL.
func (r idempotencyRepo) DeleteExpired(now time.Time, limit int) (int64, error) {
	batch := r.t.db.Model(&idempotencyRow{}).Select("owner_id, idem_key").Where("expires_at < ?", utc(now)).Limit(limit)
	res := r.t.db.Where("(owner_id, idem_key) IN (?)", batch).Delete(&idempotencyRow{})
	return res.RowsAffected, translate(res.Error, "idempotency key")
}
