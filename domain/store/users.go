package store

import (
	"time"

	"github.com/burraco/burraco/domain"
)

type userRow struct {
	ID           int64 `gorm:"primaryKey"`
	Email        string
	Name         string
	PasswordHash string
	SiteAdmin    bool
	CreatedAt    time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt    time.Time `gorm:"autoUpdateTime:false"`
}

func (userRow) TableName() string { return "users" }

func (r userRow) domain() domain.User {
	return domain.User{ID: r.ID, Email: r.Email, Name: r.Name, SiteAdmin: r.SiteAdmin,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type userRepo struct{ t *tx }

func (r userRepo) Create(u *domain.User, passwordHash string) error {
	row := userRow{Email: u.Email, Name: u.Name, PasswordHash: passwordHash, SiteAdmin: u.SiteAdmin,
		CreatedAt: utc(u.CreatedAt), UpdatedAt: utc(u.UpdatedAt)}
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "user")
	}
	*u = row.domain()
	return nil
}

func (r userRepo) Get(id int64) (domain.User, error) {
	var row userRow
	if err := r.t.db.Take(&row, id).Error; err != nil {
		return domain.User{}, translate(err, "user")
	}
	return row.domain(), nil
}

func (r userRepo) ByEmail(email string) (domain.User, string, error) {
	var row userRow
	if err := r.t.db.Where("email = ?", email).Take(&row).Error; err != nil {
		return domain.User{}, "", translate(err, "user")
	}
	return row.domain(), row.PasswordHash, nil
}

func (r userRepo) AnySiteAdmin() (bool, error) {
	var n int64
	err := r.t.db.Model(&userRow{}).Where("site_admin = ?", true).Count(&n).Error
	return n > 0, translate(err, "user")
}
