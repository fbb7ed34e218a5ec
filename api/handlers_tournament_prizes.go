package api

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/burraco/burraco/api/printout"
	"github.com/burraco/burraco/domain"
)

// tournamentPrizes returns the prize list given from the final standings.
//
//	@Summary		Get the prizes
//	@ID			getTournamentPrizes
//	@Description	The set-up's prize list given from the FINAL standings (issue 32): the overall prizes (no category) first, then the category prizes, each in list order. An entry qualifies for a category when every one of its players has the tag (Player.categories). An entry gets one prize: a later prize skips an entry that already won one, and the next qualifying entry takes the place, unless that prize is cumulative. Ties follow the standings' order. Before the standings are final: 409 standings_not_final.
//	@Tags			results
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{object}	TournamentPrizes
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"standings_not_final: the tournament is not finished, or a table's score is not final"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/prizes [get]
func (h resultHandlers) tournamentPrizes(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	p, err := h.s.svc.Play.Prizes(r.Context(), ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, newPlayView(p.TournamentRead).prizes(p.Awards))
}

// exportTournamentPrizes exports the prize list as CSV.
//
//	@Summary		Export the prizes (CSV)
//	@ID			exportTournamentPrizes
//	@Description	One row per place won: prize, category, place, rank, number, entry, players; as GET …/prizes gives them.
//	@Tags			results
//	@Produce		text/csv
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{string}	string	"The prizes"
//	@Header			200				{string}	Content-Disposition	"attachment; filename=\"tournament-{tournamentID}-prizes.csv\""
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"standings_not_final: the tournament is not finished, or a table's score is not final"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/export/prizes.csv [get]
func (h resultHandlers) exportTournamentPrizes(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	p, err := h.s.svc.Play.Prizes(r.Context(), ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := printout.WritePrizesCSV(&buf, newPlayView(p.TournamentRead).printPrizes(h.s.cfg.Now(), p.Awards)); err != nil {
		return err
	}
	return sendFile(w, "text/csv; charset=utf-8", fmt.Sprintf("tournament-%d-prizes.csv", id), buf.Bytes())
}

// printTournamentPrizes prints the prize list.
//
//	@Summary		Print the prizes
//	@ID			printTournamentPrizes
//	@Description	A printable A4 page of the prize list given from the final standings (as GET …/prizes), in Italian or English (?lang=, else Accept-Language, else English).
//	@Tags			results
//	@Produce		html
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			lang			query		string	false	"it or en"	Enums(it, en)
//	@Param			Accept-Language	header		string	false	"Used when lang is absent"
//	@Success		200				{string}	string	"The page"
//	@Header			200				{string}	Content-Security-Policy	"default-src 'none' and the page's own inline style by its hash: static HTML, no script"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer, or lang is not it or en (for a browser an HTML page, as every printable page's refusal)"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see (for a browser an HTML page)"
//	@Failure	409	{object}	Problem	"standings_not_final: the standings are still provisional (for a browser an HTML page)"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/print/prizes [get]
func (h resultHandlers) printTournamentPrizes(w http.ResponseWriter, r *http.Request) error {
	var awards []domain.PrizeAward
	read := func(ctx context.Context, a domain.Actor, id int64) (domain.TournamentRead, error) {
		p, err := h.s.svc.Play.Prizes(ctx, a, id)
		awards = p.Awards
		return p.TournamentRead, err
	}
	return h.printPageOf(w, r, read, func(out io.Writer, l printout.Lang, v playView) error {
		return printout.RenderPrizes(out, l, v.printPrizes(h.s.cfg.Now(), awards))
	})
}

// printPrizes is the prize list for the page and the CSV.
func (v playView) printPrizes(now time.Time, awards []domain.PrizeAward) printout.Prizes {
	out := printout.Prizes{Head: v.head(now)}
	for _, a := range awards {
		pa := printout.PrizeAward{Name: a.Prize.Name, Category: a.Prize.Category, Places: a.Prize.Places}
		for i, w := range a.Winners {
			ref := v.ref(w.Entry)
			pa.Winners = append(pa.Winners, printout.PrizeWinner{Place: i + 1, Rank: w.Rank, Number: ref.Number,
				Name: ref.Name, Players: v.names(w.Entry)})
		}
		out.Awards = append(out.Awards, pa)
	}
	return out
}
