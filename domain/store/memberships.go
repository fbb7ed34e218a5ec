package store

import (
	"time"

	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
)

type membershipRow struct {
	ID        int64 `gorm:"primaryKey"`
	ClubID    int64
	UserID    int64
	Role      string
	CreatedAt time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt time.Time `gorm:"autoUpdateTime:false"`
}

func (membershipRow) TableName() string { return "memberships" }

// memberView is a membership joined with its user.
type memberView struct {
	ClubID    int64
	ClubName  string
	UserID    int64
	UserName  string
	UserEmail string
	Role      string
	CreatedAt time.Time
}

func (v memberView) domain() domain.Membership {
	return domain.Membership{ClubID: v.ClubID, ClubName: v.ClubName, UserID: v.UserID, UserName: v.UserName, UserEmail: v.UserEmail,
		Role: domain.Role(v.Role), CreatedAt: v.CreatedAt.UTC()}
}

type membershipRepo struct{ t *tx }

func (r membershipRepo) Create(m *domain.Membership) error {
	row := membershipRow{ClubID: m.ClubID, UserID: m.UserID, Role: string(m.Role),
		CreatedAt: utc(m.CreatedAt), UpdatedAt: utc(m.CreatedAt)}
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "membership")
	}
	got, err := r.Get(m.ClubID, m.UserID)
	if err != nil {
		return err
	}
	*m = got
	return nil
}

// members selects memberships joined with their users and clubs.
func (r membershipRepo) members() *gorm.DB {
	return r.t.db.Table("memberships AS m").
		Select("m.club_id, c.name AS club_name, m.user_id, u.name AS user_name, u.email AS user_email, m.role, m.created_at").
		Joins("JOIN users AS u ON u.id = m.user_id").
		Joins("JOIN clubs AS c ON c.id = m.club_id")
}

func (r membershipRepo) OfUser(userID int64) ([]domain.Membership, error) {
	var views []memberView
	if err := r.members().Where("m.user_id = ?", userID).Order("c.name, c.id").Find(&views).Error; err != nil {
		return nil, translate(err, "membership")
	}
	return mapRows(views, memberView.domain), nil
}

func (r membershipRepo) ListOfUser(userID int64, f domain.MyClubsFilter) ([]domain.Membership, int, error) {
	where := func() *gorm.DB { return r.members().Where("m.user_id = ?", userID) }
	return listPage(where, "c.name, c.id", f.Limit, f.Offset, "membership", memberView.domain)
}

func (r membershipRepo) Get(clubID, userID int64) (domain.Membership, error) {
	return takeOne(r.members().Where("m.club_id = ? AND m.user_id = ?", clubID, userID), "membership", memberView.domain)
}

func (r membershipRepo) SetRole(clubID, userID int64, role domain.Role, at time.Time) error {
	return hitOne(r.t.db.Model(&membershipRow{}).Where("club_id = ? AND user_id = ?", clubID, userID).
		Updates(map[string]any{"role": string(role), "updated_at": utc(at)}), "membership")
}

func (r membershipRepo) Delete(clubID, userID int64) error {
	return deletedOne(r.t.db.Where("club_id = ? AND user_id = ?", clubID, userID).Delete(&membershipRow{}), "membership")
}

func (r membershipRepo) CountRole(clubID int64, role domain.Role) (int, error) {
	var n int64
	err := r.t.db.Model(&membershipRow{}).Where("club_id = ? AND role = ?", clubID, string(role)).Count(&n).Error
	return int(n), translate(err, "membership")
}

func (r membershipRepo) List(clubID int64, f domain.MemberFilter) ([]domain.Membership, int, error) {
	where := func() *gorm.DB {
		q := r.members().Where("m.club_id = ?", clubID)
		if f.Role != "" {
			q = q.Where("m.role = ?", string(f.Role))
		}
		return q
	}
	return listPage(where, "u.name, u.id", f.Limit, f.Offset, "membership", memberView.domain)
}
