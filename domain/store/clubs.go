package store

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/fold"
)

type clubRow struct {
	ID          int64 `gorm:"primaryKey"`
	Name        string
	City        string
	Description string
	Search      string    // fold.Search(name, city): what ?q= compares
	CreatedAt   time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt   time.Time `gorm:"autoUpdateTime:false"`
}

func (clubRow) TableName() string { return "clubs" }

// clubSearch is the search value of a club.
func clubSearch(name, city string) string { return fold.Search(name, city) }

func (r clubRow) domain() domain.Club {
	return domain.Club{ID: r.ID, Name: r.Name, City: r.City, Description: r.Description,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type clubRepo struct{ t *tx }

func (r clubRepo) Create(c *domain.Club) error {
	row := clubRow{Name: c.Name, City: c.City, Description: c.Description, Search: clubSearch(c.Name, c.City),
		CreatedAt: utc(c.CreatedAt), UpdatedAt: utc(c.UpdatedAt)}
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "club")
	}
	*c = row.domain()
	return nil
}

// Get reads the club in raw SQL (see rawsql.go).
func (r clubRepo) Get(id int64) (domain.Club, error) {
	var row clubRow
	err := r.t.queryRow(false, "SELECT id, name, city, description, "+timeCols[r.t.dialect]+" FROM clubs WHERE id = $1",
		[]any{id}, &row.ID, &row.Name, &row.City, &row.Description, timestamp{&row.CreatedAt}, timestamp{&row.UpdatedAt})
	if err != nil {
		return domain.Club{}, translate(err, "club")
	}
	return row.domain(), nil
}

func (r clubRepo) Lock(id int64) (domain.Club, error) {
	q := r.t.db
	if r.t.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate})
	}
	return r.get(q, id)
}

func (r clubRepo) get(q *gorm.DB, id int64) (domain.Club, error) {
	return takeOne(q, "club", clubRow.domain, id)
}

func (r clubRepo) Update(c domain.Club) error {
	return hitOne(r.t.db.Model(&clubRow{ID: c.ID}).Updates(map[string]any{
		"name": c.Name, "city": c.City, "description": c.Description, "search": clubSearch(c.Name, c.City),
		"updated_at": utc(c.UpdatedAt),
	}), "club")
}

func (r clubRepo) List(f domain.ClubFilter) ([]domain.Club, int, error) {
	where := func() *gorm.DB {
		q := r.t.db.Model(&clubRow{})
		if f.Query != "" {
			q = q.Where(searchMatches("search", f.Query))
		}
		return q
	}
	return listPage(where, "name, id", f.Limit, f.Offset, "club", clubRow.domain)
}
