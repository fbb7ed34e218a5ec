package store

import (
	"time"

	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/fold"
)

type playerRow struct {
	ID           int64 `gorm:"primaryKey"`
	UserID       *int64
	Name         string
	FederationID *string
	ClubID       *int64
	Search       string    // fold.Search(name): what ?q= compares
	CreatedAt    time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt    time.Time `gorm:"autoUpdateTime:false"`
}

func (playerRow) TableName() string { return "players" }

func playerRowOf(p domain.Player) playerRow {
	return playerRow{ID: p.ID, UserID: p.UserID, Name: p.Name, FederationID: p.FederationID, ClubID: p.ClubID,
		Search: fold.Search(p.Name), CreatedAt: utc(p.CreatedAt), UpdatedAt: utc(p.UpdatedAt)}
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
	return takeOne(r.t.db, "player", playerRow.domain, id)
}

func (r playerRepo) Update(p domain.Player) error {
	row := playerRowOf(p)
	return hitOne(r.t.db.Model(&playerRow{ID: p.ID}).Updates(map[string]any{
		"user_id": row.UserID, "name": row.Name, "federation_id": row.FederationID,
		"club_id": row.ClubID, "search": row.Search, "updated_at": row.UpdatedAt,
	}), "player")
}

func (r playerRepo) Delete(id int64) error {
	return deletedOne(r.t.db.Delete(&playerRow{}, id), "player")
}

func (r playerRepo) List(f domain.PlayerFilter) ([]domain.Player, int, error) {
	where := func() *gorm.DB {
		q := r.t.db.Model(&playerRow{})
		if f.Query != "" {
			cond, pattern := searchMatches("search", f.Query)
			q = q.Where(cond+" OR federation_id = ?", pattern, f.Query)
		}
		if f.ClubID != nil {
			q = q.Where("club_id = ?", *f.ClubID)
		}
		return q
	}
	return listPage(where, "name, id", f.Limit, f.Offset, "player", playerRow.domain)
}
