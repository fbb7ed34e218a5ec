package conformance_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/burraco/burraco/engine/conformance"
)

// casesDir returns shared/conformance/cases beside the repository root (the
// directory holding go.mod).
func casesDir(t *testing.T) string {
	return filepath.Join(repoRoot(t), "..", "shared", "conformance", "cases")
}

// repoRoot returns the directory holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the package directory")
		}
		dir = parent
	}
	return dir
}

func TestConformanceCases(t *testing.T) {
	dir := casesDir(t)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("conformance cases missing in CI: %v", err)
		}
		t.Skipf("conformance cases not found at %s", dir)
	}
	runDir(t, dir)
}

// TestRepoConformanceCases runs the project's own cases in
// testdata/conformance, when present.
func TestRepoConformanceCases(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "conformance")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no cases at %s", dir)
	}
	runDir(t, dir)
}

func runDir(t *testing.T, dir string) {
	t.Helper()
	files, err := conformance.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no cases under %s", dir)
	}
	for _, f := range files {
		r := conformance.RunFile(dir, f)
		t.Run(r.Name, func(t *testing.T) {
			if r.Err != nil {
				t.Error(r.Err)
			}
		})
	}
}
