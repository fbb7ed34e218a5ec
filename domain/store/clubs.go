package store

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
)

type clubRow struct {
	ID          int64 `gorm:"primaryKey"`
	Name        string
	City        string
	Description string
	CreatedAt   time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt   time.Time `gorm:"autoUpdateTime:false"`
}

func (clubRow) TableName() string { return "clubs" }

func (r clubRow) domain() domain.Club {
	return domain.Club{ID: r.ID, Name: r.Name, City: r.City, Description: r.Description,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type clubRepo struct{ t *tx }

func (r clubRepo) Create(c *domain.Club) error {
	row := clubRow{Name: c.Name, City: c.City, Description: c.Description,
		CreatedAt: utc(c.CreatedAt), UpdatedAt: utc(c.UpdatedAt)}
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "club")
	}
	*c = row.domain()
	return nil
}

func (r clubRepo) Get(id int64) (domain.Club, error) {
	return r.get(r.t.db, id)
}

func (r clubRepo) Lock(id int64) (domain.Club, error) {
	q := r.t.db
	if r.t.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate})
	}
	return r.get(q, id)
}

func (r clubRepo) get(q *gorm.DB, id int64) (domain.Club, error) {
	var row clubRow
	if err := q.Take(&row, id).Error; err != nil {
		return domain.Club{}, translate(err, "club")
	}
	return row.domain(), nil
}

func (r clubRepo) Update(c domain.Club) error {
	res := r.t.db.Model(&clubRow{ID: c.ID}).Updates(map[string]any{
		"name": c.Name, "city": c.City, "description": c.Description, "updated_at": utc(c.UpdatedAt),
	})
	if res.Error != nil {
		return translate(res.Error, "club")
	}
	if res.RowsAffected == 0 {
		return notFound("club")
	}
	return nil
}

func (r clubRepo) List(f domain.ClubFilter) ([]domain.Club, int, error) {
	where := func() *gorm.DB {
		q := r.t.db.Model(&clubRow{})
		if f.Query != "" {
			p := containsPattern(f.Query)
			q = q.Where(likeLower("name")+" OR "+likeLower("city"), p, p)
		}
		return q
	}
	var total int64
	if err := where().Count(&total).Error; err != nil {
		return nil, 0, translate(err, "club")
	}
	var rows []clubRow
	if err := where().Order("name, id").Limit(f.Limit).Offset(f.Offset).Find(&rows).Error; err != nil {
		return nil, 0, translate(err, "club")
	}
	clubs := make([]domain.Club, len(rows))
	for i, row := range rows {
		clubs[i] = row.domain()
	}
	return clubs, int(total), nil
}
