//go:build linux

package api

import (
	"errors"
	"net"
	"sync"
	"syscall"
)

// goneWatch tells the parked polls whose client closed its connection, as
// net/http's background read of a waiting handler did (EPOLLRDHUP: the
// client's end closed), and the idle connections whose client sent its
// next request (EPOLLIN): one epoll set and one goroutine for every parked
// connection of the process, instead of a goroutine each.
type goneWatch struct {
	epfd  int
	mu    sync.Mutex
	gone  map[int32]func() // by file descriptor
	start sync.Once
}

// watchGone is the process's; nil when epoll cannot be had (then a parked
// poll learns its client went when its wait ends).
var watchGone = func() *goneWatch {
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil
	}
	return &goneWatch{epfd: fd, gone: map[int32]func(){}}
}()

// add has gone run, in a goroutine of its own, when c's client closes its
// end; remove stops it (before c is closed). ok is false when c cannot be
// watched.
func (g *goneWatch) add(c net.Conn, gone func()) (remove func() bool, ok bool) {
	return g.watch(c, syscall.EPOLLRDHUP, gone)
}

// addReadable has ready run, in a goroutine of its own, when c has bytes
// to read or its client closed its end.
func (g *goneWatch) addReadable(c net.Conn, ready func()) (remove func() bool, ok bool) {
	return g.watch(c, syscall.EPOLLIN|syscall.EPOLLRDHUP, ready)
}

// watch has f run once at the first of events on c (EPOLLHUP and EPOLLERR
// always count); remove reports whether it stopped f before it ran.
func (g *goneWatch) watch(c net.Conn, events uint32, f func()) (remove func() bool, ok bool) {
	if g == nil {
		return nil, false
	}
	sc, isSys := unwrapResumed(c).(syscall.Conn)
	if !isSys {
		return nil, false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil, false
	}
	g.start.Do(func() { go g.run() })
	var fd int32 = -1
	_ = raw.Control(func(fd0 uintptr) {
		g.mu.Lock()
		defer g.mu.Unlock()
		ev := syscall.EpollEvent{Events: events, Fd: int32(fd0)}
		if syscall.EpollCtl(g.epfd, syscall.EPOLL_CTL_ADD, int(fd0), &ev) == nil {
			fd = int32(fd0)
			g.gone[fd] = f
		}
	})
	if fd < 0 {
		return nil, false
	}
	return func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.gone[fd] == nil {
			return false
		}
		delete(g.gone, fd)
		_ = syscall.EpollCtl(g.epfd, syscall.EPOLL_CTL_DEL, int(fd), nil)
		return true
	}, true
}

// run waits for the events of every watched connection.
func (g *goneWatch) run() {
	events := make([]syscall.EpollEvent, 128)
	for {
		n, err := syscall.EpollWait(g.epfd, events, -1)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return
		}
		for _, ev := range events[:n] {
			g.mu.Lock()
			gone := g.gone[ev.Fd]
			if gone != nil {
				delete(g.gone, ev.Fd)
				_ = syscall.EpollCtl(g.epfd, syscall.EPOLL_CTL_DEL, int(ev.Fd), nil)
			}
			g.mu.Unlock()
			if gone != nil {
				go gone()
			}
		}
	}
}
