package store

import (
	"encoding/json"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/fold"
)

type tournamentRow struct {
	ID              int64 `gorm:"primaryKey"`
	ClubID          int64
	Name            string
	Description     string
	Rules           string
	Options         string // the JSON options object, as the domain normalised it
	PlayersPerTable int
	Kind            string
	DealsPerRound   int
	StartsAt        time.Time
	Status          string
	Search          string    // fold.Search(name): what ?q= compares
	CreatedAt       time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt       time.Time `gorm:"autoUpdateTime:false"`
}

func (tournamentRow) TableName() string { return "tournaments" }

func tournamentRowOf(t domain.Tournament) tournamentRow {
	return tournamentRow{ID: t.ID, ClubID: t.ClubID, Name: t.Name, Description: t.Description,
		Rules: string(t.Rules), Options: string(t.Options), PlayersPerTable: t.PlayersPerTable, Kind: string(t.Kind),
		DealsPerRound: t.DealsPerRound, StartsAt: utc(t.StartsAt), Status: string(t.Status), Search: fold.Search(t.Name),
		CreatedAt: utc(t.CreatedAt), UpdatedAt: utc(t.UpdatedAt)}
}

// tournamentView is a tournament joined with its club.
type tournamentView struct {
	Row      tournamentRow `gorm:"embedded"`
	ClubName string
}

func (v tournamentView) domain() domain.Tournament {
	r := v.Row
	return domain.Tournament{ID: r.ID, ClubID: r.ClubID, ClubName: v.ClubName, Name: r.Name, Description: r.Description,
		Rules: domain.RuleSet(r.Rules), Options: json.RawMessage(r.Options), PlayersPerTable: r.PlayersPerTable, Kind: domain.TournamentKind(r.Kind),
		DealsPerRound: r.DealsPerRound, StartsAt: r.StartsAt.UTC(), Status: domain.TournamentStatus(r.Status),
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type tournamentRepo struct{ t *tx }

// tournaments selects tournaments joined with their clubs.
func (r tournamentRepo) tournaments() *gorm.DB {
	return r.t.db.Table("tournaments AS t").
		Select("t.*, c.name AS club_name").
		Joins("JOIN clubs AS c ON c.id = t.club_id")
}

func (r tournamentRepo) Create(t *domain.Tournament) error {
	row := tournamentRowOf(*t)
	row.ID = 0
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "tournament")
	}
	got, err := r.Get(row.ID)
	if err != nil {
		return err
	}
	*t = got
	return nil
}

func (r tournamentRepo) Get(id int64) (domain.Tournament, error) {
	return r.get(r.tournaments(), id)
}

func (r tournamentRepo) Lock(id int64) (domain.Tournament, error) {
	q := r.tournaments()
	if r.t.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate, Table: clause.Table{Name: "t"}})
	}
	return r.get(q, id)
}

func (r tournamentRepo) get(q *gorm.DB, id int64) (domain.Tournament, error) {
	return takeOne(q.Where("t.id = ?", id), "tournament", tournamentView.domain)
}

func (r tournamentRepo) Update(t domain.Tournament) error {
	row := tournamentRowOf(t)
	return hitOne(r.t.db.Model(&tournamentRow{ID: t.ID}).Updates(map[string]any{
		"name": row.Name, "description": row.Description, "rules": row.Rules, "options": row.Options,
		"players_per_table": row.PlayersPerTable, "kind": row.Kind, "deals_per_round": row.DealsPerRound,
		"starts_at": row.StartsAt, "status": row.Status, "search": row.Search, "updated_at": row.UpdatedAt,
	}), "tournament")
}

func (r tournamentRepo) Delete(id int64) error {
	return deletedOne(r.t.db.Delete(&tournamentRow{}, id), "tournament")
}

func (r tournamentRepo) List(f domain.TournamentFilter, drafts domain.DraftScope) ([]domain.Tournament, int, error) {
	where := func() *gorm.DB {
		q := r.tournaments()
		switch {
		case drafts.All:
		case len(drafts.ClubIDs) > 0:
			q = q.Where("(t.status <> ? OR t.club_id IN ?)", string(domain.TournamentDraft), drafts.ClubIDs)
		default:
			q = q.Where("t.status <> ?", string(domain.TournamentDraft))
		}
		if f.ClubID != nil {
			q = q.Where("t.club_id = ?", *f.ClubID)
		}
		if f.Status != "" {
			q = q.Where("t.status = ?", string(f.Status))
		}
		if f.Query != "" {
			q = q.Where(searchMatches("t.search", f.Query))
		}
		return q
	}
	return listPage(where, "t.starts_at, t.id", f.Limit, f.Offset, "tournament", tournamentView.domain)
}
