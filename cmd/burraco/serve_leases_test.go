package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
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
