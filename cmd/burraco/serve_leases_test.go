package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeRefusesInternalAddrOnSQLite: table leases are for several
// processes on PostgreSQL; on a SQLite file (one process) -internal-addr
// is refused with a reason, not half served.
func TestServeRefusesInternalAddrOnSQLite(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"serve", "-addr", "127.0.0.1:0", "-internal-addr", "127.0.0.1:0", "-database", filepath.Join(t.TempDir(), "b.db")}
	t.Setenv("BURRACO_ADMIN_PASSWORD", "admin-password-for-tests")
	if code := run(t.Context(), args, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "PostgreSQL") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestOwnersSessionsEndWhenIdleInATransactionForALease: with table leases
// on PostgreSQL, serve's sessions carry idle_in_transaction_session_timeout
// at the lease's ttl (a frozen owner's open fenced write would hold the
// takeover back until it resumed); without leases, on SQLite, or when the
// URL sets it, the URL is left as it is.
func TestOwnersSessionsEndWhenIdleInATransactionForALease(t *testing.T) {
	const pg = "postgres://u:p@db:5432/burraco?sslmode=disable"
	for _, c := range []struct {
		name string
		url  string
		own  ownership
		want string
	}{
		{"LeasesOnPostgreSQL", pg, ownership{internalAddr: ":9090", ttl: 3 * time.Second},
			"postgres://u:p@db:5432/burraco?idle_in_transaction_session_timeout=3000&sslmode=disable"},
		{"DefaultTTL", "postgresql://db/b", ownership{internalAddr: ":9090"}, "postgresql://db/b?idle_in_transaction_session_timeout=3000"},
		{"TheURLsOwnSettingKept", pg + "&idle_in_transaction_session_timeout=60000", ownership{internalAddr: ":9090", ttl: time.Second},
			pg + "&idle_in_transaction_session_timeout=60000"},
		{"NoLeases", pg, ownership{ttl: 3 * time.Second}, pg},
		{"SQLite", "burraco.db", ownership{internalAddr: ":9090", ttl: 3 * time.Second}, "burraco.db"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ownedDatabaseURL(c.url, c.own); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
