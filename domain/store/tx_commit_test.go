package store_test

import (
	"bytes"
	"context"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestAWriteWhoseRequestEndsDuringItsCommitSaysItCommitted: on
// PostgreSQL, a write transaction whose request ends (a client gone, a
// forwarding process killed) after COMMIT was sent and before its answer
// came back is committed, and InTx must say so: a "context canceled"
// while the rows are committed leaves the process believing the version
// before (its tables' cache, an owner's game in memory, the polls'
// notifier) while the database holds the next, and the table's polls wait
// on the old version for good (the failover run's stuck table of
// 2026-11-28, there on the one-statement move: this is InTx's side). The
// test holds PostgreSQL's answer to the COMMIT in a proxy and ends the
// request meanwhile.
func TestAWriteWhoseRequestEndsDuringItsCommitSaysItCommitted(t *testing.T) {
	for _, c := range []struct {
		name string
		// end ends the request inside the transaction, after its write.
		end        func(p *commitHolder, cancel context.CancelFunc)
		wantStored bool
	}{
		{"EndedWhileTheCommitsAnswerIsOnItsWay", func(p *commitHolder, cancel context.CancelFunc) {
			p.arm()
			time.AfterFunc(100*time.Millisecond, cancel) // while the COMMIT's answer is held
		}, true},
		{"EndedBeforeTheCommitCommitsNothing", func(_ *commitHolder, cancel context.CancelFunc) { cancel() }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, err := url.Parse(storetest.PostgresURL(t))
			if err != nil {
				t.Fatal(err)
			}
			proxy := holdCommits(t, u.Host, 300*time.Millisecond)
			u.Host = proxy.addr
			db := storetest.Open(t, u.String())
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			err = db.InTx(ctx, func(tx domain.Tx) error {
				if err := createClub(tx, "written"); err != nil {
					return err
				}
				c.end(proxy, cancel)
				return nil
			})
			if c.wantStored && !proxy.held.Load() {
				t.Fatal("the proxy held no answer to a COMMIT: the case was not made")
			}
			stored := clubNames(t, db)["written"]
			if stored != c.wantStored || (err == nil) != stored {
				t.Fatalf("InTx says %v, the club stored %v; want stored %v, and an error exactly when it was not", err, stored, c.wantStored)
			}
		})
	}
}

// commitHolder is a TCP proxy to PostgreSQL that, once armed, holds the
// server's answer to the next COMMIT a client sends for hold before it
// passes it on.
type commitHolder struct {
	addr  string
	armed atomic.Bool
	held  atomic.Bool
}

func (p *commitHolder) arm() { p.armed.Store(true) }

// holdCommits starts a commitHolder in front of target (host:port),
// closed when the test ends.
func holdCommits(t *testing.T, target string, hold time.Duration) *commitHolder {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &commitHolder{addr: l.Addr().String()}
	var conns sync.WaitGroup
	t.Cleanup(func() { l.Close(); conns.Wait() })
	go func() {
		for {
			client, err := l.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			conns.Add(2)
			var commitSent atomic.Bool
			go func() { // client to server: notes a COMMIT sent while armed
				defer conns.Done()
				defer server.Close()
				buf := make([]byte, 32<<10)
				for {
					n, err := client.Read(buf)
					if n > 0 {
						if p.armed.Load() && bytes.Contains(bytes.ToLower(buf[:n]), []byte("commit")) {
							p.armed.Store(false)
							commitSent.Store(true) // before the COMMIT leaves: its answer cannot pass first
						}
						if _, err := server.Write(buf[:n]); err != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			}()
			go func() { // server to client: holds the COMMIT's answer
				defer conns.Done()
				defer client.Close()
				buf := make([]byte, 32<<10)
				for {
					n, err := server.Read(buf)
					if n > 0 && commitSent.CompareAndSwap(true, false) {
						p.held.Store(true)
						time.Sleep(hold)
					}
					if n > 0 {
						if _, err := client.Write(buf[:n]); err != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	return p
}
