package api

import (
	"context"
	"net/http"

	"github.com/burraco/burraco/domain"
)

// withActor records the authenticated actor in the request's state: the
// request is not copied.
func withActor(r *http.Request, a domain.Actor) {
	mustState(r).actor = a
}

// ActorFrom returns the actor of the request: the zero (anonymous) Actor
// when nobody is logged in, and outside serveTracked.
func ActorFrom(ctx context.Context) domain.Actor {
	if st := stateOf(ctx); st != nil {
		return st.actor
	}
	return domain.Actor{}
}

// RequestIDFrom returns the id of the request, or "" outside serveTracked.
func RequestIDFrom(ctx context.Context) string {
	if st := stateOf(ctx); st != nil {
		return st.id
	}
	return ""
}
