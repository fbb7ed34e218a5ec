package api

import (
	"net/http"
)

// myTournaments lists the caller's tournaments and where they sit.
//
//	@Summary		The current user's tournaments
//	@ID				getMyTournaments
//	@Description	The tournaments the caller is entered in (through any of their player profiles, a withdrawn entry included) or is assigned to referee, by start time, whatever their status; a referee also sees a draft they are assigned to, to prepare it. For each: the caller's roles, entries and, in the current round, where each of their entries sits: table number, side (ns or ew; in an individual event also the seat n, s, e or w), opponents (and partner in an individual event), or a bye. Byes and tables follow the draw (see drawTournamentRound).
//	@Tags			auth
//	@Produce		json
//	@Security		BearerAuth
//	@Success		200		{object}	MyTournamentList
//	@Failure		401		{object}	Problem	"unauthenticated"
//	@Router			/api/v1/me/tournaments [get]
func (h meHandlers) myTournaments(w http.ResponseWriter, r *http.Request) error {
	mine, err := h.s.svc.Play.Mine(r.Context(), ActorFrom(r.Context()))
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, MyTournamentList{Items: mapSlice(mine, myTournamentOut)})
}
