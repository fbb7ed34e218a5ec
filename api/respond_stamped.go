package api

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"
)

// stampedBodies keeps answers encoded, by the stamp the domain gave what
// they show (domain.Page.Stamp): a list read again unchanged, by this
// reader or another, is sent as it was encoded, and named by its stamp as
// ETag. Any list whose domain method stamps its page can answer through
// respondStamped. At most maxStampedBodies answers are kept; the stamp
// names the whole content, so a kept answer is never wrong, only dropped.
type stampedBodies struct {
	mu sync.Mutex
	m  map[string][]byte
}

const maxStampedBodies = 1024

func newStampedBodies() *stampedBodies { return &stampedBodies{m: map[string][]byte{}} }

func (c *stampedBodies) get(stamp string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	body, ok := c.m[stamp]
	return body, ok
}

func (c *stampedBodies) put(stamp string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxStampedBodies {
		clear(c.m) // lists change as they are read: the old ones are dead
	}
	c.m[stamp] = body
}

// respondStamped sends the answer build makes, whose content stamp names,
// as 200 with the stamp as ETag, or 304 when If-None-Match names it; the
// encoded answer is kept for the next reader of that stamp. Without a
// stamp it is respondTagged.
func (s *server) respondStamped(w http.ResponseWriter, r *http.Request, stamp string, build func() any) error {
	if stamp == "" {
		return respondTagged(w, r, build())
	}
	etag := `"` + stamp + `"`
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		return notModified(w, etag)
	}
	body, ok := s.stamped.get(stamp)
	if !ok {
		var buf bytes.Buffer
		if err := encodeJSON(&buf, build()); err != nil {
			return err
		}
		body = buf.Bytes()
		s.stamped.put(stamp, body)
	}
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	return nil
}
