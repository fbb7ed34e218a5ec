package api

import (
	"context"
	"net/http"

	"github.com/burraco/burraco/domain"
)

// contextKey is the type of this package's context keys, so that they
// cannot collide with another package's.
type contextKey int

const actorKey contextKey = 1

// withActor returns r carrying the authenticated actor: in its request
// state when it has one (the request is not copied), else in a context
// value.
func withActor(r *http.Request, a domain.Actor) *http.Request {
	if st := stateOf(r.Context()); st != nil {
		st.actor = a
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), actorKey, a))
}

// ActorFrom returns the actor of the request: the zero (anonymous) Actor
// when nobody is logged in.
func ActorFrom(ctx context.Context) domain.Actor {
	if st := stateOf(ctx); st != nil {
		return st.actor
	}
	a, _ := ctx.Value(actorKey).(domain.Actor)
	return a
}

// RequestIDFrom returns the id of the request, or "" outside serveTracked.
func RequestIDFrom(ctx context.Context) string {
	if st := stateOf(ctx); st != nil {
		return st.id
	}
	return ""
}
