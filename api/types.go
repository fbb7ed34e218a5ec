package api

// The request and response bodies of the API. They are the wire contract
// (documented in openapi.yaml) and are kept apart from the domain types so
// that either can change without silently changing the other.
// Each resource's types are in types_<resource>.go; here are those all share.

// Health is the answer of the health endpoints.
type Health struct {
	Status string `json:"status" example:"ok"`
} // @name Health

// mapSlice converts each element of in with f.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
