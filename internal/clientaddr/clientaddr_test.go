package clientaddr

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// testProxies trusts a private IPv4 range, one IPv4 proxy and an IPv6 /64.
var testProxies = TrustedProxies{
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("192.0.2.10/32"),
	netip.MustParsePrefix("2001:db8:1::/64"),
}

// TestClientAddr checks which address is taken for the client's: the peer,
// unless it is a trusted proxy and its forwarding headers name a client.
func TestClientAddr(t *testing.T) {
	tests := []struct {
		name    string
		remote  string
		xff     []string // X-Forwarded-For header lines
		fwd     []string // Forwarded header lines
		want    string
		proxies TrustedProxies
	}{
		// Headers from a peer that is not trusted are ignored: any client
		// can send them.
		{name: "UntrustedPeerXFFIgnored", remote: "203.0.113.5:4000", xff: []string{"198.51.100.1"}, want: "203.0.113.5"},
		{name: "UntrustedPeerForwardedIgnored", remote: "203.0.113.5:4000", fwd: []string{"for=198.51.100.1"}, want: "203.0.113.5"},
		{name: "NoProxiesConfigured", remote: "10.0.0.1:4000", xff: []string{"198.51.100.1"}, want: "10.0.0.1", proxies: TrustedProxies{}},
		{name: "TrustedPeerWithoutHeaders", remote: "10.0.0.1:4000", want: "10.0.0.1"},

		{name: "XFFOneHop", remote: "10.0.0.1:4000", xff: []string{"198.51.100.1"}, want: "198.51.100.1"},
		{name: "XFFSpoofedLeftIsSkipped", remote: "10.0.0.1:4000", xff: []string{"1.2.3.4, 198.51.100.1"}, want: "198.51.100.1"},
		{name: "XFFChainOfTrustedProxies", remote: "10.0.0.1:4000", xff: []string{"1.2.3.4, 198.51.100.1, 192.0.2.10, 10.9.9.9"}, want: "198.51.100.1"},
		{name: "XFFSeveralHeaderLines", remote: "10.0.0.1:4000", xff: []string{"1.2.3.4, 198.51.100.1", "10.1.1.1"}, want: "198.51.100.1"},
		{name: "XFFAllTrustedGivesTheFurthest", remote: "10.0.0.1:4000", xff: []string{"10.2.2.2, 10.3.3.3"}, want: "10.2.2.2"},
		{name: "XFFWithPort", remote: "10.0.0.1:4000", xff: []string{"198.51.100.1:5555"}, want: "198.51.100.1"},
		{name: "XFFIPv6", remote: "10.0.0.1:4000", xff: []string{"2001:db8:2::7"}, want: "2001:db8:2::7"},
		{name: "XFFIPv6Bracketed", remote: "10.0.0.1:4000", xff: []string{"[2001:db8:2::7]"}, want: "2001:db8:2::7"},
		{name: "XFFIPv6WithPort", remote: "10.0.0.1:4000", xff: []string{"[2001:db8:2::7]:443"}, want: "2001:db8:2::7"},
		{name: "XFFIPv4MappedIsIPv4", remote: "10.0.0.1:4000", xff: []string{"::ffff:198.51.100.1"}, want: "198.51.100.1"},
		{name: "XFFGarbageBeyondTheClientIsNotRead", remote: "10.0.0.1:4000", xff: []string{"garbage, 198.51.100.1"}, want: "198.51.100.1"},
		{name: "XFFMalformedHop", remote: "10.0.0.1:4000", xff: []string{"198.51.100.1, not-an-ip"}, want: "10.0.0.1"},
		{name: "XFFEmptyHop", remote: "10.0.0.1:4000", xff: []string{"198.51.100.1,"}, want: "10.0.0.1"},
		{name: "XFFEmpty", remote: "10.0.0.1:4000", xff: []string{""}, want: "10.0.0.1"},
		{name: "XFFUnknown", remote: "10.0.0.1:4000", xff: []string{"unknown"}, want: "10.0.0.1"},

		{name: "IPv6Peer", remote: "[2001:db8:1::5]:4000", xff: []string{"198.51.100.1"}, want: "198.51.100.1"},
		{name: "IPv6PeerWithZone", remote: "[2001:db8:1::5%eth0]:4000", xff: []string{"198.51.100.1"}, want: "198.51.100.1"},
		{name: "IPv6PeerUntrusted", remote: "[2001:db8:9::5]:4000", xff: []string{"198.51.100.1"}, want: "2001:db8:9::5"},
		{name: "IPv4MappedPeer", remote: "[::ffff:10.0.0.1]:4000", xff: []string{"198.51.100.1"}, want: "198.51.100.1"},
		{name: "PeerWithoutPort", remote: "10.0.0.1", xff: []string{"198.51.100.1"}, want: "198.51.100.1"},
		{name: "PeerNotAnAddress", remote: "pipe", xff: []string{"198.51.100.1"}, want: "pipe"},

		{name: "Forwarded", remote: "10.0.0.1:4000", fwd: []string{"for=198.51.100.1"}, want: "198.51.100.1"},
		{name: "ForwardedCaseAndParams", remote: "10.0.0.1:4000", fwd: []string{"proto=https; For=198.51.100.1 ;by=10.0.0.1"}, want: "198.51.100.1"},
		{name: "ForwardedQuotedIPv6WithPort", remote: "10.0.0.1:4000", fwd: []string{`for="[2001:db8:cafe::17]:4711"`}, want: "2001:db8:cafe::17"},
		{name: "ForwardedQuotedIPv4WithPort", remote: "10.0.0.1:4000", fwd: []string{`for="198.51.100.1:4711"`}, want: "198.51.100.1"},
		{name: "ForwardedChain", remote: "10.0.0.1:4000", fwd: []string{`for=1.2.3.4, for=198.51.100.1;proto=http, for="[2001:db8:1::9]"`}, want: "198.51.100.1"},
		{name: "ForwardedSeveralHeaderLines", remote: "10.0.0.1:4000", fwd: []string{"for=198.51.100.1", "for=192.0.2.10"}, want: "198.51.100.1"},
		{name: "ForwardedQuotedComma", remote: "10.0.0.1:4000", fwd: []string{`for=198.51.100.1;ext="a,b\"c"`}, want: "198.51.100.1"},
		{name: "ForwardedUnterminatedQuote", remote: "10.0.0.1:4000", fwd: []string{`for="198.51.100.1`}, want: "10.0.0.1"},
		{name: "ForwardedNoEquals", remote: "10.0.0.1:4000", fwd: []string{"198.51.100.1"}, want: "10.0.0.1"},
		{name: "ForwardedWithoutFor", remote: "10.0.0.1:4000", fwd: []string{"proto=https"}, want: "10.0.0.1"},
		{name: "ForwardedUnknownNode", remote: "10.0.0.1:4000", fwd: []string{"for=unknown"}, want: "10.0.0.1"},
		{name: "ForwardedObfuscatedNode", remote: "10.0.0.1:4000", fwd: []string{"for=_hidden, for=10.1.1.1"}, want: "10.0.0.1"},
		{name: "ForwardedTrailingComma", remote: "10.0.0.1:4000", fwd: []string{"for=198.51.100.1,"}, want: "10.0.0.1"},
		{name: "ForwardedUnquotedIPv6", remote: "10.0.0.1:4000", fwd: []string{"for=[2001:db8:cafe::17]"}, want: "2001:db8:cafe::17"},

		// Both headers: they must agree, or a client could add the one its
		// proxy does not set.
		{name: "BothAgree", remote: "10.0.0.1:4000", xff: []string{"198.51.100.1"}, fwd: []string{"for=198.51.100.1"}, want: "198.51.100.1"},
		{name: "BothDisagree", remote: "10.0.0.1:4000", xff: []string{"198.51.100.1"}, fwd: []string{"for=1.2.3.4"}, want: "10.0.0.1"},
		{name: "BothXFFMalformed", remote: "10.0.0.1:4000", xff: []string{"nope"}, fwd: []string{"for=198.51.100.1"}, want: "198.51.100.1"},
		{name: "BothForwardedMalformed", remote: "10.0.0.1:4000", xff: []string{"198.51.100.1"}, fwd: []string{"nope"}, want: "198.51.100.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			for _, v := range tt.fwd {
				r.Header.Add("Forwarded", v)
			}
			proxies := testProxies
			if tt.proxies != nil {
				proxies = tt.proxies
			}
			if got := proxies.ClientAddr(r); got != tt.want {
				t.Errorf("ClientAddr = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzClientAddr checks that no forwarding header makes clientAddr panic,
// and that it answers the peer or a plain address (no zone, no IPv4-mapped
// form, so that one client has one rate-limit key).
func FuzzClientAddr(f *testing.F) {
	for _, s := range []string{"198.51.100.1", "1.2.3.4, 10.0.0.2", "[2001:db8::1]:80", `for="[2001:db8::1]:80";proto=https`,
		`for=1.2.3.4, for="x\"y"`, `for="`, "for=", ";", ",", "=", `"`} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, xff, fwd string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.0.0.1:4000"
		r.Header.Set("X-Forwarded-For", xff)
		r.Header.Set("Forwarded", fwd)
		got := testProxies.ClientAddr(r)
		if got == "10.0.0.1" {
			return
		}
		a, err := netip.ParseAddr(got)
		if err != nil || a.Zone() != "" || a.Is4In6() {
			t.Fatalf("ClientAddr = %q: not a plain address", got)
		}
	})
}

// BenchmarkClientAddr measures what the access log and the auth rate limit
// pay per request: with no trusted proxy, and behind one with a two-hop
// X-Forwarded-For.
func BenchmarkClientAddr(b *testing.B) {
	direct := httptest.NewRequest("GET", "/", nil)
	direct.RemoteAddr = "203.0.113.5:4000"
	proxied := httptest.NewRequest("GET", "/", nil)
	proxied.RemoteAddr = "10.0.0.1:4000"
	proxied.Header.Set("X-Forwarded-For", "198.51.100.1, 10.9.9.9")
	b.Run("NoProxies", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = TrustedProxies(nil).ClientAddr(direct)
		}
	})
	b.Run("BehindProxy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = testProxies.ClientAddr(proxied)
		}
	})
}

// TestKey: an IPv4 address is its own key, an IPv6 one its /64.
func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:1234":            "192.0.2.1",
		"[2001:db8:1:2:3::4]:80":    "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::9]:81": "2001:db8:1:2::/64",
		"[::ffff:192.0.2.1]:80":     "192.0.2.1",
		"garbage":                   "garbage",
	} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}
