package store

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"
)

// driverTime is how go-sqlite3 reads a DATETIME column's text, in UTC.
func driverTime(s string) time.Time {
	s = strings.TrimSuffix(s, "Z")
	for _, layout := range sqlite3.SQLiteTimestampFormats {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

func TestParseSQLiteTimeReadsWhatTheDriverReads(t *testing.T) {
	for _, s := range []string{
		"2026-11-23 12:05:50.123456+00:00",
		"2026-11-23 12:05:50+00:00",
		"2026-11-23 12:05:50.1+02:30",
		"2026-11-23 12:05:50.123456789-07:00",
		"2026-11-23T12:05:50Z",
		"2026-11-23 12:05:50",
		"2026-11-23",
		"2026-02-31 12:05:50+00:00", // no such day
		"2026-11-23 24:05:50+00:00",
		"2026-11-23 12:05:50.+00:00",
		"2026-11-23 12:05:50.1234567890+00:00",
		"not a time",
		"",
	} {
		if got, want := parseSQLiteTime(s), driverTime(s); !got.Equal(want) {
			t.Errorf("parseSQLiteTime(%q) = %v, the driver reads %v", s, got, want)
		}
	}
}

func TestParseStoredTimeRoundTripsWhatTheDriverWrites(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2026, 11, 23, 12, 5, 50, 123456000, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", -7*3600)),
	} {
		s := tm.Format(sqlite3.SQLiteTimestampFormats[0])
		got, ok := parseStoredTime(s)
		if !ok || !got.Equal(tm) || got.Location() != time.UTC {
			t.Errorf("parseStoredTime(%q) = %v, %v; want %v in UTC", s, got, ok, tm)
		}
	}
}

func FuzzParseSQLiteTime(f *testing.F) {
	for _, s := range []string{"2026-11-23 12:05:50.123456+00:00", "2026-11-23 12:05:50-07:00", "2026-11-23", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := parseSQLiteTime(s), driverTime(s); !got.Equal(want) {
			t.Errorf("parseSQLiteTime(%q) = %v, the driver reads %v", s, got, want)
		}
	})
}

// TestParseStoredTimeReadsRandomTimes: times of any year go-sqlite3 writes
// in four digits, any nanosecond and any zone offset, read back as
// time.Parse reads them.
func TestParseStoredTimeReadsRandomTimes(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2026))
	layout := sqlite3.SQLiteTimestampFormats[0]
	for range 20000 {
		sec := rng.Int64N(253402300800-(-62135596800)) - 62135596800 // years 1 to 9999
		nsec := rng.Int64N(1e9)
		switch rng.IntN(4) {
		case 0:
			nsec = 0
		case 1:
			nsec -= nsec % 1000 // what the store keeps: microseconds
		}
		zone := time.FixedZone("", (rng.IntN(2*14*60+1)-14*60)*60)
		tm := time.Unix(sec, nsec).In(zone)
		if y := tm.Year(); y < 1 || y > 9999 {
			continue
		}
		s := tm.Format(layout)
		want, err := time.Parse(layout, s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseStoredTime(s)
		if !ok || got != want.UTC() {
			t.Fatalf("parseStoredTime(%q) = %v, %v; time.Parse reads %v", s, got, ok, want.UTC())
		}
	}
}

func BenchmarkParseStoredTime(b *testing.B) {
	s := time.Date(2026, 11, 23, 12, 5, 50, 123456000, time.UTC).Format(sqlite3.SQLiteTimestampFormats[0])
	for b.Loop() {
		if _, ok := parseStoredTime(s); !ok {
			b.Fatal(s)
		}
	}
}
