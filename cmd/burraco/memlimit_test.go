package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseMemorySize(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"150MiB", 150 << 20, false},
		{"1GiB", 1 << 30, false},
		{"1.5GiB", 3 << 29, false},
		{"500MB", 500e6, false},
		{"64KiB", 64 << 10, false},
		{"1048576", 1 << 20, false},
		{"1048576B", 1 << 20, false},
		{"off", 0, false},
		{"0", 0, false},
		{"", 0, true},
		{"lots", 0, true},
		{"-5MiB", 0, true},
		{"5 parsecs", 0, true},
		{"NaN", 0, true},
		{"1e30TiB", 0, true},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := parseMemorySize(c.in)
			if (err != nil) != c.wantErr || got != c.want {
				t.Errorf("parseMemorySize(%q) = %d, %v; want %d (error %v)", c.in, got, err, c.want, c.wantErr)
			}
		})
	}
}

// cgroupFS writes files under a temporary cgroup mount.
func cgroupFS(t *testing.T, files map[string]string) string {
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestServeChoosesItsMemoryLimit(t *testing.T) {
	const gib = 1 << 30
	v2 := map[string]string{"memory.max": "max\n", "box/memory.max": "1073741824\n"}
	v1 := map[string]string{"memory/memory.limit_in_bytes": "9223372036854771712\n", "memory/box/memory.limit_in_bytes": "2147483648\n"}
	for _, c := range []struct {
		name             string
		flag, gomemlimit string
		files            map[string]string
		self             string
		want             int64
		wantSource       string
		wantErr          string
	}{
		{"TheFlagWins", "150MiB", "1GiB", v2, "0::/box\n", 150 << 20, "-memory-limit", ""},
		{"TheFlagOffMeansNone", "off", "1GiB", v2, "0::/box\n", 0, "-memory-limit", ""},
		{"GOMEMLIMITWithoutTheFlag", "", "200MiB", v2, "0::/box\n", 200 << 20, "GOMEMLIMIT", ""},
		{"EightyPercentOfTheOwnCgroupV2", "", "", v2, "0::/box\n", gib * 8 / 10, "80%", ""},
		{"EightyPercentOfTheOwnCgroupV1", "", "", v1, "4:memory:/box\n0::/\n", 2 * gib * 8 / 10, "80%", ""},
		{"TheMountsTopWhenTheOwnIsNotThere", "", "", map[string]string{"memory.max": "536870912"}, "0::/elsewhere\n", 512 << 20 * 8 / 10, "80%", ""},
		{"NoContainerLimitIsNone", "", "", map[string]string{"memory.max": "max\n", "memory/memory.limit_in_bytes": "9223372036854771712\n"}, "0::/\n", 0, "none", ""},
		{"NoCgroupAtAllIsNone", "", "", nil, "", 0, "none", ""},
		{"ABadFlagIsAnError", "lots", "", v2, "0::/box\n", 0, "", "-memory-limit"},
		{"ABadGOMEMLIMITIsAnError", "", "lots", v2, "0::/box\n", 0, "", "GOMEMLIMIT"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := chooseMemoryLimit(c.flag, c.gomemlimit, cgroupFS(t, c.files), []byte(c.self))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want one naming %s", err, c.wantErr)
				}
				return
			}
			if err != nil || got.bytes != c.want || !strings.Contains(got.source, c.wantSource) {
				t.Errorf("got %+v, %v; want %d from %q", got, err, c.want, c.wantSource)
			}
		})
	}
}

func TestServeRefusesAMemoryLimitThatIsNotASize(t *testing.T) {
	var out strings.Builder
	code := runServe(t.Context(), []string{"-memory-limit", "lots", "-database", filepath.Join(t.TempDir(), "x.db")}, &out, &out)
	if code != 2 || !strings.Contains(out.String(), "-memory-limit") {
		t.Errorf("exit %d, want 2 and a message naming -memory-limit: %s", code, out.String())
	}
}
