package api

import (
	"fmt"
	"net/http"

	"github.com/burraco/burraco/domain"
)

// playerHandlers serve the player profiles (/api/v1/players); claiming
// and unlinking one are joiningHandlers'.
type playerHandlers struct{ s *server }

func (h playerHandlers) routes(r routes) {
	r.get("/", h.listPlayers)
	r.with(h.s.requireAuth).post("/", h.createPlayer)
	r.under("/{playerID}", func(r routes) {
		auth := r.with(h.s.requireAuth)
		r.get("/", h.getPlayer)
		auth.patch("/", h.updatePlayer)
		auth.delete("/", h.deletePlayer)
	})
}

// listPlayers lists player profiles.
//
//	@Summary	List players
//	@ID			listPlayers
//	@Tags		players
//	@Produce	json
//	@Param		q		query		string	false	"Substring of the name, ignoring case and accents, or an exact federation id"
//	@Param		club_id	query		int		false	"Only players of this club"
//	@Param		limit	query		int		false	"Page size, 1..100; 0 or absent means 20"	default(20)	minimum(0)	maximum(100)
//	@Description	Ordered by name; without categories (a player's own read shows them to those who may see them). The ETag names the page: send it back in If-None-Match for a 304 while the page has not changed.
//	@Param		offset	query		int		false	"Items to skip"		default(0)	minimum(0)
//	@Param		If-None-Match	header	string	false	"The ETag of the page the caller has"
//	@Success	200		{object}	PlayerList
//	@Header		200		{string}	ETag	"Names the page's content"
//	@Success	304		"The page has not changed (If-None-Match matched)"
//	@Failure	400	{object}	Problem	"invalid_parameter: a query parameter the schema does not allow (not a number, empty, past its bounds, not one of its values, too long, control characters), every one named in errors"
//	@x-auth-optional	true
//	@Router		/api/v1/players [get]
func (h playerHandlers) listPlayers(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	f := domain.PlayerFilter{Query: q.search(), ClubID: q.int64("club_id")}
	f.Limit, f.Offset = q.page()
	if err := q.err(); err != nil {
		return err
	}
	p, err := h.s.svc.Players.List(r.Context(), f)
	if err != nil {
		return err
	}
	return h.s.respondStamped(w, r, p.Stamp, func() any {
		return PlayerList{Items: mapSlice(p.Items, listedPlayerOut), Total: p.Total, Limit: p.Limit, Offset: p.Offset}
	})
}

// createPlayer creates a player profile.
//
//	@Summary		Create a player
//	@ID			createPlayer
//	@Description	A user may create their own profile (user_id = their id, or absent for a profile without a login if they are an admin of club_id); a club's admins may create profiles of their club's players; a site admin anything.
//	@Tags			players
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			body	body		PlayerCreateRequest	true	"The new player"
//	@Success		201		{object}	Player
//	@Header			201		{string}	Location	"/api/v1/players/{playerID}"
//	@Failure	400	{object}	Problem	"malformed_json: the body is not JSON, not an object, or has a field of the wrong type or an unknown field (named in errors)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: the club or the user"
//	@Failure	409	{object}	Problem	"conflict: the federation id is taken, or the user already has a profile"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (name, federation_id, club_id, user_id)"
//	@Router			/api/v1/players [post]
func (h playerHandlers) createPlayer(w http.ResponseWriter, r *http.Request) error {
	var req PlayerCreateRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	in := domain.PlayerInput{Name: req.Name, FederationID: req.FederationID, ClubID: req.ClubID, UserID: req.UserID, Region: req.Region}
	p, err := h.s.svc.Players.Create(r.Context(), ActorFrom(r.Context()), in)
	if err != nil {
		return err
	}
	return created(w, fmt.Sprintf("/api/v1/players/%d", p.ID), playerOut(p))
}

// getPlayer returns a player.
//
//	@Summary	Get a player
//	@ID			getPlayer
//	@Description	categories are shown only to the player themself, the directors (admins) of the player's club and site admins.
//	@Tags		players
//	@Produce	json
//	@Param		playerID	path		int	true	"Player id"
//	@Success	200			{object}	Player
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	404	{object}	Problem	"not_found: no such player"
//	@x-auth-optional	true
//	@Router		/api/v1/players/{playerID} [get]
func (h playerHandlers) getPlayer(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "playerID")
	if err != nil {
		return err
	}
	p, err := h.s.svc.Players.Get(r.Context(), id)
	if err == nil {
		p, err = h.s.svc.Players.CategoriesSeen(r.Context(), ActorFrom(r.Context()), p)
	}
	return answer(w, http.StatusOK, playerOut, p, err)
}

// updatePlayer changes a player.
//
//	@Summary		Update a player
//	@ID			updatePlayer
//	@Description	The player themself, an admin of the player's club, or a site admin. Absent fields are left as they are. categories only by an admin (director) of the player's club or a site admin: 403 forbidden for the player themself.
//	@Tags			players
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			playerID	path		int					true	"Player id"
//	@Param			body		body		PlayerUpdateRequest	true	"Fields to change"
//	@Success		200			{object}	Player
//	@Failure	400	{object}	Problem	"invalid_parameter (a path id that is not a positive integer) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: the player, or the club to move it to"
//	@Failure	409	{object}	Problem	"conflict: the federation id is taken"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (name, federation_id, club_id; club_id and clear_club together; categories: too_many, categories[i]: invalid)"
//	@Router			/api/v1/players/{playerID} [patch]
func (h playerHandlers) updatePlayer(w http.ResponseWriter, r *http.Request) error {
	id, req, err := idAndBody[PlayerUpdateRequest](h.s, w, r, "playerID")
	if err != nil {
		return err
	}
	patch := domain.PlayerPatch{Name: req.Name, FederationID: req.FederationID, ClubID: req.ClubID, ClearClub: req.ClearClub,
		Categories: req.Categories, Region: req.Region}
	p, err := h.s.svc.Players.Update(r.Context(), ActorFrom(r.Context()), id, patch)
	if err == nil {
		p, err = h.s.svc.Players.CategoriesSeen(r.Context(), ActorFrom(r.Context()), p)
	}
	return answer(w, http.StatusOK, playerOut, p, err)
}

// deletePlayer deletes a player.
//
//	@Summary		Delete a player
//	@ID			deletePlayer
//	@Description	The player themself, an admin of the player's club, or a site admin. The profile is gone (404 from then on), but its name is kept: the entries, standings, exports and printouts of the tournaments it played in go on naming it as it was named when deleted.
//	@Tags			players
//	@Security		BearerAuth
//	@Param			playerID	path	int	true	"Player id"
//	@Success		204
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs"
//	@Failure	404	{object}	Problem	"not_found: no such player"
//	@Failure	409	{object}	Problem	"conflict: the player is still referenced"
//	@Router			/api/v1/players/{playerID} [delete]
func (h playerHandlers) deletePlayer(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "playerID")
	if err != nil {
		return err
	}
	if err := h.s.svc.Players.Delete(r.Context(), ActorFrom(r.Context()), id); err != nil {
		return err
	}
	return noContent(w)
}
