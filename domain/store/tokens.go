package store

import (
	"time"

	"github.com/burraco/burraco/domain"
)

type refreshTokenRow struct {
	ID        int64 `gorm:"primaryKey"`
	UserID    int64
	FamilyID  string
	TokenHash string
	CreatedAt time.Time `gorm:"autoCreateTime:false"`
	ExpiresAt time.Time
	RotatedAt *time.Time
	RevokedAt *time.Time
}

func (refreshTokenRow) TableName() string { return "refresh_tokens" }

func (r refreshTokenRow) domain() domain.RefreshToken {
	return domain.RefreshToken{ID: r.ID, UserID: r.UserID, FamilyID: r.FamilyID, TokenHash: r.TokenHash,
		CreatedAt: r.CreatedAt.UTC(), ExpiresAt: r.ExpiresAt.UTC(),
		RotatedAt: utcPtr(r.RotatedAt), RevokedAt: utcPtr(r.RevokedAt)}
}

type tokenRepo struct{ t *tx }

func (r tokenRepo) Create(t *domain.RefreshToken) error {
	row := refreshTokenRow{UserID: t.UserID, FamilyID: t.FamilyID, TokenHash: t.TokenHash,
		CreatedAt: utc(t.CreatedAt), ExpiresAt: utc(t.ExpiresAt),
		RotatedAt: utcPtr(t.RotatedAt), RevokedAt: utcPtr(t.RevokedAt)}
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "refresh token")
	}
	*t = row.domain()
	return nil
}

func (r tokenRepo) ByHash(tokenHash string) (domain.RefreshToken, error) {
	var row refreshTokenRow
	if err := r.t.db.Where("token_hash = ?", tokenHash).Take(&row).Error; err != nil {
		return domain.RefreshToken{}, translate(err, "refresh token")
	}
	return row.domain(), nil
}

func (r tokenRepo) MarkRotated(id int64, at time.Time) (bool, error) {
	res := r.t.db.Model(&refreshTokenRow{}).
		Where("id = ? AND rotated_at IS NULL AND revoked_at IS NULL", id).
		Update("rotated_at", utc(at))
	return res.RowsAffected == 1, translate(res.Error, "refresh token")
}

func (r tokenRepo) RevokeFamily(familyID string, at time.Time) error {
	err := r.t.db.Model(&refreshTokenRow{}).
		Where("family_id = ? AND revoked_at IS NULL", familyID).
		Update("revoked_at", utc(at)).Error
	return translate(err, "refresh token")
}

func (r tokenRepo) RevokeUser(userID int64, at time.Time) error {
	err := r.t.db.Model(&refreshTokenRow{}).
		Where("user_id = ? AND revoked_at IS NULL", userID).
		Update("revoked_at", utc(at)).Error
	return translate(err, "refresh token")
}

// DeleteExpired deletes one batch, picked by id through the expires_at
// index: DELETE ... WHERE id IN (SELECT id ... LIMIT n) reads the same on
// SQLite and PostgreSQL (neither has DELETE ... LIMIT in common).
func (r tokenRepo) DeleteExpired(before time.Time, limit int) (int64, error) {
	batch := r.t.db.Model(&refreshTokenRow{}).Select("id").Where("expires_at < ?", utc(before)).Limit(limit)
	res := r.t.db.Where("id IN (?)", batch).Delete(&refreshTokenRow{})
	return res.RowsAffected, translate(res.Error, "refresh token")
}
