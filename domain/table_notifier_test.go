package domain

import (
	"testing"
	"time"
)

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(10 * time.Millisecond):
		return false
	}
}

// TestTableNotifierStaleAndForget: a change seen elsewhere (a newer
// version) marks the table's entry unknown and wakes its waiters; an older
// or equal one (this process's own, already published) changes nothing;
// forget marks every entry unknown and wakes every waiter, keeping the
// versions.
func TestTableNotifierStaleAndForget(t *testing.T) {
	n := newTableNotifier()
	n.publish(Table{ID: 1, Version: 5, Players: 2}, n.ticket())
	n.publish(Table{ID: 2, Version: 3, Players: 2}, n.ticket())
	woken := func(id int64) (<-chan struct{}, func()) {
		_, _, ch, done, ok := n.get(id)
		if !ok {
			t.Fatalf("table %d not known", id)
		}
		return ch.Done(), done
	}
	ch, done := woken(1)
	n.stale(1, 5)
	if isClosed(ch) {
		t.Fatal("a version already known woke the waiters")
	}
	n.stale(1, 6)
	if !isClosed(ch) {
		t.Fatal("a newer version did not wake the waiters")
	}
	done()
	if _, _, _, _, ok := n.get(1); ok {
		t.Fatal("the stale entry is still trusted")
	}
	n.publish(Table{ID: 1, Version: 6, Players: 2}, n.ticket())
	if v, _, _, done, ok := n.get(1); !ok || v != 6 {
		t.Fatalf("read again after the change: version %d, known %v", v, ok)
	} else {
		done()
	}
	ch2, done2 := woken(2)
	n.forget()
	if !isClosed(ch2) {
		t.Fatal("forget did not wake the waiters")
	}
	done2()
	if _, _, _, _, ok := n.get(2); ok {
		t.Fatal("an entry is trusted after forget")
	}
	if w := n.tables[2]; w == nil || w.version != 3 {
		t.Fatal("forget dropped the version floor")
	}
}

// TestTableNotifierVersionNeverGoesBack: whatever order reads, commits,
// announcements from other processes, resyncs and prunes arrive in, a poll
// is never told an older version than one already known, and a read that
// began before a change it may not have seen does not vouch for the table.
// Each case is an interleaving of a read (ticket taken when it began,
// published when it ended) with other events.
func TestTableNotifierVersionNeverGoesBack(t *testing.T) {
	playing := func(v int64) Table { return Table{ID: 1, Version: v, Players: 2, Status: TablePlaying} }
	finished := func(v int64) Table { return Table{ID: 1, Version: v, Players: 2, Status: TableFinished} }
	for _, c := range []struct {
		name        string
		run         func(n *tableNotifier)
		known       bool
		wantVersion int64 // when known
	}{
		{"a read published after a newer commit is ignored", func(n *tableNotifier) {
			tk := n.ticket()
			n.publish(playing(6), n.ticket())
			n.publish(playing(5), tk)
		}, true, 6},
		{"a read published after the table finished is ignored", func(n *tableNotifier) {
			n.publish(playing(5), n.ticket())
			tk := n.ticket()
			n.publish(finished(6), n.ticket())
			_, _, _, done, _ := n.get(1)
			done() // the last waiter leaves a finished table
			n.publish(playing(5), tk)
		}, true, 6},
		{"a read of a table changed elsewhere while it ran does not vouch for it", func(n *tableNotifier) {
			n.publish(playing(5), n.ticket())
			tk := n.ticket()
			n.stale(1, 6)
			n.publish(playing(6), tk) // it may have read 6 or 5: it cannot tell
		}, false, 0},
		{"a change elsewhere to a table not watched here still sets the floor", func(n *tableNotifier) {
			tk := n.ticket()
			n.stale(1, 6)
			n.publish(playing(5), tk)
		}, false, 0},
		{"a read begun after a change elsewhere vouches for the table", func(n *tableNotifier) {
			n.stale(1, 6)
			n.publish(playing(6), n.ticket())
		}, true, 6},
		{"a read begun before a resync does not vouch for the table", func(n *tableNotifier) {
			n.publish(playing(5), n.ticket())
			tk := n.ticket()
			n.forget()
			n.publish(playing(5), tk)
		}, false, 0},
		{"a read begun before a prune dropped the floor creates nothing", func(n *tableNotifier) {
			n.limit = 1
			tk := n.ticket()
			n.publish(playing(6), n.ticket())
			n.publish(Table{ID: 2, Version: 1}, n.ticket())
			n.publish(Table{ID: 3, Version: 1}, n.ticket()) // prunes
			n.publish(playing(5), tk)
		}, false, 0},
		{"a commit's own announcement arriving after it changes nothing", func(n *tableNotifier) {
			n.publish(playing(6), n.ticket())
			n.stale(1, 6)
		}, true, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := newTableNotifier()
			c.run(n)
			v, _, _, done, ok := n.get(1)
			if ok {
				done()
			}
			if ok != c.known || ok && v != c.wantVersion {
				t.Fatalf("known %v at version %d, want known %v at version %d", ok, v, c.known, c.wantVersion)
			}
		})
	}
}

// TestATableIsBriskWhileItsVersionsComeWithinTheGrace: brisk says a table
// moves briskly when its last two versions came within the grace and the
// last is younger than it; a table at a person's pace, one read once, one
// whose last move is old, one re-read at the same version, or one never
// seen, is not.
func TestATableIsBriskWhileItsVersionsComeWithinTheGrace(t *testing.T) {
	const grace = 200 * time.Millisecond
	start := time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		gaps  []time.Duration // between the versions published, the first at start
		after time.Duration   // from the last version to the question
		want  bool
	}{
		{"VersionsAtBotsPaceAreBrisk", []time.Duration{80 * time.Millisecond, 90 * time.Millisecond}, 10 * time.Millisecond, true},
		{"AGapOfTheGraceItselfIsBrisk", []time.Duration{grace}, 0, true},
		{"VersionsAtAPersonsPaceAreNot", []time.Duration{2 * time.Second, 1800 * time.Millisecond}, 10 * time.Millisecond, false},
		{"ABriskTableWhoseLastMoveIsOldIsNot", []time.Duration{50 * time.Millisecond}, grace, false},
		{"AFastMoveAfterASlowOneIsBrisk", []time.Duration{2 * time.Second, 60 * time.Millisecond}, 0, true},
		{"ASlowMoveAfterFastOnesIsNot", []time.Duration{60 * time.Millisecond, 2 * time.Second}, 0, false},
		{"ATableReadOnceIsNot", nil, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := start
			n := newTableNotifier()
			n.now = func() time.Time { return now }
			n.publish(Table{ID: 1, Version: 1, Players: 2}, n.ticket())
			for i, g := range c.gaps {
				now = now.Add(g)
				n.publish(Table{ID: 1, Version: int64(i + 2), Players: 2}, n.ticket())
			}
			now = now.Add(c.after)
			if got := n.brisk(1, grace); got != c.want {
				t.Errorf("brisk = %v, want %v", got, c.want)
			}
		})
	}
	t.Run("TheSameVersionPublishedAgainIsNoMove", func(t *testing.T) {
		now := start
		n := newTableNotifier()
		n.now = func() time.Time { return now }
		n.publish(Table{ID: 1, Version: 1, Players: 2}, n.ticket())
		now = now.Add(2 * time.Second)
		n.publish(Table{ID: 1, Version: 2, Players: 2}, n.ticket())
		now = now.Add(10 * time.Millisecond)
		n.stale(1, 2)                                               // the same version, seen again
		n.publish(Table{ID: 1, Version: 2, Players: 2}, n.ticket()) // read again
		if n.brisk(1, grace) {
			t.Error("a version seen again counted as a move: brisk")
		}
		if n.brisk(9, grace) {
			t.Error("a table never seen is brisk")
		}
	})
}
