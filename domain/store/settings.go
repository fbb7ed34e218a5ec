package store

import (
	"encoding/base64"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
)

type settingRow struct {
	Name      string `gorm:"primaryKey"`
	Value     string
	CreatedAt time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt time.Time `gorm:"autoUpdateTime:false"`
}

func (settingRow) TableName() string { return "settings" }

type settingRepo struct{ t *tx }

func (r settingRepo) Get(name string) (string, error) {
	var row settingRow
	if err := r.t.db.Where("name = ?", name).Take(&row).Error; err != nil {
		return "", translate(err, "setting")
	}
	return row.Value, nil
}

func (r settingRepo) Put(name, value string, at time.Time) error {
	row := settingRow{Name: name, Value: value, CreatedAt: utc(at), UpdatedAt: utc(at)}
	err := r.t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "name"}},
		DoUpdates: clause.AssignmentColumns([]string{"value", "updated_at"}),
	}).Create(&row).Error
	return translate(err, "setting")
}

func (r settingRepo) PutIfAbsent(name, value string, at time.Time) (bool, error) {
	row := settingRow{Name: name, Value: value, CreatedAt: utc(at), UpdatedAt: utc(at)}
	res := r.t.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "name"}},
		DoNothing: true,
	}).Create(&row)
	return res.RowsAffected == 1, translate(res.Error, "setting")
}

// getOrCreateSecret reads the named secret (base64 in settings), or stores a
// generated one if there is none.
func getOrCreateSecret(s domain.SettingRepo, name string, generate func() ([]byte, error)) ([]byte, bool, error) {
	value, err := s.Get(name)
	if err == nil {
		secret, err := base64.StdEncoding.DecodeString(value)
		return secret, false, err
	}
	if domain.ErrorCode(err) != domain.ENotFound {
		return nil, false, err
	}
	fresh, err := generate()
	if err != nil {
		return nil, false, fmt.Errorf("store: generate secret %s: %w", name, err)
	}
	created, err := s.PutIfAbsent(name, base64.StdEncoding.EncodeToString(fresh), time.Now())
	if err != nil || created {
		return fresh, created, err
	}
	value, err = s.Get(name) // another process won the race
	if err != nil {
		return nil, false, err
	}
	secret, err := base64.StdEncoding.DecodeString(value)
	return secret, false, err
}
