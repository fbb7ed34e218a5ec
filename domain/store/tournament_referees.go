package store

import (
	"time"

	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
)

type refereeRow struct {
	TournamentID int64 `gorm:"primaryKey"`
	UserID       int64 `gorm:"primaryKey"`
	AssignedAt   time.Time
}

func (refereeRow) TableName() string { return "tournament_referees" }

// refereeView is a referee with their name and their role in the
// tournament's club now.
type refereeView struct {
	TournamentID int64
	UserID       int64
	UserName     string
	Role         string
	AssignedAt   time.Time
}

func (v refereeView) domain() domain.TournamentReferee {
	return domain.TournamentReferee{TournamentID: v.TournamentID, UserID: v.UserID, UserName: v.UserName,
		Role: domain.Role(v.Role), AssignedAt: v.AssignedAt.UTC()}
}

func (r tournamentRepo) Referees(id int64) ([]domain.TournamentReferee, error) {
	var rows []refereeView
	err := r.t.db.Table("tournament_referees AS r").
		Select("r.tournament_id, r.user_id, u.name AS user_name, COALESCE(m.role, '') AS role, r.assigned_at").
		Joins("JOIN users AS u ON u.id = r.user_id").
		Joins("JOIN tournaments AS t ON t.id = r.tournament_id").
		Joins("LEFT JOIN memberships AS m ON m.club_id = t.club_id AND m.user_id = r.user_id").
		Where("r.tournament_id = ?", id).Order("u.name, r.user_id").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "referee")
	}
	return mapRows(rows, refereeView.domain), nil
}

func (r tournamentRepo) IsReferee(id, userID int64) (bool, error) {
	var n int64
	err := r.t.db.Model(&refereeRow{}).Where("tournament_id = ? AND user_id = ?", id, userID).Count(&n).Error
	return n > 0, translate(err, "referee")
}

func (r tournamentRepo) AddReferee(id, userID int64, at time.Time) (bool, error) {
	res := r.t.db.Clauses(clause.OnConflict{DoNothing: true}).
		Create(&refereeRow{TournamentID: id, UserID: userID, AssignedAt: utc(at)})
	return res.RowsAffected > 0, translate(res.Error, "referee")
}

func (r tournamentRepo) RemoveReferee(id, userID int64) (bool, error) {
	res := r.t.db.Where("tournament_id = ? AND user_id = ?", id, userID).Delete(&refereeRow{})
	return res.RowsAffected > 0, translate(res.Error, "referee")
}
