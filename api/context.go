package api

import (
	"context"

	"github.com/burraco/burraco/domain"
)

// contextKey is the type of this package's context keys, so that they
// cannot collide with another package's.
type contextKey int

const (
	actorKey contextKey = iota + 1
	requestIDKey
)

// withActor returns ctx carrying the authenticated actor.
func withActor(ctx context.Context, a domain.Actor) context.Context {
	return context.WithValue(ctx, actorKey, a)
}

// ActorFrom returns the actor of the request: the zero (anonymous) Actor
// when nobody is logged in.
func ActorFrom(ctx context.Context) domain.Actor {
	a, _ := ctx.Value(actorKey).(domain.Actor)
	return a
}

// withRequestID returns ctx carrying the request id.
func withRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestIDFrom returns the id of the request, or "".
func RequestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}
