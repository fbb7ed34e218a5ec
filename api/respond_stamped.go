package api

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"

	"github.com/burraco/burraco/domain"
)

// stampedBodies keeps answers encoded, by the stamp the domain gave what
// they show (domain.Page.Stamp): a list read again unchanged, by this
// reader or another, is sent as it was encoded, and named by its stamp as
// ETag. Any list whose domain method stamps its page can answer through
// respondStamped. At most maxStampedBodies answers are kept; the stamp
// names the whole content, so a kept answer is never wrong, only dropped.
type stampedBodies struct {
	mu  sync.Mutex
	m   map[string][]byte
	max int
}

// maxStampedBodies bounds the answers kept; maxStampedItems the items
// (a table's encoding is about a kilobyte, and every move makes one).
const (
	maxStampedBodies = 1024
	maxStampedItems  = 8192
)

func newStampedBodies(max int) *stampedBodies {
	return &stampedBodies{m: map[string][]byte{}, max: max}
}

func (c *stampedBodies) get(stamp string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	body, ok := c.m[stamp]
	return body, ok
}

func (c *stampedBodies) put(stamp string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		clear(c.m) // lists change as they are read: the old ones are dead
	}
	c.m[stamp] = body
}

// respondStampedPage is respondStamped for a page whose items are each
// encoded by itemBody, which keeps them (tableBody): a page not kept
// encoded is put together from its items' kept encodings, encoding only
// the items not kept. A lobby page changes with every move at one of its
// tables; the page after a move then costs the encoding of that one table,
// not of twenty. The answer is the bytes encodeJSON makes of the page
// (out's items, then total, limit and offset, as the list types declare
// them).
func respondStampedPage[T any](s *server, w http.ResponseWriter, r *http.Request, p domain.Page[T],
	itemBody func(T) ([]byte, error), out func(T) any) error {
	return s.respondStampedBody(w, r, p.Stamp, func() ([]byte, error) {
		// The items first, then one buffer of the page's size: the page
		// (18 kB for twenty tables) is made after every move at one of
		// them, and a buffer grown by doubling would be three times that
		// in garbage.
		bodies := make([][]byte, len(p.Items))
		size := len(`{"items":[],"total":,"limit":,"offset":}`) + 3*20 + 1
		for i, item := range p.Items {
			body, err := itemBody(item)
			if err != nil {
				return nil, err
			}
			bodies[i] = body
			size += len(body) + 1
		}
		buf := make([]byte, 0, size)
		buf = append(buf, `{"items":[`...)
		for i, body := range bodies {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, body...)
		}
		buf = append(buf, `],"total":`...)
		buf = strconv.AppendInt(buf, int64(p.Total), 10)
		buf = append(buf, `,"limit":`...)
		buf = strconv.AppendInt(buf, int64(p.Limit), 10)
		buf = append(buf, `,"offset":`...)
		buf = strconv.AppendInt(buf, int64(p.Offset), 10)
		return append(buf, "}\n"...), nil
	}, func() any { return pageOut(p, out) })
}

// pageOut is the page as encodeJSON encodes it whole.
func pageOut[T any](p domain.Page[T], out func(T) any) any {
	return struct {
		Items  []any `json:"items"`
		Total  int   `json:"total"`
		Limit  int   `json:"limit"`
		Offset int   `json:"offset"`
	}{mapSlice(p.Items, out), p.Total, p.Limit, p.Offset}
}

// respondStamped sends the answer build makes, whose content stamp names,
// as 200 with the stamp as ETag, or 304 when If-None-Match names it; the
// encoded answer is kept for the next reader of that stamp. Without a
// stamp it is respondTagged.
func (s *server) respondStamped(w http.ResponseWriter, r *http.Request, stamp string, build func() any) error {
	return s.respondStampedBody(w, r, stamp, func() ([]byte, error) {
		var buf bytes.Buffer
		err := encodeJSON(&buf, build())
		return buf.Bytes(), err
	}, build)
}

// respondStampedBody is respondStamped with the stamped answer's bytes
// made by encode, and build's answer sent as respondTagged does when there
// is no stamp.
func (s *server) respondStampedBody(w http.ResponseWriter, r *http.Request, stamp string, encode func() ([]byte, error), build func() any) error {
	if stamp == "" {
		return respondTagged(w, r, build())
	}
	etag := `"` + stamp + `"`
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		return notModified(w, etag)
	}
	body, ok := s.stamped.get(stamp)
	if !ok {
		var err error
		if body, err = encode(); err != nil {
			return err
		}
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
