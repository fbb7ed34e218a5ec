package main

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// memoryLimitShare is the part of a container's memory limit serve gives
// the Go runtime by default: the rest is for what the runtime does not
// count (SQLite's page cache and cgo, thread stacks) and a margin.
const memoryLimitShare = 0.8

// memoryLimit is serve's choice of the Go runtime's soft memory limit
// (runtime/debug.SetMemoryLimit): with it the collector runs when the heap
// nears the limit instead of waiting until the heap has doubled since the
// last collection (GOGC=100), so the resident set tracks the live memory
// plus a margin instead of twice it (docs/SCALE-OUT.md §8.2, cut 4), and
// returns freed memory to the system sooner. It is soft: past it the
// process collects more often, it does not fail.
type memoryLimit struct {
	bytes  int64  // 0: none
	source string // where it came from, for the log
}

// chooseMemoryLimit picks the limit: -memory-limit (or
// BURRACO_MEMORY_LIMIT) when given ("off" or 0: none); else GOMEMLIMIT,
// which the runtime has applied already; else memoryLimitShare of the
// container's memory limit (containerMemory of cgroupRoot and self);
// else none.
func chooseMemoryLimit(flagValue, gomemlimit, cgroupRoot string, self []byte) (memoryLimit, error) {
	if flagValue != "" {
		n, err := parseMemorySize(flagValue)
		if err != nil {
			return memoryLimit{}, fmt.Errorf("-memory-limit %q: %w", flagValue, err)
		}
		return memoryLimit{bytes: n, source: "-memory-limit"}, nil
	}
	if gomemlimit != "" {
		n, err := parseMemorySize(gomemlimit)
		if err != nil { // the runtime has refused it already, at start
			return memoryLimit{}, fmt.Errorf("GOMEMLIMIT %q: %w", gomemlimit, err)
		}
		return memoryLimit{bytes: n, source: "GOMEMLIMIT"}, nil
	}
	if n, ok := containerMemory(cgroupRoot, self); ok {
		return memoryLimit{bytes: int64(float64(n) * memoryLimitShare), source: "80% of the container's memory limit"}, nil
	}
	return memoryLimit{source: "none: no container memory limit found, GOGC alone"}, nil
}

// parseMemorySize reads a size as GOMEMLIMIT writes it: a number of bytes
// with an optional unit B, KiB, MiB, GiB or TiB (and KB, MB, GB, TB, in
// powers of 1000); "off" and 0 mean no limit.
func parseMemorySize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "off" {
		return 0, nil
	}
	units := []struct {
		suffix string
		scale  float64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1},
	}
	scale := 1.0
	for _, u := range units {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			s, scale = v, u.scale
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 || math.IsInf(n, 0) || math.IsNaN(n) || n*scale > math.MaxInt64/2 {
		return 0, errors.New("not a size such as 150MiB, 2GiB or off")
	}
	return int64(n * scale), nil
}

// containerMemory is the memory limit of the cgroup the process runs in,
// when one is set: cgroup v2's memory.max ("max": none), or v1's
// memory.limit_in_bytes (a value near the largest int64: none). root is
// where the cgroup file system is mounted (/sys/fs/cgroup), self the
// content of /proc/self/cgroup: the process's own cgroup is tried first,
// the mount's top (a container's own) after it.
func containerMemory(root string, self []byte) (int64, bool) {
	v2, v1 := cgroupPaths(self)
	for _, p := range []string{
		filepath.Join(root, v2, "memory.max"), filepath.Join(root, "memory", v1, "memory.limit_in_bytes"),
		filepath.Join(root, "memory.max"), filepath.Join(root, "memory", "memory.limit_in_bytes"),
	} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || n <= 0 || n >= 1<<62 { // "max", or v1's "unlimited"
			continue
		}
		return n, true
	}
	return 0, false
}

// cgroupPaths reads /proc/self/cgroup: the v2 path ("0::/path") and the
// v1 memory controller's ("N:memory:/path"); "/" when absent.
func cgroupPaths(self []byte) (v2, v1 string) {
	v2, v1 = "/", "/"
	for line := range strings.Lines(string(self)) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "/") || strings.Contains(parts[2], "..") {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2 = parts[2]
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			v1 = parts[2]
		}
	}
	return v2, v1
}

// applyMemoryLimit sets the runtime's limit serve chose and logs it.
func applyMemoryLimit(m memoryLimit, log *slog.Logger) {
	if m.bytes > 0 {
		debug.SetMemoryLimit(m.bytes)
		log.Info("memory limit", "bytes", m.bytes, "MiB", m.bytes>>20, "source", m.source, "GOGC", os.Getenv("GOGC"))
		return
	}
	debug.SetMemoryLimit(math.MaxInt64)
	log.Info("memory limit", "source", m.source)
}
