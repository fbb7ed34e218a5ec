package store

import (
	"encoding/json"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
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
	CreatedAt       time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt       time.Time `gorm:"autoUpdateTime:false"`
}

func (tournamentRow) TableName() string { return "tournaments" }

func tournamentRowOf(t domain.Tournament) tournamentRow {
	return tournamentRow{ID: t.ID, ClubID: t.ClubID, Name: t.Name, Description: t.Description,
		Rules: string(t.Rules), Options: string(t.Options), PlayersPerTable: t.PlayersPerTable, Kind: string(t.Kind),
		DealsPerRound: t.DealsPerRound, StartsAt: utc(t.StartsAt), Status: string(t.Status),
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
	var v tournamentView
	if err := q.Where("t.id = ?", id).Take(&v).Error; err != nil {
		return domain.Tournament{}, translate(err, "tournament")
	}
	return v.domain(), nil
}

func (r tournamentRepo) Update(t domain.Tournament) error {
	row := tournamentRowOf(t)
	res := r.t.db.Model(&tournamentRow{ID: t.ID}).Updates(map[string]any{
		"name": row.Name, "description": row.Description, "rules": row.Rules, "options": row.Options,
		"players_per_table": row.PlayersPerTable, "kind": row.Kind, "deals_per_round": row.DealsPerRound,
		"starts_at": row.StartsAt, "status": row.Status, "updated_at": row.UpdatedAt,
	})
	if res.Error != nil {
		return translate(res.Error, "tournament")
	}
	if res.RowsAffected == 0 {
		return notFound("tournament")
	}
	return nil
}

func (r tournamentRepo) Delete(id int64) error {
	res := r.t.db.Delete(&tournamentRow{}, id)
	if res.Error != nil {
		return translateDelete(res.Error, "tournament")
	}
	if res.RowsAffected == 0 {
		return notFound("tournament")
	}
	return nil
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
			q = q.Where(likeLower("t.name"), containsPattern(f.Query))
		}
		return q
	}
	var total int64
	if err := where().Count(&total).Error; err != nil {
		return nil, 0, translate(err, "tournament")
	}
	var views []tournamentView
	if err := where().Order("t.starts_at, t.id").Limit(f.Limit).Offset(f.Offset).Find(&views).Error; err != nil {
		return nil, 0, translate(err, "tournament")
	}
	ts := make([]domain.Tournament, len(views))
	for i, v := range views {
		ts[i] = v.domain()
	}
	return ts, int(total), nil
}
