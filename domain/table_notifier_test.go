package domain

import (
	"testing"
	"time"
)

// TestTableNotifierStaleAndForget: a change seen elsewhere (a newer
// version) drops the table's entry and wakes its waiters; an older or equal
// one (this process's own, already published) changes nothing; forget
// drops every entry and wakes every waiter.
func TestTableNotifierStaleAndForget(t *testing.T) {
	n := newTableNotifier()
	n.publish(Table{ID: 1, Version: 5, Players: 2})
	n.publish(Table{ID: 2, Version: 3, Players: 2})
	woken := func(id int64) (<-chan struct{}, func()) {
		_, _, ch, done, ok := n.get(id)
		if !ok {
			t.Fatalf("table %d not known", id)
		}
		return ch, done
	}
	isClosed := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		case <-time.After(10 * time.Millisecond):
			return false
		}
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
	ch2, done2 := woken(2)
	n.forget()
	if !isClosed(ch2) {
		t.Fatal("forget did not wake the waiters")
	}
	done2()
	if len(n.tables) != 0 {
		t.Fatalf("%d entries after forget", len(n.tables))
	}
}
