package api

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	goqr "github.com/piglig/go-qr"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/clientaddr"
)

// joiningHandlers serve the ways into a club (issue 28): invitations by
// link or QR code, claim codes for players imported from a list, and a
// person's claim of (or release from) a player profile.
type joiningHandlers struct{ s *server }

// invitationRoutes are an invitation's, by its token
// (/api/v1/invitations/{token}).
func (h joiningHandlers) invitationRoutes(r routes) {
	r.get("/", h.previewInvitation)
	r.get("/qr", h.invitationQR)
	r.with(h.s.requireAuth).post("/accept", h.acceptInvitation)
}

// clubRoutes are a club's staff's, under /api/v1/clubs/{clubID}.
func (h joiningHandlers) clubRoutes(r routes) {
	auth := r.with(h.s.requireAuth)
	auth.post("/invitations", h.createInvitation)
	auth.get("/invitations", h.listInvitations)
	auth.delete("/invitations/{invitationID}", h.revokeInvitation)
	auth.get("/claim-codes", h.listClaimCodes)
	auth.post("/players/import", h.importPlayers)
}

// playerRoutes are a person's, under /api/v1/players.
func (h joiningHandlers) playerRoutes(r routes) {
	auth := r.with(h.s.requireAuth)
	auth.post("/claim", h.claimPlayer)
	auth.post("/{playerID}/unlink", h.unlinkPlayer)
}

// Players join by themselves (issue 28): invitations, claim codes, the
// import of a club's players and a player's own results.

// createInvitation creates a club's invitation link.
//
//	@Summary		Create an invitation
//	@ID			createInvitation
//	@Description	For the club's admins and owners. Whoever opens the link signed in (acceptInvitation) becomes a member of the club (role member). The token, the link and the QR code's address are in this answer only: the server keeps a hash of the token.
//	@Tags			clubs
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int						true	"Club id"
//	@Param			body	body		InvitationCreateRequest	true	"Optional limits"
//	@Success		201		{object}	NewInvitation
//	@Header			201		{string}	Location	"/api/v1/clubs/{clubID}/invitations/{invitationID}"
//	@Failure	400	{object}	Problem	"invalid_parameter (a path id that is not a positive integer) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Failure	422	{object}	Problem	"invalid_input: expires_at not in the future, max_uses outside 1..10000 (named in errors)"
//	@Router			/api/v1/clubs/{clubID}/invitations [post]
func (h joiningHandlers) createInvitation(w http.ResponseWriter, r *http.Request) error {
	clubID, req, err := idAndBody[InvitationCreateRequest](h.s, w, r, "clubID")
	if err != nil {
		return err
	}
	inv, err := h.s.svc.Joins.CreateInvitation(r.Context(), ActorFrom(r.Context()), clubID,
		domain.InvitationInput{ExpiresAt: req.ExpiresAt, MaxUses: req.MaxUses})
	if err != nil {
		return err
	}
	out := NewInvitation{Invitation: invitationOut(h.s.cfg.Now())(inv.Invitation), Token: inv.Token,
		Link: "/app/join/" + inv.Token, QR: "/api/v1/invitations/" + inv.Token + "/qr"}
	return created(w, fmt.Sprintf("/api/v1/clubs/%d/invitations/%d", clubID, inv.ID), out)
}

// listInvitations lists a club's invitations.
//
//	@Summary		List a club's invitations
//	@ID			listInvitations
//	@Description	For the club's admins and owners, newest first, with how many people each made members and whether it still works. The links are not shown again.
//	@Tags			clubs
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int	true	"Club id"
//	@Success		200		{object}	InvitationList
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Router			/api/v1/clubs/{clubID}/invitations [get]
func (h joiningHandlers) listInvitations(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	invs, err := h.s.svc.Joins.Invitations(r.Context(), ActorFrom(r.Context()), clubID)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, InvitationList{Items: mapSlice(invs, invitationOut(h.s.cfg.Now()))})
}

// revokeInvitation revokes an invitation.
//
//	@Summary		Revoke an invitation
//	@ID			revokeInvitation
//	@Description	For the club's admins and owners. The link then answers invitation_revoked; the members it made stay members. Revoking again changes nothing.
//	@Tags			clubs
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID			path		int	true	"Club id"
//	@Param			invitationID	path		int	true	"Invitation id"
//	@Success		200				{object}	Invitation
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: no such club, or no such invitation of it"
//	@Router			/api/v1/clubs/{clubID}/invitations/{invitationID} [delete]
func (h joiningHandlers) revokeInvitation(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	id, err := pathID(r, "invitationID")
	if err != nil {
		return err
	}
	inv, err := h.s.svc.Joins.RevokeInvitation(r.Context(), ActorFrom(r.Context()), clubID, id)
	return answer(w, http.StatusOK, invitationOut(h.s.cfg.Now()), inv, err)
}

// previewInvitation tells what an invitation link is for.
//
//	@Summary		Preview an invitation
//	@ID			previewInvitation
//	@Description	Anyone holding the link: the club's name and whether the link still works (status valid, or the code acceptInvitation would answer). Nothing else of the club.
//	@Tags			clubs
//	@Produce		json
//	@Param			token	path		string	true	"The invitation's token"
//	@Success		200		{object}	InvitationPreview
//	@Failure	404	{object}	Problem	"not_found: no invitation has this token"
//	@x-auth-optional	true
//	@Router			/api/v1/invitations/{token} [get]
func (h joiningHandlers) previewInvitation(w http.ResponseWriter, r *http.Request) error {
	p, err := h.s.svc.Joins.PreviewInvitation(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, InvitationPreview{ClubID: p.ClubID, ClubName: p.ClubName, Status: invitationStatus(p.Refusal)})
}

// invitationQR draws the QR code of an invitation's link.
//
//	@Summary		An invitation's QR code
//	@ID			getInvitationQR
//	@Description	An SVG image of a QR code of the invitation's page on this server (https when the request came over TLS or a proxy says so), to print or show on a screen. Anyone holding the token.
//	@Tags			clubs
//	@Produce		image/svg+xml
//	@Param			token	path		string	true	"The invitation's token"
//	@Success		200		{string}	string	"SVG"
//	@Failure	404	{object}	Problem	"not_found: no invitation has this token"
//	@x-auth-optional	true
//	@Router			/api/v1/invitations/{token}/qr [get]
func (h joiningHandlers) invitationQR(w http.ResponseWriter, r *http.Request) error {
	token := chi.URLParam(r, "token")
	if _, err := h.s.svc.Joins.PreviewInvitation(r.Context(), token); err != nil {
		return err // a QR code only of a link that exists
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	qr, err := goqr.EncodeText(scheme+"://"+r.Host+"/app/join/"+token, goqr.Medium)
	if err != nil {
		return err
	}
	svg, err := qr.ToSVGBytes(goqr.NewQrCodeImgConfig(8, 4))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "private, max-age=300")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(svg)
	return nil
}

// acceptInvitation makes the caller a member of the invitation's club.
//
//	@Summary		Accept an invitation
//	@ID			acceptInvitation
//	@Description	The signed-in caller becomes a member (role member) of the club, and the invitation counts one use. A member of the club already gets 200 with already_member true, and no use is counted, whatever the invitation's state.
//	@Tags			clubs
//	@Produce		json
//	@Security		BearerAuth
//	@Param			token	path		string	true	"The invitation's token"
//	@Success		200		{object}	InvitationAccepted
//	@Failure	401	{object}	Problem	"unauthenticated"
//	@Failure	404	{object}	Problem	"not_found: no invitation has this token"
//	@Failure	409	{object}	Problem	"invitation_revoked, invitation_expired or invitation_used_up"
//	@Router			/api/v1/invitations/{token}/accept [post]
func (h joiningHandlers) acceptInvitation(w http.ResponseWriter, r *http.Request) error {
	j, err := h.s.svc.Joins.AcceptInvitation(r.Context(), ActorFrom(r.Context()), chi.URLParam(r, "token"))
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, InvitationAccepted{ClubID: j.ClubID, ClubName: j.ClubName, Role: string(j.Role),
		AlreadyMember: j.Already})
}

// listClaimCodes lists the claim codes of a club's profiles.
//
//	@Summary		List a club's claim codes
//	@ID			listClaimCodes
//	@Description	For the club's admins and owners: the club's player profiles by name, with the claim code of each one without an account, to hand to its player (who enters it in claimPlayer), and claimed true for those an account has (unlinkPlayer undoes a wrong claim). The codes are never shown to anyone else.
//	@Tags			players
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int	true	"Club id"
//	@Success		200		{object}	ClaimCodeList
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Router			/api/v1/clubs/{clubID}/claim-codes [get]
func (h joiningHandlers) listClaimCodes(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	codes, err := h.s.svc.Joins.ClaimCodes(r.Context(), ActorFrom(r.Context()), clubID)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, ClaimCodeList{Items: mapSlice(codes, claimCodeOut)})
}

// claimPlayer makes a profile made by a director the caller's.
//
//	@Summary		Claim a player profile
//	@ID			claimPlayer
//	@Description	The caller, a member of the profile's club, enters the profile's claim code (from the club's director, or the table card): the profile, with its history, becomes theirs (its user_id is theirs), and the score pad finds their table. Entering the code of one's own profile again answers it. A wrong code counts against the caller's account and address: after 10 in an hour, 429 too_many_claim_attempts until the oldest is an hour old.
//	@Tags			players
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			body	body		ClaimRequest	true	"The code"
//	@Success		200		{object}	Player
//	@Failure	400	{object}	Problem	"malformed_json: the body is not JSON, not an object, or has a field of the wrong type or an unknown field (named in errors)"
//	@Failure	401	{object}	Problem	"unauthenticated"
//	@Failure	403	{object}	Problem	"not_a_member: the caller is not a member of the profile's club (join it first)"
//	@Failure	409	{object}	Problem	"profile_already_claimed (another account has it) or already_has_profile (the caller has a profile)"
//	@Failure	422	{object}	Problem	"claim_code_invalid: no profile has this code"
//	@Failure	429	{object}	Problem	"too_many_claim_attempts: 10 wrong codes in the last hour from this account or address"
//	@Router			/api/v1/players/claim [post]
func (h joiningHandlers) claimPlayer(w http.ResponseWriter, r *http.Request) error {
	var req ClaimRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	address := clientaddr.Key(h.s.proxies.ClientAddr(r))
	p, err := h.s.svc.Joins.Claim(r.Context(), ActorFrom(r.Context()), address, req.Code)
	return answer(w, http.StatusOK, playerOut, p, err)
}

// unlinkPlayer undoes a claim.
//
//	@Summary		Unlink a player profile from its account
//	@ID			unlinkPlayer
//	@Description	For the admins and owners of the profile's club (and site admins), to undo a wrong claim: the profile loses its account (its history stays with it) and gets a new claim code.
//	@Tags			players
//	@Produce		json
//	@Security		BearerAuth
//	@Param			playerID	path		int	true	"Player id"
//	@Success		200			{object}	Player
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: no such player"
//	@Router			/api/v1/players/{playerID}/unlink [post]
func (h joiningHandlers) unlinkPlayer(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "playerID")
	if err != nil {
		return err
	}
	p, err := h.s.svc.Joins.Unlink(r.Context(), ActorFrom(r.Context()), id)
	return answer(w, http.StatusOK, playerOut, p, err)
}

// maxImportBytes bounds an import's body.
const maxImportBytes = 256 << 10

// importPlayers reads a club's list of players.
//
//	@Summary		Import a club's players
//	@ID			importPlayers
//	@Description	For the club's admins and owners. The body is a CSV file (UTF-8, at most 256 KiB and 2000 lines, fields separated by ; or ,) whose first line names the columns: name, and optionally email and federation_id (also nome, e-mail, tessera; other columns are ignored). Each line creates a profile of the club without an account (with a claim code), updates one (a new name for a federation id of the club's; a federation id for a profile of that name or email that has none), or is skipped: a duplicate by federation id, by the email of an account that has a profile, by name (ignoring case and spacing), or of an earlier line; or is invalid. The email only finds duplicates and is not stored. With dry_run=true nothing is written and the answer says what would be done.
//	@Tags			players
//	@Accept			text/csv
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int		true	"Club id"
//	@Param			dry_run	query		bool	false	"Only say what would be done"
//	@Param			body	body		string	true	"The CSV file"
//	@Success		200		{object}	ImportReport
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id is not a positive integer, or dry_run not true or false"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Failure	422	{object}	Problem	"invalid_input: csv (not CSV, no name column, no lines or more than 2000)"
//	@Router			/api/v1/clubs/{clubID}/players/import [post]
func (h joiningHandlers) importPlayers(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	q := query{r: r}
	dryRun := q.bool("dry_run")
	if err := q.err(); err != nil {
		return err
	}
	body := http.MaxBytesReader(w, r.Body, maxImportBytes)
	rep, err := h.s.svc.Joins.ImportPlayers(r.Context(), ActorFrom(r.Context()), clubID, body, dryRun)
	if err != nil {
		return decodeIfTooLarge(err)
	}
	return respond(w, http.StatusOK, importReportOut(rep))
}

// decodeIfTooLarge is the problem of a body past its bound, or err.
func decodeIfTooLarge(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return decodeProblem(err)
	}
	return err
}

// MyResult is one tournament on the caller's own page.
type MyResult struct {
	TournamentID int64     `json:"tournament_id" example:"12"`
	Name         string    `json:"name" example:"Torneo del giovedì"`
	ClubID       int64     `json:"club_id" example:"7"`
	ClubName     string    `json:"club_name" example:"Circolo Roma"`
	StartsAt     time.Time `json:"starts_at" format:"date-time"`
	Status       string    `json:"status" enums:"registration_open,registration_closed,running,finished,results_published" example:"results_published"`
	EntryID      int64     `json:"entry_id" example:"31"`
	// The names of the caller's partners in the entry.
	Partners []string `json:"partners" example:"Bruno Neri"`
	// The entry's place in the standings (provisional while it runs); absent before any result.
	Place *int `json:"place,omitempty" example:"3"`
	VP    int  `json:"vp" example:"52"`
	// How many entries the standings rank.
	Entries int `json:"entries" example:"14"`
} // @name MyResult

// MyResults is the caller's tournaments as a player.
type MyResults struct {
	// Registered and not finished (open, closed or running), by start.
	Upcoming []MyResult `json:"upcoming"`
	// Finished or published, latest first.
	Past []MyResult `json:"past"`
} // @name MyResults

func myResultOut(r domain.MyResult) MyResult {
	out := MyResult{TournamentID: r.TournamentID, Name: r.Name, ClubID: r.ClubID, ClubName: r.ClubName,
		StartsAt: r.StartsAt, Status: r.Status, EntryID: r.EntryID, Partners: r.Partners, VP: r.VP, Entries: r.Entries}
	if r.Place > 0 {
		place := r.Place
		out.Place = &place
	}
	return out
}
