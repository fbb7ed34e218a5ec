//go:build !linux

package api

import "net"

// goneWatch is the Linux epoll set that tells parked polls whose client
// went; elsewhere a parked poll learns it when its wait ends.
type goneWatch struct{}

var watchGone *goneWatch

func (g *goneWatch) add(c net.Conn, gone func()) (remove func() bool, ok bool) { return nil, false }

func (g *goneWatch) addReadable(c net.Conn, ready func()) (remove func() bool, ok bool) {
	return nil, false
}
