package store

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"
)

// TestParseSQLiteTimeReadsWhatTheDriverWrites: a time go-sqlite3 wrote
// (any year it writes in four digits, any nanosecond, any zone offset)
// reads back as the same instant, in UTC; text in another of its layouts
// reads as it would, and text in none reads as the zero time.
func TestParseSQLiteTimeReadsWhatTheDriverWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2026))
	layout := sqlite3.SQLiteTimestampFormats[0]
	for range 2000 {
		sec := rng.Int64N(253402300800-(-62135596800)) - 62135596800 // years 1 to 9999
		nsec := rng.Int64N(1e9)
		if rng.IntN(2) == 0 {
			nsec -= nsec % 1000 // what the store keeps: microseconds
		}
		zone := time.FixedZone("", (rng.IntN(2*14*60+1)-14*60)*60)
		tm := time.Unix(sec, nsec).In(zone)
		if y := tm.Year(); y < 1 || y > 9999 {
			continue
		}
		s := tm.Format(layout)
		if got := parseSQLiteTime(s); !got.Equal(tm) || got.Location() != time.UTC {
			t.Fatalf("parseSQLiteTime(%q) = %v; want %v in UTC", s, got, tm)
		}
	}
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2026-11-23T12:05:50Z", time.Date(2026, 11, 23, 12, 5, 50, 0, time.UTC)},
		{"2026-11-23 12:05:50", time.Date(2026, 11, 23, 12, 5, 50, 0, time.UTC)},
		{"2026-11-23", time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)},
		{"2026-02-31 12:05:50+00:00", time.Time{}}, // no such day
		{"not a time", time.Time{}},
		{"", time.Time{}},
	} {
		if got := parseSQLiteTime(tc.in); !got.Equal(tc.want) {
			t.Errorf("parseSQLiteTime(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// BenchmarkParseSQLiteTime: what reading a stored time costs (two per row
// of most tables).
func BenchmarkParseSQLiteTime(b *testing.B) {
	s := time.Date(2026, 11, 23, 12, 5, 50, 123456000, time.UTC).Format(sqlite3.SQLiteTimestampFormats[0])
	for b.Loop() {
		if parseSQLiteTime(s).IsZero() {
			b.Fatal(s)
		}
	}
}
