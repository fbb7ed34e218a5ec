package store

import (
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/rating"
)

type ratingRow struct {
	UserID     int64  `gorm:"primaryKey;autoIncrement:false"`
	Family     string `gorm:"primaryKey"`
	Rating     float64
	RD         float64 `gorm:"column:rd"`
	Volatility float64
	Games      int
	UpdatedAt  time.Time `gorm:"autoUpdateTime:false"`
}

func (ratingRow) TableName() string { return "ratings" }

// ratingView is a rating with its user's name.
type ratingView struct {
	Row      ratingRow `gorm:"embedded"`
	UserName string
}

func (r ratingRow) domain(name string) domain.UserRating {
	return domain.UserRating{UserID: r.UserID, UserName: name, Family: domain.RatingFamily(r.Family), Rating: r.Rating,
		RD: r.RD, Volatility: r.Volatility, Games: r.Games, UpdatedAt: r.UpdatedAt.UTC()}
}

type ratingChangeRow struct {
	ID           int64 `gorm:"primaryKey"`
	UserID       int64
	Family       string
	TableID      int64
	Score        float64
	Opponent     float64
	OpponentRD   float64 `gorm:"column:opponent_rd"`
	RatingBefore float64
	RDBefore     float64 `gorm:"column:rd_before"`
	Rating       float64
	RD           float64 `gorm:"column:rd"`
	Volatility   float64
	At           time.Time
}

func (ratingChangeRow) TableName() string { return "rating_history" }

func (r ratingChangeRow) domain() domain.RatingChange {
	return domain.RatingChange{UserID: r.UserID, Family: domain.RatingFamily(r.Family), TableID: r.TableID,
		Score: r.Score, Opponent: r.Opponent, OpponentRD: r.OpponentRD, RatingBefore: r.RatingBefore,
		RDBefore: r.RDBefore, Rating: r.Rating, RD: r.RD, Volatility: r.Volatility, At: r.At.UTC()}
}

type ratingRepo struct{ t *tx }

func (t *tx) Ratings() domain.RatingRepo { return ratingRepo{t} }

func (r ratingRepo) Lock(family domain.RatingFamily, userIDs []int64) (map[int64]domain.UserRating, error) {
	ids := slices.Clone(userIDs)
	slices.Sort(ids) // one order for every transaction: no deadlock between two
	ids = slices.Compact(ids)
	fresh := rating.New()
	for _, id := range ids {
		row := ratingRow{UserID: id, Family: string(family), Rating: fresh.Rating, RD: fresh.RD,
			Volatility: fresh.Volatility, UpdatedAt: time.Unix(0, 0).UTC()} // never read: Put sets it with the first change
		if err := r.t.db.Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
			return nil, translate(err, "rating")
		}
	}
	q := r.t.db.Where("family = ? AND user_id IN ?", string(family), ids).Order("user_id")
	if r.t.dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var rows []ratingRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, translate(err, "rating")
	}
	out := make(map[int64]domain.UserRating, len(rows))
	for _, row := range rows {
		out[row.UserID] = row.domain("")
	}
	return out, nil
}

func (r ratingRepo) Put(u domain.UserRating, c domain.RatingChange) error {
	err := r.t.db.Model(&ratingRow{}).Where("user_id = ? AND family = ?", u.UserID, string(u.Family)).
		Updates(map[string]any{"rating": u.Rating, "rd": u.RD, "volatility": u.Volatility, "games": u.Games,
			"updated_at": utc(u.UpdatedAt)}).Error
	if err != nil {
		return translate(err, "rating")
	}
	row := ratingChangeRow{UserID: c.UserID, Family: string(c.Family), TableID: c.TableID, Score: c.Score,
		Opponent: c.Opponent, OpponentRD: c.OpponentRD, RatingBefore: c.RatingBefore, RDBefore: c.RDBefore,
		Rating: c.Rating, RD: c.RD, Volatility: c.Volatility, At: utc(c.At)}
	return translate(r.t.db.Create(&row).Error, "rating change")
}

func (r ratingRepo) Rated(tableID int64) (bool, error) {
	var n int64
	err := r.t.db.Model(&ratingChangeRow{}).Where("table_id = ?", tableID).Limit(1).Count(&n).Error
	return n > 0, translate(err, "rating change")
}

func (r ratingRepo) StoodIn(tableID int64) (bool, error) {
	var n int64
	err := r.t.db.Table("table_moves AS m").
		Joins("JOIN table_seats AS s ON s.table_id = m.table_id AND s.seat = m.seat").
		Where("m.table_id = ? AND m.played_by = ? AND NOT s.bot", tableID, string(domain.ByBot)).
		Limit(1).Count(&n).Error
	return n > 0, translate(err, "table move")
}

func (r ratingRepo) OfUser(userID int64, limit int) ([]domain.UserRating, []domain.RatingChange, error) {
	var rows []ratingView
	err := r.t.db.Table("ratings AS r").Select("r.*, u.name AS user_name").Joins("JOIN users AS u ON u.id = r.user_id").
		Where("r.user_id = ? AND r.games > 0", userID).Order("r.family").Find(&rows).Error
	if err != nil {
		return nil, nil, translate(err, "rating")
	}
	ratings := make([]domain.UserRating, len(rows))
	for i, v := range rows {
		ratings[i] = v.Row.domain(v.UserName)
	}
	var changes []ratingChangeRow
	if err := r.t.db.Where("user_id = ?", userID).Order("id DESC").Limit(limit).Find(&changes).Error; err != nil {
		return nil, nil, translate(err, "rating change")
	}
	history := make([]domain.RatingChange, len(changes))
	for i, c := range changes {
		history[i] = c.domain()
	}
	return ratings, history, nil
}

func (r ratingRepo) Leaderboard(f domain.RatingFilter, provisionalRD float64, provisionalGames int) ([]domain.UserRating, int, error) {
	base := func() *gorm.DB {
		return r.t.db.Table("ratings AS r").Joins("JOIN users AS u ON u.id = r.user_id").
			Where("r.family = ? AND r.games > 0", string(f.Family))
	}
	var total int64
	if err := base().Count(&total).Error; err != nil {
		return nil, 0, translate(err, "rating")
	}
	var rows []ratingView
	err := base().Select("r.*, u.name AS user_name").
		// The bounds are numbers (formatted, not a user's text): the
		// established ratings first.
		Order(fmt.Sprintf("CASE WHEN r.rd > %g OR r.games < %d THEN 1 ELSE 0 END, r.rating DESC, r.user_id",
			provisionalRD, provisionalGames)).
		Limit(f.Limit).Offset(f.Offset).Find(&rows).Error
	if err != nil {
		return nil, 0, translate(err, "rating")
	}
	out := make([]domain.UserRating, len(rows))
	for i, v := range rows {
		out[i] = v.Row.domain(v.UserName)
	}
	return out, int(total), nil
}
