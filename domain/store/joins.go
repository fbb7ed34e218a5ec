package store

import (
	"time"

	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
)

// invitationRow is a club's invitation (migration 18).
type invitationRow struct {
	ID        int64 `gorm:"primaryKey"`
	ClubID    int64
	TokenHash string
	CreatedBy *int64
	ExpiresAt *time.Time
	MaxUses   *int
	Uses      int
	RevokedAt *time.Time
	CreatedAt time.Time `gorm:"autoCreateTime:false"`
	ClubName  string    `gorm:"->;-:migration"` // read with a join, never written
}

func (invitationRow) TableName() string { return "club_invitations" }

func (r invitationRow) domain() domain.Invitation {
	return domain.Invitation{ID: r.ID, ClubID: r.ClubID, ClubName: r.ClubName, TokenHash: r.TokenHash,
		CreatedBy: r.CreatedBy, ExpiresAt: utcPtr(r.ExpiresAt), MaxUses: r.MaxUses, Uses: r.Uses,
		RevokedAt: utcPtr(r.RevokedAt), CreatedAt: r.CreatedAt.UTC()}
}

type joinRepo struct{ t *tx }

func (t *tx) Joins() domain.JoinRepo { return joinRepo{t} }

const invitationColumns = "club_invitations.id, club_invitations.club_id, token_hash, created_by, expires_at, max_uses, uses, " +
	"revoked_at, club_invitations.created_at, clubs.name AS club_name"

func (r joinRepo) CreateInvitation(inv *domain.Invitation) error {
	row := invitationRow{ClubID: inv.ClubID, TokenHash: inv.TokenHash, CreatedBy: inv.CreatedBy,
		MaxUses: inv.MaxUses, CreatedAt: utc(inv.CreatedAt)}
	if inv.ExpiresAt != nil {
		at := utc(*inv.ExpiresAt)
		row.ExpiresAt = &at
	}
	if err := r.t.db.Omit("ClubName").Create(&row).Error; err != nil {
		return translate(err, "invitation")
	}
	inv.ID = row.ID
	return nil
}

func (r joinRepo) invitations() *gorm.DB {
	return r.t.db.Table("club_invitations").Select(invitationColumns).Joins("JOIN clubs ON clubs.id = club_invitations.club_id")
}

func (r joinRepo) Invitation(clubID, id int64) (domain.Invitation, error) {
	var row invitationRow
	err := r.invitations().Where("club_invitations.id = ? AND club_invitations.club_id = ?", id, clubID).Take(&row).Error
	if err != nil {
		return domain.Invitation{}, translate(err, "invitation")
	}
	return row.domain(), nil
}

func (r joinRepo) InvitationByHash(tokenHash string) (domain.Invitation, error) {
	var row invitationRow
	if err := r.invitations().Where("token_hash = ?", tokenHash).Take(&row).Error; err != nil {
		return domain.Invitation{}, translate(err, "invitation")
	}
	return row.domain(), nil
}

func (r joinRepo) Invitations(clubID int64) ([]domain.Invitation, error) {
	var rows []invitationRow
	err := r.invitations().Where("club_invitations.club_id = ?", clubID).Order("club_invitations.id DESC").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "invitation")
	}
	out := make([]domain.Invitation, len(rows))
	for i, row := range rows {
		out[i] = row.domain()
	}
	return out, nil
}

func (r joinRepo) RevokeInvitation(id int64, at time.Time) error {
	res := r.t.db.Exec("UPDATE club_invitations SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?", utc(at), id)
	return hitOne(res, "invitation")
}

// UseInvitation counts a use in one statement, so that the check and the
// count cannot be split by another request's.
func (r joinRepo) UseInvitation(id int64) (bool, error) {
	res := r.t.db.Exec("UPDATE club_invitations SET uses = uses + 1 WHERE id = ? AND (max_uses IS NULL OR uses < max_uses)", id)
	if res.Error != nil {
		return false, translate(res.Error, "invitation")
	}
	return res.RowsAffected == 1, nil
}

// LinkPlayer links in one conditional statement: of two claims at once,
// the second changes no row.
func (r joinRepo) LinkPlayer(playerID, userID int64, at time.Time) (bool, error) {
	res := r.t.db.Exec("UPDATE players SET user_id = ?, updated_at = ? WHERE id = ? AND user_id IS NULL", userID, utc(at), playerID)
	if res.Error != nil {
		return false, translate(res.Error, "player")
	}
	return res.RowsAffected == 1, nil
}

func (r joinRepo) SetClaimCode(playerID int64, code *string) error {
	return hitOne(r.t.db.Exec("UPDATE players SET claim_code = ? WHERE id = ?", code, playerID), "player")
}

func (r joinRepo) ByClaimCode(code string) (domain.Player, error) {
	var row playerRow
	if err := r.t.db.Where("claim_code = ?", code).Take(&row).Error; err != nil {
		return domain.Player{}, translate(err, "player")
	}
	return row.domain(), nil
}

func (r joinRepo) ClaimCodes(clubID int64) ([]domain.ClaimCode, error) {
	var rows []struct {
		ID           int64
		Name         string
		FederationID *string
		ClaimCode    *string
		Claimed      bool
	}
	err := r.t.db.Raw("SELECT id, name, federation_id, claim_code, user_id IS NOT NULL AS claimed FROM players "+
		"WHERE club_id = ? ORDER BY name, id", clubID).Scan(&rows).Error
	if err != nil {
		return nil, translate(err, "player")
	}
	out := make([]domain.ClaimCode, len(rows))
	for i, row := range rows {
		out[i] = domain.ClaimCode{PlayerID: row.ID, Name: row.Name, FederationID: row.FederationID, Claimed: row.Claimed}
		if !row.Claimed && row.ClaimCode != nil {
			out[i].Code = *row.ClaimCode // a claimed profile's code is kept, never shown
		}
	}
	return out, nil
}

func (r joinRepo) NoteClaimFailure(userID int64, address string, at time.Time) error {
	err := r.t.db.Exec("INSERT INTO claim_failures (user_id, address, created_at) VALUES (?, ?, ?)", userID, address, utc(at)).Error
	return translate(err, "claim failure")
}

func (r joinRepo) ClaimFailures(userID int64, address string, since time.Time) (byUser, byAddress int, err error) {
	var counts struct{ ByUser, ByAddress int }
	err = r.t.db.Raw("SELECT "+
		"(SELECT COUNT(*) FROM claim_failures WHERE user_id = ? AND created_at > ?) AS by_user, "+
		"(SELECT COUNT(*) FROM claim_failures WHERE address = ? AND created_at > ?) AS by_address",
		userID, utc(since), address, utc(since)).Scan(&counts).Error
	if err != nil {
		return 0, 0, translate(err, "claim failure")
	}
	return counts.ByUser, counts.ByAddress, nil
}

// DeleteClaimFailures deletes one batch, picked by id as tokenRepo's
// DeleteExpired does.
func (r joinRepo) DeleteClaimFailures(before time.Time, limit int) (int64, error) {
	res := r.t.db.Exec("DELETE FROM claim_failures WHERE id IN (SELECT id FROM claim_failures WHERE created_at < ? ORDER BY id LIMIT ?)",
		utc(before), limit)
	return res.RowsAffected, translate(res.Error, "claim failure")
}

func (r joinRepo) ClubPlayers(clubID int64) ([]domain.Player, error) {
	var rows []playerRow
	if err := r.t.db.Where("club_id = ?", clubID).Order("id").Find(&rows).Error; err != nil {
		return nil, translate(err, "player")
	}
	out := make([]domain.Player, len(rows))
	for i, row := range rows {
		out[i] = row.domain()
	}
	return out, nil
}

func (r joinRepo) ByFederationID(federationID string) (domain.Player, error) {
	var row playerRow
	if err := r.t.db.Where("federation_id = ?", federationID).Take(&row).Error; err != nil {
		return domain.Player{}, translate(err, "player")
	}
	return row.domain(), nil
}
