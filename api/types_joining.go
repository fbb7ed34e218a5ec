package api

import (
	"time"

	"github.com/burraco/burraco/domain"
)

// Invitation is a club's invitation link, as its directors see it. The
// token (and so the link) is shown only when it is created.
type Invitation struct {
	ID     int64 `json:"id" example:"3"`
	ClubID int64 `json:"club_id" example:"7"`
	// When it stops working; absent: never.
	ExpiresAt *time.Time `json:"expires_at,omitempty" format:"date-time"`
	// How many people it may make members; absent: any number.
	MaxUses *int `json:"max_uses,omitempty" example:"30"`
	// How many people it made members.
	Uses      int        `json:"uses" example:"4"`
	RevokedAt *time.Time `json:"revoked_at,omitempty" format:"date-time"`
	CreatedAt time.Time  `json:"created_at" format:"date-time"`
	// valid, or why it no longer makes members.
	Status string `json:"status" enums:"valid,invitation_revoked,invitation_expired,invitation_used_up" example:"valid"`
} // @name Invitation

// NewInvitation is a created invitation with its token and link, shown
// this once: only a hash of the token is stored.
type NewInvitation struct {
	Invitation
	// 128 random bits, base64url.
	Token string `json:"token" example:"q3Zt0c9cQ2mJb1xk7Vf8aA"`
	// The page that accepts it, relative to the server.
	Link string `json:"link" example:"/app/join/q3Zt0c9cQ2mJb1xk7Vf8aA"`
	// An SVG image of a QR code of the link.
	QR string `json:"qr" example:"/api/v1/invitations/q3Zt0c9cQ2mJb1xk7Vf8aA/qr"`
} // @name NewInvitation

// InvitationList is a club's invitations, newest first.
type InvitationList struct {
	Items []Invitation `json:"items"`
} // @name InvitationList

// InvitationCreateRequest creates an invitation; both limits are optional.
type InvitationCreateRequest struct {
	// When it stops working (in the future); absent: never.
	ExpiresAt *time.Time `json:"expires_at,omitempty" format:"date-time" example:"2031-01-31T23:00:00Z"`
	// How many people it may make members, 1..10000; absent: any number.
	MaxUses *int `json:"max_uses,omitempty" minimum:"1" maximum:"10000" example:"30"`
} // @name InvitationCreateRequest

// InvitationPreview is what anyone holding the link may know: the club and
// whether the link still works. Nothing else (no emails, no members).
type InvitationPreview struct {
	ClubID   int64  `json:"club_id" example:"7"`
	ClubName string `json:"club_name" example:"Circolo Roma"`
	Status   string `json:"status" enums:"valid,invitation_revoked,invitation_expired,invitation_used_up" example:"valid"`
} // @name InvitationPreview

// InvitationAccepted is the membership an invitation gave.
type InvitationAccepted struct {
	ClubID   int64  `json:"club_id" example:"7"`
	ClubName string `json:"club_name" example:"Circolo Roma"`
	Role     string `json:"role" enums:"member,referee,admin,owner" example:"member"`
	// True when the caller was a member already (no use was counted).
	AlreadyMember bool `json:"already_member" example:"false"`
} // @name InvitationAccepted

// ClaimCode is a profile of the club as its directors see it for claims:
// the claim code of a profile without an account, to hand to its player,
// or that it is claimed (to unlink a wrong claim).
type ClaimCode struct {
	PlayerID     int64   `json:"player_id" example:"100"`
	Name         string  `json:"name" example:"Anna Rossi"`
	FederationID *string `json:"federation_id,omitempty" example:"RM-012345"`
	// 8 characters of 23456789ABCDEFGHJKMNPQRSTUVWXYZ; absent once claimed.
	Code string `json:"code,omitempty" example:"7KX3MQ2P"`
	// True when an account has the profile.
	Claimed bool `json:"claimed" example:"false"`
} // @name ClaimCode

// ClaimCodeList is a club's profiles with their claim codes, by name.
type ClaimCodeList struct {
	Items []ClaimCode `json:"items"`
} // @name ClaimCodeList

// ClaimRequest claims a profile with its code.
type ClaimRequest struct {
	// As printed; case, spaces and dashes do not matter.
	Code string `json:"code" example:"7KX3-MQ2P"`
} // @name ClaimRequest

// ImportLine is what an import did, or would do, with one line of the
// file. The line's email is never echoed.
type ImportLine struct {
	// The line of the file (the header is line 1).
	Line         int    `json:"line" example:"2"`
	Name         string `json:"name" example:"Anna Rossi"`
	FederationID string `json:"federation_id,omitempty" example:"RM-012345"`
	Outcome      string `json:"outcome" enums:"create,update,skip,invalid" example:"create"`
	// Why, a stable code: new; name_changed, federation_id_added; same_federation_id, same_email, same_name, federation_id_of_another_club, email_has_profile_elsewhere, duplicate_line; invalid_name, invalid_email, invalid_federation_id.
	Reason string `json:"reason" example:"new"`
	Detail string `json:"detail" example:"a new player of the club"`
	// The profile created, updated or matched.
	PlayerID int64 `json:"player_id,omitempty" example:"100"`
} // @name ImportLine

// ImportReport is an import's outcome, line by line.
type ImportReport struct {
	// True: nothing was written.
	DryRun  bool         `json:"dry_run" example:"true"`
	Created int          `json:"created" example:"12"`
	Updated int          `json:"updated" example:"1"`
	Skipped int          `json:"skipped" example:"2"`
	Invalid int          `json:"invalid" example:"0"`
	Lines   []ImportLine `json:"lines"`
} // @name ImportReport

func invitationOut(now time.Time) func(domain.Invitation) Invitation {
	return func(i domain.Invitation) Invitation {
		return Invitation{ID: i.ID, ClubID: i.ClubID, ExpiresAt: i.ExpiresAt, MaxUses: i.MaxUses, Uses: i.Uses,
			RevokedAt: i.RevokedAt, CreatedAt: i.CreatedAt, Status: invitationStatus(i.Refusal(now))}
	}
}

func invitationStatus(refusal domain.Code) string {
	if refusal == "" {
		return "valid"
	}
	return string(refusal)
}

func claimCodeOut(c domain.ClaimCode) ClaimCode {
	return ClaimCode{PlayerID: c.PlayerID, Name: c.Name, FederationID: c.FederationID, Code: c.Code, Claimed: c.Claimed}
}

func importReportOut(r domain.ImportReport) ImportReport {
	return ImportReport{DryRun: r.DryRun, Created: r.Created, Updated: r.Updated, Skipped: r.Skipped, Invalid: r.Invalid,
		Lines: mapSlice(r.Lines, func(l domain.ImportLine) ImportLine {
			return ImportLine{Line: l.Line, Name: l.Name, FederationID: l.FederationID, Outcome: l.Outcome,
				Reason: l.Reason, Detail: l.Detail, PlayerID: l.PlayerID}
		})}
}
