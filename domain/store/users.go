package store

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
)

type userRow struct {
	ID             int64 `gorm:"primaryKey"`
	Email          string
	Name           string
	PasswordHash   string
	SiteAdmin      bool
	SessionVersion int64
	CreatedAt      time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt      time.Time `gorm:"autoUpdateTime:false"`
}

func (userRow) TableName() string { return "users" }

func (r userRow) domain() domain.User {
	return domain.User{ID: r.ID, Email: r.Email, Name: r.Name, SiteAdmin: r.SiteAdmin, SessionVersion: r.SessionVersion,
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

// Get reads the user in raw SQL (see rawsql.go): it is on the path of
// authentication.
func (r userRepo) Get(id int64) (domain.User, error) {
	var row userRow
	err := r.t.queryRow(false, "SELECT id, email, name, site_admin, session_version, "+timeCols[r.t.dialect]+" FROM users WHERE id = $1",
		[]any{id}, &row.ID, &row.Email, &row.Name, &row.SiteAdmin, &row.SessionVersion, timestamp{&row.CreatedAt}, timestamp{&row.UpdatedAt})
	if err != nil {
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

func (r userRepo) LockSiteAdmins() ([]int64, error) {
	q := r.t.db.Model(&userRow{}).Where("site_admin = ?", true).Order("id")
	if r.t.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate})
	}
	var ids []int64
	err := q.Pluck("id", &ids).Error
	return ids, translate(err, "user")
}

func (r userRepo) SetSiteAdmin(id int64, admin bool, at time.Time) error {
	res := r.t.db.Model(&userRow{ID: id}).Updates(map[string]any{"site_admin": admin, "updated_at": utc(at)})
	if res.Error != nil {
		return translate(res.Error, "user")
	}
	if res.RowsAffected == 0 {
		return notFound("user")
	}
	r.t.userChanged(id) // user_feed.go
	return nil
}

func (r userRepo) LockSessionVersion(id int64) (int64, error) {
	q := r.t.db.Model(&userRow{}).Where("id = ?", id)
	if r.t.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: clause.LockingStrengthShare})
	}
	var v []int64
	if err := q.Pluck("session_version", &v).Error; err != nil {
		return 0, translate(err, "user")
	}
	if len(v) == 0 {
		return 0, notFound("user")
	}
	return v[0], nil
}

func (r userRepo) SetPassword(id int64, passwordHash string, at time.Time) error {
	res := r.t.db.Model(&userRow{ID: id}).Updates(map[string]any{"password_hash": passwordHash, "updated_at": utc(at),
		"session_version": gorm.Expr("session_version + 1")})
	if res.Error != nil {
		return translate(res.Error, "user")
	}
	if res.RowsAffected == 0 {
		return notFound("user")
	}
	r.t.userChanged(id)
	return nil
}

func (r userRepo) Delete(id int64) error {
	res := r.t.db.Delete(&userRow{}, id)
	if res.Error != nil {
		return translateDelete(res.Error, "user")
	}
	if res.RowsAffected == 0 {
		return notFound("user")
	}
	r.t.userChanged(id)
	return nil
}
