package domain

import (
	"testing"
	"time"
)

// fakeMarks is a storage's write marks set by hand.
type fakeMarks struct {
	mark uint64
	ok   bool
	// during, when set, runs inside the next read (a write that lands
	// while it runs).
	during func()
}

func (m *fakeMarks) Mark(...string) (uint64, bool) { return m.mark, m.ok }

func TestKeptReadIsReadAgainAfterAWriteOrItsAge(t *testing.T) {
	marks := &fakeMarks{mark: 1, ok: true}
	k := &keptReads{marks: marks, maxAge: time.Hour, epoch: "e", m: map[string]keptRead{}}
	reads := 0
	read := func() (int, error) {
		reads++
		if marks.during != nil {
			marks.during()
			marks.during = nil
		}
		return reads, nil
	}
	get := func() (int, string) {
		t.Helper()
		v, stamp, err := kept(k, "key", []string{"players"}, read)
		if err != nil {
			t.Fatal(err)
		}
		return v, stamp
	}

	v1, s1 := get()
	if v2, s2 := get(); v2 != v1 || s2 != s1 || s1 == "" || reads != 1 {
		t.Fatalf("unchanged: %d %q then %d %q after %d reads; want the first answer kept", v1, s1, v2, s2, reads)
	}

	marks.mark++ // a write committed
	if v, s := get(); v == v1 || s == s1 || reads != 2 {
		t.Errorf("after a write: %d %q (%d reads); want a new read and a new stamp", v, s, reads)
	}

	marks.ok = false // a write under way: read, keep nothing
	if _, s := get(); s != "" || reads != 3 {
		t.Errorf("while a write runs: stamp %q (%d reads); want a read not kept", s, reads)
	}
	marks.ok = true
	if _, s := get(); s == "" {
		t.Fatal("once the write ended the read was not kept")
	}

	marks.mark++
	marks.during = func() { marks.mark++ } // a write lands during the read
	if _, s := get(); s != "" {
		t.Errorf("a write during the read: stamp %q; want the read not kept", s)
	}
	before := reads
	get()
	if reads != before+1 {
		t.Error("a read a write overlapped was answered again")
	}

	k.maxAge = time.Nanosecond // a write nobody heard of: the age bounds it
	before = reads
	time.Sleep(time.Millisecond)
	get()
	if reads != before+1 {
		t.Error("a kept read older than its max age was answered again")
	}
}
