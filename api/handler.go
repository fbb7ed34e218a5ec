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

// The steps most handlers share, each one call and one check.

// idAndBody reads the positive id of path parameter name, then the JSON
// body (decode) into a Req.
func idAndBody[Req any](s *server, w http.ResponseWriter, r *http.Request, name string) (int64, Req, error) {
	var req Req
	id, err := pathID(r, name)
	if err == nil {
		err = s.decode(w, r, &req)
	}
	return id, req, err
}

// answer ends a handler that called a service: the service's error, or
// out(v) with status.
func answer[T, O any](w http.ResponseWriter, status int, out func(T) O, v T, err error) error {
	if err != nil {
		return err
	}
	return respond(w, status, out(v))
}
