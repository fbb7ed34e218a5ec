package store

import (
	"gorm.io/gorm/clause"
)

// tournamentPlayerRow is a player entered in a tournament (an index of the
// event log's entries, for a player's own list of tournaments).
type tournamentPlayerRow struct {
	TournamentID int64 `gorm:"primaryKey;autoIncrement:false"`
	PlayerID     int64 `gorm:"primaryKey;autoIncrement:false"`
}

func (tournamentPlayerRow) TableName() string { return "tournament_players" }

// addPlayers records players as entered in a tournament; those already
// recorded are left as they are.
func (r tournamentEventRepo) addPlayers(tournamentID int64, players []int64) error {
	if len(players) == 0 {
		return nil
	}
	rows := make([]tournamentPlayerRow, len(players))
	for i, p := range players {
		rows[i] = tournamentPlayerRow{TournamentID: tournamentID, PlayerID: p}
	}
	return translate(r.t.db.Clauses(clause.OnConflict{DoNothing: true}).Create(&rows).Error, "tournament player")
}

// WithPlayers implements domain.TournamentRepo.
func (r tournamentRepo) WithPlayers(players []int64) ([]int64, error) {
	var ids []int64
	if len(players) == 0 {
		return ids, nil
	}
	err := r.t.db.Model(&tournamentPlayerRow{}).Distinct("tournament_id").
		Where("player_id IN ?", players).Order("tournament_id").Pluck("tournament_id", &ids).Error
	return ids, translate(err, "tournament player")
}

// RefereedBy implements domain.TournamentRepo.
func (r tournamentRepo) RefereedBy(userID int64) ([]int64, error) {
	var ids []int64
	err := r.t.db.Model(&refereeRow{}).Where("user_id = ?", userID).Order("tournament_id").Pluck("tournament_id", &ids).Error
	return ids, translate(err, "referee")
}
