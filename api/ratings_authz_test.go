package api_test

import "fmt"

// The authorisation matrix's rows of issue 29's rematches and ratings.
func init() {
	matrix = append(matrix, []route{
		{"POST /tables/{id}/rematch (seated players only)", func(f *fixture, c string) req {
			return req{Method: "POST", Path: tablePath(f.playing, "rematch")}
		}, all(403, map[string]int{anonymous: 401})},
		{"DELETE /tables/{id}/rematch (seated players only)", func(f *fixture, c string) req {
			return req{Method: "DELETE", Path: tablePath(f.playing, "rematch")}
		}, all(403, map[string]int{anonymous: 401})},
		{"GET /ratings (anyone logged in)", func(f *fixture, c string) req {
			return req{Method: "GET", Path: "/api/v1/ratings?family=reale"}
		}, all(200, map[string]int{anonymous: 401})},
		{"GET /users/{id}/ratings (anyone logged in)", func(f *fixture, c string) req {
			return req{Method: "GET", Path: fmt.Sprintf("/api/v1/users/%d/ratings", f.refereeID)}
		}, all(200, map[string]int{anonymous: 401})},
	}...)
}
