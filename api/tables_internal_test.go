package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
)

// FuzzTableETag: a table ETag reads back to its version (for If-Match),
// only for its own table, and any header is read without panicking.
func FuzzTableETag(f *testing.F) {
	f.Add(int64(1), int64(12), 0, `"t1.v12.s0"`)
	f.Add(int64(7), int64(3), -1, `W/"t7.v3.sw", "x"`)
	f.Add(int64(2), int64(0), 3, `*`)
	f.Fuzz(func(t *testing.T, id, version int64, seat int, header string) {
		etagVersion(header, id)
		etagMatches(header, `"t1.v1.s0"`)
		if id <= 0 || version < 0 {
			return
		}
		etag := tableETag(id, version, seat)
		if got := etagVersion(etag, id); got != version {
			t.Fatalf("etagVersion(%s) = %d, want %d", etag, got, version)
		}
		if got := etagVersion(etag, id+1); got != 0 && id+1 > 0 {
			t.Fatalf("etagVersion(%s) for table %d = %d, want 0", etag, id+1, got)
		}
		if !etagMatches("W/"+etag+", \"other\"", etag) {
			t.Fatalf("%s does not match itself in a list", etag)
		}
	})
}

// TestPresenceEncodingIsJSONs: the presence spliced into a cached state
// is what encoding/json writes of it, window or not, whole seconds or not.
func TestPresenceEncodingIsJSONs(t *testing.T) {
	since := time.Date(2026, 11, 28, 13, 0, 0, 0, time.FixedZone("CET", 3600))
	end := since.Add(90*time.Second + 123456789*time.Nanosecond)
	in := []domain.SeatPresence{{Seat: 0, Present: true, Since: since}, {Seat: 3, Since: since, WindowEnds: &end}}
	ps := presenceOut(in)
	want, err := json.Marshal(struct {
		Presence []SeatPresence `json:"presence"`
	}{ps})
	if err != nil {
		t.Fatal(err)
	}
	got := append([]byte{'{'}, appendPresence(nil, in)[1:]...)
	if got = append(got, '}'); string(got) != string(want) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
