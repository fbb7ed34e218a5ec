package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConformanceCommand checks the runner's contract (FORMAT.md): one line
// per case, the last line "N passed, M failed", a non-zero exit when a case
// fails or cannot be read.
func TestConformanceCommand(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "testdata", "conformance", "112-direction-anticlockwise.json"))
	if err != nil {
		t.Fatal(err)
	}
	wrong := bytes.Replace(good, []byte(`"turn": 3`), []byte(`"turn": 1`), 1)
	if bytes.Equal(wrong, good) {
		t.Fatal("the case no longer has the expectation this test changes")
	}
	// A typo is not a rejection (FORMAT.md): a step the format cannot
	// decode makes the case unreadable even with reject, and so does a key
	// it does not define.
	typoMove := bytes.Replace(good, []byte(`"steps": [`), []byte(`"steps": [{"seat": 0, "move": "dicsard", "card": "5H", "reject": true},`), 1)
	typoKey := bytes.Replace(good, []byte(`"expect": {`), []byte(`"expect": {"turnn": 3,`), 1)
	if bytes.Equal(typoMove, good) || bytes.Equal(typoKey, good) {
		t.Fatal("the case no longer has the shape this test changes")
	}
	write := func(dir, name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		files    map[string][]byte
		wantCode int
		wantOut  []string // lines, in order
	}{
		{"AllPass", map[string][]byte{"a.json": good}, 0,
			[]string{"ok a", "1 passed, 0 failed"}},
		{"FailureAndUnreadable", map[string][]byte{"a.json": good, "b.json": wrong, "sub/c.json": []byte("{")}, 1,
			[]string{"ok a", "FAIL b: ", "FAIL sub/c: ", "1 passed, 2 failed"}},
		{"TyposAreUnreadable", map[string][]byte{"a.json": good, "move.json": typoMove, "key.json": typoKey}, 1,
			[]string{"ok a", "FAIL key: cannot read case", "FAIL move: cannot read case", "1 passed, 2 failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range tt.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				write(dir, name, b)
			}
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"conformance", dir}, &out, &errOut)
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if code != tt.wantCode || len(lines) != len(tt.wantOut) {
				t.Fatalf("exit %d, output:\n%s\nstderr: %s\nwant exit %d and %d lines", code, out.String(), errOut.String(), tt.wantCode, len(tt.wantOut))
			}
			for i, want := range tt.wantOut {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], want)
				}
			}
		})
	}
	t.Run("NoCases", func(t *testing.T) {
		dir := t.TempDir()
		write(dir, "README.md", []byte("no cases here"))
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"conformance", dir}, &out, &errOut)
		if code != 1 {
			t.Errorf("exit %d on a directory without cases, want 1", code)
		}
		if got := strings.TrimSpace(out.String()); got != "0 passed, 0 failed" {
			t.Errorf("stdout %q, want the last line \"0 passed, 0 failed\"", got)
		}
		if !strings.Contains(errOut.String(), "no *.json case") {
			t.Errorf("stderr %q does not say no case was found", errOut.String())
		}
	})
	t.Run("Usage", func(t *testing.T) {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"conformance"}, &out, &errOut); code != 2 {
			t.Fatalf("exit %d without a directory, want 2", code)
		}
	})
}
