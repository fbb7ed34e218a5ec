package store

import (
	"encoding/json"
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

// Put deletes before it inserts: the key's row, if any, has expired (the
// service looked it up in the same transaction), and an insert alone
// would collide with it until the purge.
func (r idempotencyRepo) Put(a domain.IdempotentAnswer) error {
	if err := r.t.db.Where("owner_id = ? AND idem_key = ?", a.OwnerID, a.Key).Delete(&idempotencyRow{}).Error; err != nil {
		return translate(err, "idempotency key")
	}
	row := idempotencyRow{OwnerID: a.OwnerID, IdemKey: a.Key, Scope: a.Scope, Fingerprint: a.Fingerprint,
		Answer: string(a.Answer), ExpiresAt: utc(a.ExpiresAt)}
	return translate(r.t.db.Create(&row).Error, "idempotency key")
}

// DeleteExpired deletes one batch, picked through the expires_at index:
// DELETE ... WHERE (owner_id, idem_key) IN (SELECT ... LIMIT n) reads the
// same on SQLite and PostgreSQL.
func (r idempotencyRepo) DeleteExpired(now time.Time, limit int) (int64, error) {
	batch := r.t.db.Model(&idempotencyRow{}).Select("owner_id, idem_key").Where("expires_at < ?", utc(now)).Limit(limit)
	res := r.t.db.Where("(owner_id, idem_key) IN (?)", batch).Delete(&idempotencyRow{})
	return res.RowsAffected, translate(res.Error, "idempotency key")
}
