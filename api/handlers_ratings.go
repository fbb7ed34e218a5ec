package api

import (
	"net/http"

	"github.com/burraco/burraco/domain"
)

// ratingHandlers serve the players' ratings (issue 29); a rematch, which
// a rated match leads to, is tableHandlers'.
type ratingHandlers struct{ s *server }

func (h ratingHandlers) routes(r routes) {
	auth := r.with(h.s.requireAuth)
	auth.get("/ratings", h.listRatings)
	auth.get("/users/{userID}/ratings", h.userRatings)
}

// listRatings returns a family's leaderboard.
//
//	@Summary		A rule set family's leaderboard
//	@ID			listRatings
//	@Description	The players rated in the family (italian: fibur and fibur-row; reale; brazilian: aberto and fechado): the established ratings first, then the provisional ones (rd above 110, or fewer than 5 rated matches), each by rating, highest first. Ratings are Glicko-2 (tau 0.5; a new player 1500, rd 350, volatility 0.06), each rated match one rating period; they move only with the end of a rated table's match decided by play, a clock, a forfeit or a claimed win, with no bot ever standing in (never an aborted match, nor a claimed draw).
//	@Tags			ratings
//	@Produce		json
//	@Security		BearerAuth
//	@Param			family	query		string	false	"The rule set family; absent means italian"	Enums(italian, reale, brazilian)	default(italian)
//	@Param			limit	query		int		false	"Page size, 1..100; 0 or absent means 20"	default(20)	minimum(0)	maximum(100)
//	@Param			offset	query		int		false	"Items to skip"		default(0)	minimum(0)
//	@Success		200		{object}	RatingList
//	@Failure	400	{object}	Problem	"invalid_parameter: a query parameter the schema does not allow (not a number, empty, past its bounds, not one of its values), every one named in errors"
//	@Failure	401	{object}	Problem	"unauthenticated: no or bad token"
//	@Router			/api/v1/ratings [get]
func (h ratingHandlers) listRatings(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	f := domain.RatingFilter{Family: domain.RatingFamily(q.enum("family", func(s string) bool { return domain.RatingFamily(s).Valid() }, "italian, reale, brazilian"))}
	f.Limit, f.Offset = q.page()
	if err := q.err(); err != nil {
		return err
	}
	page, err := h.s.svc.Ratings.Leaderboard(r.Context(), ActorFrom(r.Context()), f)
	return answer(w, http.StatusOK, ratingListOut, page, err)
}

// userRatings returns a user's ratings with their history.
//
//	@Summary		A user's ratings
//	@ID			getUserRatings
//	@Description	The user's ratings, one per rule set family they played rated matches in (none yet: an empty list), and the latest 200 changes, newest first: each rated match's opponent (in pairs, the opposing pair as one: their mean rating and the root mean square of their deviations), score and the rating before and after.
//	@Tags			ratings
//	@Produce		json
//	@Security		BearerAuth
//	@Param			userID	path		int	true	"User id"
//	@Success		200		{object}	UserRatings
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	401	{object}	Problem	"unauthenticated: no or bad token"
//	@Failure	404	{object}	Problem	"not_found: no such user"
//	@Router			/api/v1/users/{userID}/ratings [get]
func (h ratingHandlers) userRatings(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "userID")
	if err != nil {
		return err
	}
	u, err := h.s.svc.Ratings.OfUser(r.Context(), ActorFrom(r.Context()), id)
	return answer(w, http.StatusOK, userRatingsOut, u, err)
}
