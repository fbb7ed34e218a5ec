// Package clientaddr finds the address of an HTTP request's client, behind
// trusted reverse proxies (X-Forwarded-For, Forwarded), and the key of an
// address for per-client limits.
package clientaddr

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxies are the reverse proxies whose forwarding headers are
// believed. Behind a proxy every connection comes from the proxy, so the
// client's address must be read from X-Forwarded-For or Forwarded; but any
// client can send those headers, so they count only on a connection from a
// trusted proxy, and only as far back as the chain of trusted proxies goes.
type TrustedProxies []netip.Prefix

// ClientAddr is the address of the client of r: the connection's peer,
// unless the peer is a trusted proxy, in which case it is the first address
// not of a trusted proxy in the forwarding headers, read from the nearest
// hop backwards. When X-Forwarded-For and Forwarded are both sent they must
// agree. A header that does not parse or names no usable address is
// ignored; when neither gives an address, or they disagree, the peer is the
// client. Which header a proxy sets varies (most set X-Forwarded-For); one
// that sets only one of them passes the other on from the client, and
// requiring agreement keeps that one from overriding it.
func (tp TrustedProxies) ClientAddr(r *http.Request) string {
	if len(tp) == 0 {
		return hostOf(r.RemoteAddr)
	}
	peer, ok := parseNode(r.RemoteAddr)
	if !ok || !tp.trusts(peer) {
		return hostOf(r.RemoteAddr)
	}
	xff, xffOK := tp.fromXForwardedFor(r.Header.Values("X-Forwarded-For"))
	fwd, fwdOK := tp.fromForwarded(r.Header.Values("Forwarded"))
	switch {
	case xffOK && fwdOK && xff != fwd:
		return peer.String()
	case xffOK:
		return xff.String()
	case fwdOK:
		return fwd.String()
	}
	return peer.String()
}

// trusts reports whether a is the address of a trusted proxy.
func (tp TrustedProxies) trusts(a netip.Addr) bool {
	for _, p := range tp {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// fromXForwardedFor walks the X-Forwarded-For lists (each proxy appends the
// address it got the request from) from the right and returns the first
// address that is not a trusted proxy. Only the hops walked must parse:
// what lies beyond the first untrusted one was written by the client.
func (tp TrustedProxies) fromXForwardedFor(values []string) (netip.Addr, bool) {
	hops := strings.Split(strings.Join(values, ","), ",")
	return tp.walk(len(hops), func(i int) (netip.Addr, bool) {
		return parseNode(strings.TrimSpace(hops[i]))
	})
}

// fromForwarded does the same with the for= parameters of RFC 7239
// Forwarded headers. The whole header must parse, since quoted strings may
// hold commas; an element without for=, or with an obfuscated or "unknown"
// node, ends the walk without an address.
func (tp TrustedProxies) fromForwarded(values []string) (netip.Addr, bool) {
	if len(values) == 0 {
		return netip.Addr{}, false
	}
	elements, ok := parseForwarded(strings.Join(values, ","))
	if !ok {
		return netip.Addr{}, false
	}
	return tp.walk(len(elements), func(i int) (netip.Addr, bool) {
		return parseNode(elements[i]["for"])
	})
}

// walk visits hops n-1 down to 0 and returns the first that is not a
// trusted proxy, or the furthest one when all are trusted. It fails when a
// visited hop has no address, or when there are no hops.
func (tp TrustedProxies) walk(n int, hop func(i int) (netip.Addr, bool)) (netip.Addr, bool) {
	var a netip.Addr
	for i := n - 1; i >= 0; i-- {
		var ok bool
		if a, ok = hop(i); !ok {
			return netip.Addr{}, false
		}
		if !tp.trusts(a) {
			return a, true
		}
	}
	return a, a.IsValid()
}

// parseNode reads one hop's address: an IPv4 or IPv6 address, with or
// without a port, IPv6 in brackets or bare ("192.0.2.1", "192.0.2.1:443",
// "2001:db8::1", "[2001:db8::1]", "[2001:db8::1]:443").
// The form is told from the brackets and colons first, so that a well-formed
// address is parsed once (a failed parse allocates its error).
func parseNode(s string) (netip.Addr, bool) {
	var a netip.Addr
	var err error
	switch {
	case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
		if a, err = netip.ParseAddr(s[1 : len(s)-1]); err == nil && !a.Is6() {
			return netip.Addr{}, false
		}
	case strings.HasPrefix(s, "["), strings.Count(s, ":") == 1:
		var ap netip.AddrPort
		ap, err = netip.ParseAddrPort(s)
		a = ap.Addr()
	default:
		a, err = netip.ParseAddr(s)
	}
	if err != nil {
		return netip.Addr{}, false
	}
	return norm(a), true
}

// norm drops a zone and unmaps an IPv4-mapped IPv6 address, so that
// ::ffff:192.0.2.1 and 192.0.2.1 are one client.
func norm(a netip.Addr) netip.Addr { return a.WithZone("").Unmap() }

// hostOf is the host part of a remote address, or all of it when it has no
// port.
func hostOf(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}

// parseForwarded splits an RFC 7239 Forwarded value into its elements
// (comma-separated), each a map of lower-cased parameter names
// (semicolon-separated name=value pairs) to unquoted values. It fails on
// an unterminated quoted string, a pair without '=', or an empty name.
func parseForwarded(s string) ([]map[string]string, bool) {
	var elements []map[string]string
	element := map[string]string{}
	for {
		var name, value string
		var ok bool
		s = strings.TrimLeft(s, " \t")
		if name, s, ok = strings.Cut(s, "="); !ok || !validToken(strings.TrimSpace(name)) {
			return nil, false
		}
		if value, s, ok = forwardedValue(s); !ok {
			return nil, false
		}
		element[strings.ToLower(strings.TrimSpace(name))] = value
		s = strings.TrimLeft(s, " \t")
		switch {
		case s == "":
			return append(elements, element), true
		case s[0] == ';':
		case s[0] == ',':
			elements = append(elements, element)
			element = map[string]string{}
		default:
			return nil, false
		}
		s = s[1:]
	}
}

// forwardedValue reads a value or a quoted string at the start of s and
// returns it and the rest of s. An unquoted value may hold what a token may
// not (':', '[', ']'): some proxies leave an address with a port unquoted.
func forwardedValue(s string) (value, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		end := strings.IndexAny(s, ";, \t")
		if end < 0 {
			end = len(s)
		}
		return s[:end], s[end:], end > 0 && !strings.ContainsAny(s[:end], `"\`)
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			if i++; i == len(s) {
				return "", "", false
			}
		}
		b.WriteByte(s[i])
	}
	return "", "", false
}

// validToken reports whether s is an RFC 7230 token.
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// Key is the key of a client address for per-client limits (with or without a
// port): the IPv4 address, or the /64 prefix of an IPv6 one (a single
// client usually holds a whole /64).
func Key(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}
