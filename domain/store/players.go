package store

import (
	"time"

	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
)

type playerRow struct {
	ID           int64 `gorm:"primaryKey"`
	UserID       *int64
	Name         string
	FederationID *string
	ClubID       *int64
	CreatedAt    time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt    time.Time `gorm:"autoUpdateTime:false"`
}

func (playerRow) TableName() string { return "players" }

func playerRowOf(p domain.Player) playerRow {
	return playerRow{ID: p.ID, UserID: p.UserID, Name: p.Name, FederationID: p.FederationID, ClubID: p.ClubID,
		CreatedAt: utc(p.CreatedAt), UpdatedAt: utc(p.UpdatedAt)}
}

func (r playerRow) domain() domain.Player {
	return domain.Player{ID: r.ID, UserID: r.UserID, Name: r.Name, FederationID: r.FederationID, ClubID: r.ClubID,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type playerRepo struct{ t *tx }

func (r playerRepo) Create(p *domain.Player) error {
	row := playerRowOf(*p)
	row.ID = 0
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "player")
	}
	*p = row.domain()
	return nil
}

func (r playerRepo) Get(id int64) (domain.Player, error) {
	var row playerRow
	if err := r.t.db.Take(&row, id).Error; err != nil {
		return domain.Player{}, translate(err, "player")
	}
	return row.domain(), nil
}

func (r playerRepo) Update(p domain.Player) error {
	row := playerRowOf(p)
	res := r.t.db.Model(&playerRow{ID: p.ID}).Updates(map[string]any{
		"user_id": row.UserID, "name": row.Name, "federation_id": row.FederationID,
		"club_id": row.ClubID, "updated_at": row.UpdatedAt,
	})
	if res.Error != nil {
		return translate(res.Error, "player")
	}
	if res.RowsAffected == 0 {
		return notFound("player")
	}
	return nil
}

func (r playerRepo) Delete(id int64) error {
	res := r.t.db.Delete(&playerRow{}, id)
	if res.Error != nil {
		return translateDelete(res.Error, "player")
	}
	if res.RowsAffected == 0 {
		return notFound("player")
	}
	return nil
}

func (r playerRepo) List(f domain.PlayerFilter) ([]domain.Player, int, error) {
	where := func() *gorm.DB {
		q := r.t.db.Model(&playerRow{})
		if f.Query != "" {
			q = q.Where(likeLower("name")+" OR federation_id = ?", containsPattern(f.Query), f.Query)
		}
		if f.ClubID != nil {
			q = q.Where("club_id = ?", *f.ClubID)
		}
		return q
	}
	var total int64
	if err := where().Count(&total).Error; err != nil {
		return nil, 0, translate(err, "player")
	}
	var rows []playerRow
	if err := where().Order("name, id").Limit(f.Limit).Offset(f.Offset).Find(&rows).Error; err != nil {
		return nil, 0, translate(err, "player")
	}
	players := make([]domain.Player, len(rows))
	for i, row := range rows {
		players[i] = row.domain()
	}
	return players, int(total), nil
}
