package api

import (
	"net/http"

	"github.com/burraco/burraco/domain"
)

// meHandlers answer the caller about themselves (/api/v1/me…): their
// account, clubs, tournaments, results and season rankings. Every route
// needs an access token.
type meHandlers struct{ s *server }

func (h meHandlers) routes(r routes) {
	auth := r.with(h.s.requireAuth) // on matched routes only: 404/405 first
	auth.get("/me", h.me)
	auth.get("/me/clubs", h.myClubs)
	auth.get("/me/tournaments", h.myTournaments)
	auth.get("/me/results", h.myResults)
	auth.get("/me/rankings", h.myRankings)
}

// me returns the caller.
//
//	@Summary	The current user
//	@ID			getMe
//	@Tags		auth
//	@Produce	json
//	@Security	BearerAuth
//	@Success	200	{object}	User
//	@Router		/api/v1/me [get]
func (h meHandlers) me(w http.ResponseWriter, r *http.Request) error {
	u, err := h.s.svc.Auth.User(r.Context(), ActorFrom(r.Context()).UserID)
	return answer(w, http.StatusOK, userOut, u, err)
}

// myClubs lists the caller's clubs and roles.
//
//	@Summary		The current user's clubs and roles
//	@ID				getMyClubs
//	@Description	The clubs the caller belongs to, with the role there, ordered by club name: what a frontend needs after login to show admin or referee tools.
//	@Tags			auth
//	@Produce		json
//	@Security		BearerAuth
//	@Param			limit	query		int	false	"Page size, 1..100; 0 or absent means 20"	default(20)	minimum(0)	maximum(100)
//	@Param			offset	query		int	false	"Items to skip"								default(0)	minimum(0)
//	@Success		200		{object}	MemberList
//	@Failure		400		{object}	Problem	"invalid_parameter: a query parameter the schema does not allow (not a number, empty, past its bounds, not one of its values, too long, control characters), every one named in errors"
//	@Router			/api/v1/me/clubs [get]
func (h meHandlers) myClubs(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	var f domain.MyClubsFilter
	f.Limit, f.Offset = q.page()
	if err := q.err(); err != nil {
		return err
	}
	p, err := h.s.svc.Clubs.MyClubs(r.Context(), ActorFrom(r.Context()), f)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, MemberList{Items: mapSlice(p.Items, memberOut), Total: p.Total, Limit: p.Limit, Offset: p.Offset})
}

// myResults returns the caller's tournaments as a player.
//
//	@Summary		The current user's results
//	@ID				getMyResults
//	@Description	The tournaments the caller plays in through their player profile: those not finished (registered, closed or running) and, latest first, the finished ones with the caller's place, VP and partners. Cancelled tournaments are left out. For the player's own page (/app/me).
//	@Tags			auth
//	@Produce		json
//	@Security		BearerAuth
//	@Success		200		{object}	MyResults
//	@Failure		401		{object}	Problem	"unauthenticated"
//	@Router			/api/v1/me/results [get]
func (h meHandlers) myResults(w http.ResponseWriter, r *http.Request) error {
	mine, err := h.s.svc.Play.Mine(r.Context(), ActorFrom(r.Context()))
	if err != nil {
		return err
	}
	res := domain.ResultsOf(mine)
	return respond(w, http.StatusOK, MyResults{Upcoming: mapSlice(res.Upcoming, myResultOut), Past: mapSlice(res.Past, myResultOut)})
}

// myRankings lists the season rankings the caller is in.
//
//	@Summary		The current user's season rankings
//	@ID				getMyRankings
//	@Description	The season rankings the caller is in through any of their player profiles (an evening of theirs counted), by club name, then latest season first: the caller's place (null when not ranked), points (placing points or VP, by the scheme), evenings and how many players are ranked. A plain array.
//	@Tags			auth
//	@Produce		json
//	@Security		BearerAuth
//	@Success		200		{array}		MyRanking
//	@Failure		401		{object}	Problem	"unauthenticated"
//	@Router			/api/v1/me/rankings [get]
func (h meHandlers) myRankings(w http.ResponseWriter, r *http.Request) error {
	mine, err := h.s.svc.Seasons.Mine(r.Context(), ActorFrom(r.Context()))
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, mapSlice(mine, myRankingOut))
}
