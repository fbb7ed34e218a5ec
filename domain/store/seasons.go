package store

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
)

type seasonRow struct {
	ID            int64 `gorm:"primaryKey"`
	ClubID        int64
	Name          string
	StartsOn      string
	EndsOn        string
	Scheme        string
	PointsStep    int
	ReferenceSize int
	MinEvenings   int
	CreatedAt     time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt     time.Time `gorm:"autoUpdateTime:false"`
}

func (seasonRow) TableName() string { return "seasons" }

// seasonView is a season joined with its club's name.
type seasonView struct {
	Row      seasonRow `gorm:"embedded"`
	ClubName string
}

func (v seasonView) domain() domain.Season {
	r := v.Row
	return domain.Season{ID: r.ID, ClubID: r.ClubID, ClubName: v.ClubName, Name: r.Name, StartsOn: r.StartsOn,
		EndsOn: r.EndsOn, Scheme: domain.SeasonScheme(r.Scheme), PointsStep: r.PointsStep,
		ReferenceSize: r.ReferenceSize, MinEvenings: r.MinEvenings, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

func seasonRowOf(s domain.Season) seasonRow {
	return seasonRow{ID: s.ID, ClubID: s.ClubID, Name: s.Name, StartsOn: s.StartsOn, EndsOn: s.EndsOn,
		Scheme: string(s.Scheme), PointsStep: s.PointsStep, ReferenceSize: s.ReferenceSize,
		MinEvenings: s.MinEvenings, CreatedAt: utc(s.CreatedAt), UpdatedAt: utc(s.UpdatedAt)}
}

type seasonExclusionRow struct {
	SeasonID     int64 `gorm:"primaryKey;autoIncrement:false"`
	TournamentID int64 `gorm:"primaryKey;autoIncrement:false"`
	Reason       string
	ExcludedBy   int64
	CreatedAt    time.Time `gorm:"autoCreateTime:false"`
}

func (seasonExclusionRow) TableName() string { return "season_exclusions" }

type seasonRepo struct{ t *tx }

func (r seasonRepo) seasons() *gorm.DB {
	return r.t.db.Table("seasons AS s").Select("s.*, c.name AS club_name").Joins("JOIN clubs AS c ON c.id = s.club_id")
}

func (r seasonRepo) Create(s *domain.Season) error {
	row := seasonRowOf(*s)
	row.ID = 0
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "club")
	}
	s.ID = row.ID
	return nil
}

func (r seasonRepo) Get(id int64) (domain.Season, error) {
	return takeOne(r.seasons().Where("s.id = ?", id), "season", seasonView.domain)
}

func (r seasonRepo) Update(s domain.Season) error {
	row := seasonRowOf(s)
	return hitOne(r.t.db.Model(&seasonRow{ID: s.ID}).Updates(map[string]any{
		"name": row.Name, "starts_on": row.StartsOn, "ends_on": row.EndsOn, "scheme": row.Scheme,
		"points_step": row.PointsStep, "reference_size": row.ReferenceSize, "min_evenings": row.MinEvenings,
		"updated_at": row.UpdatedAt,
	}), "season")
}

func (r seasonRepo) Delete(id int64) error {
	if err := r.t.db.Where("season_id = ?", id).Delete(&seasonExclusionRow{}).Error; err != nil {
		return translate(err, "season")
	}
	return deletedOne(r.t.db.Delete(&seasonRow{}, id), "season")
}

func (r seasonRepo) OfClub(clubID int64) ([]domain.Season, error) {
	return r.OfClubs([]int64{clubID})
}

func (r seasonRepo) OfClubs(clubIDs []int64) ([]domain.Season, error) {
	out := []domain.Season{}
	if len(clubIDs) == 0 {
		return out, nil
	}
	var rows []seasonView
	if err := r.seasons().Where("s.club_id IN ?", clubIDs).Order("s.starts_on DESC, s.id DESC").Find(&rows).Error; err != nil {
		return nil, translate(err, "season")
	}
	for _, v := range rows {
		out = append(out, v.domain())
	}
	return out, nil
}

func (r seasonRepo) Exclusions(seasonID int64) ([]domain.SeasonExclusion, error) {
	var rows []seasonExclusionRow
	if err := r.t.db.Where("season_id = ?", seasonID).Order("tournament_id").Find(&rows).Error; err != nil {
		return nil, translate(err, "season")
	}
	out := make([]domain.SeasonExclusion, len(rows))
	for i, x := range rows {
		out[i] = domain.SeasonExclusion{SeasonID: x.SeasonID, TournamentID: x.TournamentID, Reason: x.Reason,
			By: x.ExcludedBy, At: x.CreatedAt.UTC()}
	}
	return out, nil
}

func (r seasonRepo) Exclude(x domain.SeasonExclusion) error {
	row := seasonExclusionRow{SeasonID: x.SeasonID, TournamentID: x.TournamentID, Reason: x.Reason,
		ExcludedBy: x.By, CreatedAt: utc(x.At)}
	err := r.t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "season_id"}, {Name: "tournament_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"reason", "excluded_by", "created_at"}),
	}).Create(&row).Error
	return translate(err, "season or tournament")
}

func (r seasonRepo) Include(seasonID, tournamentID int64) (bool, error) {
	res := r.t.db.Where("season_id = ? AND tournament_id = ?", seasonID, tournamentID).Delete(&seasonExclusionRow{})
	if res.Error != nil {
		return false, translate(res.Error, "season")
	}
	return res.RowsAffected > 0, nil
}

// Results selects the club's finished and published tournaments and keeps
// those whose start is within the dates, compared as UTC days in Go: the
// dialects store times differently, and a club has few tournaments.
func (r seasonRepo) Results(clubID int64, startsOn, endsOn string) ([]domain.Tournament, error) {
	var rows []tournamentView
	err := tournamentRepo(r).tournaments().
		Where("t.club_id = ? AND t.status IN ?", clubID,
			[]string{string(domain.TournamentFinished), string(domain.TournamentResultsPublished)}).
		Order("t.starts_at, t.id").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "tournament")
	}
	out := []domain.Tournament{}
	for _, v := range rows {
		t := v.domain()
		if day := t.StartsAt.UTC().Format(domain.SeasonDateLayout); startsOn <= day && day <= endsOn {
			out = append(out, t)
		}
	}
	return out, nil
}

// seasonStampRow is what Stamps reads of a tournament.
type seasonStampRow struct {
	ID       int64
	Name     string
	StartsAt time.Time
	Kind     string
	Status   string
	Version  int64
}

// Stamps is Results' light twin: the columns a ranking's basis names.
func (r seasonRepo) Stamps(clubID int64, startsOn, endsOn string) ([]domain.SeasonTournament, error) {
	var rows []seasonStampRow
	err := r.t.db.Table("tournaments").Select("id, name, starts_at, kind, status, version").
		Where("club_id = ? AND status IN ?", clubID,
			[]string{string(domain.TournamentFinished), string(domain.TournamentResultsPublished)}).
		Order("starts_at, id").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "tournament")
	}
	out := []domain.SeasonTournament{}
	for _, x := range rows {
		if day := x.StartsAt.UTC().Format(domain.SeasonDateLayout); startsOn <= day && day <= endsOn {
			out = append(out, domain.SeasonTournament{ID: x.ID, Name: x.Name, StartsAt: x.StartsAt.UTC(),
				Kind: domain.TournamentKind(x.Kind), Status: domain.TournamentStatus(x.Status), Version: x.Version})
		}
	}
	return out, nil
}
