package api

import "net/http"

// handler is the shape of every endpoint: it answers the request and
// returns nil, or answers nothing and returns why it cannot (a
// *domain.Error from a service, a problem from reading the request, or any
// other error, which is a logged 500). Headers it set before failing (an
// ETag, Retry-After) go out with the problem.
//
// A handler returns an error only before it has written the status: once
// it has (a stream), it logs what goes wrong and returns nil.
type handler func(w http.ResponseWriter, r *http.Request) error

// serve adapts h to net/http: the error it returns is answered as
// problem+json through the one table of problems (failErr).
func (s *server) serve(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.failErr(w, r, err)
		}
	}
}
