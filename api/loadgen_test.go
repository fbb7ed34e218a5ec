package api_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// loadConns is how many keep-alive connections the load generator keeps
// busy at once, as `wrk -c32` does.
const loadConns = 32

// loader is an HTTP/1.1 load generator over a fixed set of keep-alive
// connections to one server. It writes prepared request bytes and parses
// the answers with http.ReadResponse: much lighter than http.Client, so
// that the server, not the client, dominates the CPU the two share.
type loader struct {
	conns []*loadConn
}

type loadConn struct {
	c net.Conn
	r *bufio.Reader
	w *bufio.Writer
}

func newLoader(addr string, n int) (*loader, error) {
	l := &loader{}
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			l.close()
			return nil, err
		}
		l.conns = append(l.conns, &loadConn{c: c, r: bufio.NewReader(c), w: bufio.NewWriter(c)})
	}
	return l, nil
}

func (l *loader) close() {
	for _, c := range l.conns {
		c.c.Close()
	}
}

// run sends n copies of the request, spread over the connections, and
// returns the wall time and each request's latency. Every answer must have
// status want.
func (l *loader) run(n int, request []byte, want int) (time.Duration, []time.Duration, error) {
	var next atomic.Int64
	lats := make([][]time.Duration, len(l.conns))
	errs := make([]error, len(l.conns))
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range l.conns {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				t0 := time.Now()
				if _, err := c.roundTrip(request, want); err != nil {
					errs[i] = err
					return
				}
				lats[i] = append(lats[i], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, err := range errs {
		if err != nil {
			return 0, nil, err
		}
	}
	return elapsed, slices.Concat(lats...), nil
}

// roundTrip sends one request and returns the body of its answer.
func (c *loadConn) roundTrip(request []byte, want int) ([]byte, error) {
	if _, err := c.w.Write(request); err != nil {
		return nil, err
	}
	if err := c.w.Flush(); err != nil {
		return nil, err
	}
	res, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	if res.StatusCode != want {
		return nil, fmt.Errorf("status %d, want %d: %s", res.StatusCode, want, body)
	}
	return body, nil
}

// rawRequest is the wire form of a request; a body is sent as JSON.
func rawRequest(method, path, token, body string) []byte {
	var b strings.Builder
	b.WriteString(method + " " + path + " HTTP/1.1\r\nHost: bench\r\n")
	if token != "" {
		b.WriteString("Authorization: Bearer " + token + "\r\n")
	}
	if body != "" {
		b.WriteString("Content-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	b.WriteString("\r\n" + body)
	return []byte(b.String())
}

// percentile returns the p-th percentile (0..1) of sorted latencies.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}
