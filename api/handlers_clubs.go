package api

import (
	"fmt"
	"net/http"

	"github.com/burraco/burraco/domain"
)

// clubHandlers serve clubs and their members (/api/v1/clubs). A club's
// invitations, claim codes and imports of players are joiningHandlers',
// its seasons seasonHandlers', its new tournaments tournamentHandlers'.
type clubHandlers struct{ s *server }

func (h clubHandlers) routes(r routes) {
	auth := r.with(h.s.requireAuth) // on matched routes only: 404/405 first
	r.get("/", h.listClubs)
	auth.post("/", h.createClub)
	r.under("/{clubID}", func(r routes) {
		auth := r.with(h.s.requireAuth)
		r.get("/", h.getClub)
		auth.patch("/", h.updateClub)
		auth.under("/members", func(r routes) {
			r.get("/", h.listMembers)
			r.post("/", h.addMember)
			r.patch("/{userID}", h.updateMember)
			r.delete("/{userID}", h.removeMember)
		})
	})
}

// listClubs lists clubs.
//
//	@Summary	List clubs
//	@ID			listClubs
//	@Tags		clubs
//	@Produce	json
//	@Param		q		query		string	false	"Substring of the name or city, ignoring case and accents (niccolo finds Niccolò)"
//	@Param		limit	query		int		false	"Page size, 1..100; 0 or absent means 20"	default(20)	minimum(0)	maximum(100)
//	@Param		offset	query		int		false	"Items to skip"		default(0)	minimum(0)
//	@Success	200		{object}	ClubList
//	@Failure	400	{object}	Problem	"invalid_parameter: a query parameter the schema does not allow (not a number, empty, past its bounds, not one of its values, too long, control characters), every one named in errors"
//	@x-auth-optional	true
//	@Router		/api/v1/clubs [get]
func (h clubHandlers) listClubs(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	f := domain.ClubFilter{Query: q.search()}
	f.Limit, f.Offset = q.page()
	if err := q.err(); err != nil {
		return err
	}
	p, err := h.s.svc.Clubs.List(r.Context(), f)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, ClubList{Items: mapSlice(p.Items, clubOut), Total: p.Total, Limit: p.Limit, Offset: p.Offset})
}

// createClub creates a club.
//
//	@Summary		Create a club
//	@ID			createClub
//	@Description	Any logged-in user may create a club and becomes its owner.
//	@Tags			clubs
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			body	body		ClubCreateRequest	true	"The new club"
//	@Success		201		{object}	Club
//	@Header			201		{string}	Location	"/api/v1/clubs/{clubID}"
//	@Failure	400	{object}	Problem	"malformed_json: the body is not JSON, not an object, or has a field of the wrong type or an unknown field (named in errors)"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (name, city, description)"
//	@Router			/api/v1/clubs [post]
func (h clubHandlers) createClub(w http.ResponseWriter, r *http.Request) error {
	var req ClubCreateRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	c, err := h.s.svc.Clubs.Create(r.Context(), ActorFrom(r.Context()), domain.ClubInput{Name: req.Name, City: req.City, Description: req.Description})
	if err != nil {
		return err
	}
	return created(w, fmt.Sprintf("/api/v1/clubs/%d", c.ID), clubOut(c))
}

// getClub returns a club.
//
//	@Summary	Get a club
//	@ID			getClub
//	@Tags		clubs
//	@Produce	json
//	@Param		clubID	path		int	true	"Club id"
//	@Success	200		{object}	Club
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@x-auth-optional	true
//	@Router		/api/v1/clubs/{clubID} [get]
func (h clubHandlers) getClub(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	c, err := h.s.svc.Clubs.Get(r.Context(), id)
	return answer(w, http.StatusOK, clubOut, c, err)
}

// updateClub changes a club.
//
//	@Summary		Update a club
//	@ID			updateClub
//	@Description	Only the club's admins and owners, or a site admin. Absent fields are left as they are.
//	@Tags			clubs
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int					true	"Club id"
//	@Param			body	body		ClubUpdateRequest	true	"Fields to change"
//	@Success		200		{object}	Club
//	@Failure	400	{object}	Problem	"invalid_parameter (a path id that is not a positive integer) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (name, city, description)"
//	@Router			/api/v1/clubs/{clubID} [patch]
func (h clubHandlers) updateClub(w http.ResponseWriter, r *http.Request) error {
	id, req, err := idAndBody[ClubUpdateRequest](h.s, w, r, "clubID")
	if err != nil {
		return err
	}
	c, err := h.s.svc.Clubs.Update(r.Context(), ActorFrom(r.Context()), id, domain.ClubPatch{Name: req.Name, City: req.City, Description: req.Description})
	return answer(w, http.StatusOK, clubOut, c, err)
}

// listMembers lists a club's members.
//
//	@Summary		List a club's members
//	@ID			listMembers
//	@Description	Only members of the club, or a site admin.
//	@Tags			members
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int		true	"Club id"
//	@Param			role	query		string	false	"Only members with this role"	Enums(member, referee, admin, owner)
//	@Param			limit	query		int		false	"Page size, 1..100; 0 or absent means 20"				default(20)	minimum(0)	maximum(100)
//	@Param			offset	query		int		false	"Items to skip"					default(0)	minimum(0)
//	@Success		200		{object}	MemberList
//	@Failure	400	{object}	Problem	"invalid_parameter: a query parameter the schema does not allow (not a number, empty, past its bounds, not one of its values, too long, control characters), every one named in errors"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: member of the club"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Router			/api/v1/clubs/{clubID}/members [get]
func (h clubHandlers) listMembers(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	q := query{r: r}
	f := domain.MemberFilter{Role: domain.Role(q.enum("role", func(s string) bool { return domain.Role(s).Valid() }, "member, referee, admin, owner"))}
	f.Limit, f.Offset = q.page()
	if err := q.err(); err != nil {
		return err
	}
	p, err := h.s.svc.Clubs.ListMembers(r.Context(), ActorFrom(r.Context()), clubID, f)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, MemberList{Items: mapSlice(p.Items, memberOut), Total: p.Total, Limit: p.Limit, Offset: p.Offset})
}

// addMember adds a user to a club.
//
//	@Summary		Add a member
//	@ID			addMember
//	@Description	Only the club's admins and owners, or a site admin; only an owner or a site admin may grant the owner role. Exactly one of user_id and email (the schema's oneOf): both is 422 invalid_input naming email (conflict), neither naming user_id (required).
//	@Tags			members
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int					true	"Club id"
//	@Param			body	body		MemberAddRequest	true	"The user (user_id, or the email they registered with) and their role"
//	@Success		201		{object}	Member
//	@Header			201		{string}	Location	"/api/v1/clubs/{clubID}/members/{userID}"
//	@Failure	400	{object}	Problem	"invalid_parameter (a path id that is not a positive integer) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club (owner to grant owner)"
//	@Failure	404	{object}	Problem	"not_found: the club, or the user (no account with that id or email)"
//	@Failure	409	{object}	Problem	"conflict: the user is already a member"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (role; neither or both of user_id and email)"
//	@Router			/api/v1/clubs/{clubID}/members [post]
func (h clubHandlers) addMember(w http.ResponseWriter, r *http.Request) error {
	clubID, req, err := idAndBody[MemberAddRequest](h.s, w, r, "clubID")
	if err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		return err
	}
	var m domain.Membership
	if req.Email != nil {
		m, err = h.s.svc.Clubs.AddMemberByEmail(r.Context(), ActorFrom(r.Context()), clubID, *req.Email, domain.Role(req.Role))
	} else {
		m, err = h.s.svc.Clubs.AddMember(r.Context(), ActorFrom(r.Context()), clubID, *req.UserID, domain.Role(req.Role))
	}
	if err != nil {
		return err
	}
	return created(w, fmt.Sprintf("/api/v1/clubs/%d/members/%d", m.ClubID, m.UserID), memberOut(m))
}

// updateMember changes a member's role.
//
//	@Summary		Change a member's role
//	@ID			updateMember
//	@Description	Only the club's admins and owners, or a site admin; only an owner or a site admin may grant or take away the owner role.
//	@Tags			members
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int					true	"Club id"
//	@Param			userID	path		int					true	"User id of the member"
//	@Param			body	body		MemberUpdateRequest	true	"The new role"
//	@Success		200		{object}	Member
//	@Failure	400	{object}	Problem	"invalid_parameter (a path id that is not a positive integer) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club (owner to grant or take away owner)"
//	@Failure	404	{object}	Problem	"not_found: the club, or the user is not a member"
//	@Failure	409	{object}	Problem	"conflict: the last owner cannot be demoted"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (role)"
//	@Router			/api/v1/clubs/{clubID}/members/{userID} [patch]
func (h clubHandlers) updateMember(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	userID, req, err := idAndBody[MemberUpdateRequest](h.s, w, r, "userID")
	if err != nil {
		return err
	}
	m, err := h.s.svc.Clubs.SetRole(r.Context(), ActorFrom(r.Context()), clubID, userID, domain.Role(req.Role))
	return answer(w, http.StatusOK, memberOut, m, err)
}

// removeMember removes a member from a club.
//
//	@Summary		Remove a member
//	@ID			removeMember
//	@Description	The club's admins and owners, or a site admin; a member may remove themself. The last owner cannot be removed.
//	@Tags			members
//	@Security		BearerAuth
//	@Param			clubID	path	int	true	"Club id"
//	@Param			userID	path	int	true	"User id of the member"
//	@Success		204
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club (owner to remove an owner), or the member themself"
//	@Failure	404	{object}	Problem	"not_found: the club, or the user is not a member"
//	@Failure	409	{object}	Problem	"conflict: the last owner cannot be removed"
//	@Router			/api/v1/clubs/{clubID}/members/{userID} [delete]
func (h clubHandlers) removeMember(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	userID, err := pathID(r, "userID")
	if err != nil {
		return err
	}
	if err := h.s.svc.Clubs.RemoveMember(r.Context(), ActorFrom(r.Context()), clubID, userID); err != nil {
		return err
	}
	return noContent(w)
}
