package api_test

import (
	"context"
	"fmt"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
)

// newSeasons gives the fixture a season of club A, and one per caller
// with the published tournament excluded from it.
func (f *fixture) newSeasons(e *env, by domain.Actor) {
	ctx := context.Background()
	in := domain.SeasonInput{Name: "Stagione", StartsOn: "2026-01-01", EndsOn: "2026-12-31", Scheme: domain.SchemeTotalVP}
	s, err := e.svc.Seasons.Create(ctx, by, f.clubA, in)
	if err != nil {
		e.t.Fatal(err)
	}
	f.season, f.seasonOf = s.ID, map[string]int64{}
	for _, c := range callers {
		s, err := e.svc.Seasons.Create(ctx, by, f.clubA, in)
		if err == nil {
			_, err = e.svc.Seasons.Exclude(ctx, by, f.clubA, s.ID, f.published, "not this one")
		}
		if err != nil {
			e.t.Fatal(err)
		}
		f.seasonOf[c] = s.ID
	}
}

func seasonPath(f *fixture, id int64, parts ...string) string {
	p := fmt.Sprintf("%s/seasons/%d", clubPath(f), id)
	for _, x := range parts {
		p += "/" + x
	}
	return p
}

// The seasons' rows of the authorisation matrix: anyone reads a club's
// seasons and rankings; its admins (and site admins) change them.
func init() {
	matrix = append(matrix, []route{
		{"GET /clubs/{id}/seasons", func(f *fixture, c string) req {
			return req{Method: "GET", Path: clubPath(f) + "/seasons"}
		}, all(200, nil)},
		{"POST /clubs/{id}/seasons", func(f *fixture, c string) req {
			return req{Method: "POST", Path: clubPath(f) + "/seasons",
				Body: api.SeasonCreateRequest{Name: "By " + c, StartsOn: "2026-01-01", EndsOn: "2026-06-30", Scheme: "average_vp"}}
		}, adminsOnly(201)},
		{"GET /clubs/{id}/seasons/{id}", func(f *fixture, c string) req {
			return req{Method: "GET", Path: seasonPath(f, f.season)}
		}, all(200, nil)},
		{"PATCH /clubs/{id}/seasons/{id}", func(f *fixture, c string) req {
			return req{Method: "PATCH", Path: seasonPath(f, f.season), Body: `{"name":"Renamed"}`}
		}, adminsOnly(200)},
		{"PUT /clubs/{id}/seasons/{id}/exclusions/{tournament}", func(f *fixture, c string) req {
			return req{Method: "PUT", Path: seasonPath(f, f.season, "exclusions", fmt.Sprint(f.published)), Body: `{"reason":"by ` + c + `"}`}
		}, adminsOnly(200)},
		{"DELETE /clubs/{id}/seasons/{id}/exclusions/{tournament}", func(f *fixture, c string) req {
			return req{Method: "DELETE", Path: seasonPath(f, f.seasonOf[c], "exclusions", fmt.Sprint(f.published))}
		}, adminsOnly(200)},
		{"GET /clubs/{id}/seasons/{id}/ranking", func(f *fixture, c string) req {
			return req{Method: "GET", Path: seasonPath(f, f.season, "ranking")}
		}, all(200, nil)},
		{"GET /clubs/{id}/seasons/{id}/ranking.csv", func(f *fixture, c string) req {
			return req{Method: "GET", Path: seasonPath(f, f.season, "ranking.csv")}
		}, all(200, nil)},
		{"GET /clubs/{id}/seasons/{id}/print/ranking", func(f *fixture, c string) req {
			return req{Method: "GET", Path: seasonPath(f, f.season, "print", "ranking")}
		}, all(200, nil)},
		{"DELETE /clubs/{id}/seasons/{id}", func(f *fixture, c string) req {
			return req{Method: "DELETE", Path: seasonPath(f, f.seasonOf[c])}
		}, adminsOnly(204)},
		{"GET /me/rankings", func(f *fixture, c string) req {
			return req{Method: "GET", Path: "/api/v1/me/rankings"}
		}, all(200, map[string]int{anonymous: 401})},
	}...)
}
