package api

import "net/http"

// StateBodyKept reports whether the state cache of h (NewServer's) keeps
// an encoded state of table id for the viewer key (a seat, or -1 for
// anonymous callers), for the tests of package api_test.
func StateBodyKept(h http.Handler, id int64, key int) bool {
	c := h.(front).s.states
	c.mu.Lock()
	defer c.mu.Unlock()
	ts := c.tables[id]
	return ts != nil && ts.bodies[key] != nil
}
