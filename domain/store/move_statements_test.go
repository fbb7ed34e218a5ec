package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// ownedTable is a playing table of two on PostgreSQL whose lease owner
// "a" holds, with its service and players; ctx carries the owner's fence,
// as serve puts it in the context of each request it serves as owner.
type ownedTable struct {
	db     *store.DB
	svc    domain.Services
	actors [2]domain.Actor
	id     int64
	ctx    context.Context
	fence  lease.Fence
}

func newOwnedTable(t testing.TB) *ownedTable {
	t.Helper()
	return newOwnedTableOn(t, storetest.Postgres(t))
}

// newOwnedTableOn is newOwnedTable on db.
func newOwnedTableOn(t testing.TB, db *store.DB) *ownedTable {
	t.Helper()
	o := &ownedTable{db: db}
	o.svc = domain.NewServices(o.db, domain.Config{PasswordParams: domain.TestPasswordParams})
	ctx := t.Context()
	for i, email := range []string{"anna@example.org", "bruno@example.org"} {
		u, err := o.svc.Auth.Register(ctx, domain.RegisterInput{Email: email, Password: "correct horse battery", Name: email})
		if err != nil {
			t.Fatal(err)
		}
		o.actors[i] = domain.Actor{UserID: u.ID}
	}
	grace := 0
	tb, err := o.svc.Tables.Create(ctx, o.actors[0], domain.TableInput{Rules: "fibur", Players: 2,
		Match: domain.MatchFormat{Deals: domain.MaxMatchDeals}, GraceSeconds: &grace})
	if err != nil {
		t.Fatal(err)
	}
	o.id = tb.ID
	if _, err := o.svc.Tables.Join(ctx, o.actors[1], tb.ID, nil, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := o.svc.Tables.Start(ctx, o.actors[0], tb.ID); err != nil {
		t.Fatal(err)
	}
	l, err := o.db.Leases()
	if err != nil {
		t.Fatal(err)
	}
	epoch, ok, err := l.Acquire(ctx, tb.ID, "a", time.Minute)
	if err != nil || !ok {
		t.Fatalf("Acquire: %v, %v", ok, err)
	}
	o.fence = lease.Fence{Table: tb.ID, Owner: "a", Epoch: epoch}
	o.ctx = lease.WithFence(ctx, o.fence)
	return o
}

// state is the state as the seat on turn sees it.
func (o *ownedTable) state(t testing.TB) (domain.Actor, domain.TableState) {
	t.Helper()
	st, err := o.svc.Tables.State(o.ctx, o.actors[0], o.id, "")
	if err != nil {
		t.Fatal(err)
	}
	if st.View.Turn != st.Seat {
		if st, err = o.svc.Tables.State(o.ctx, o.actors[1], o.id, ""); err != nil {
			t.Fatal(err)
		}
	}
	return o.actors[st.View.Turn], st
}

// move plays the next move of the seat on turn (a draw, or the discard of
// the first card the rules let it discard) at version, with ctx.
func (o *ownedTable) move(ctx context.Context, actor domain.Actor, st domain.TableState, version int64) (domain.TableState, error) {
	return o.keyedMove(ctx, actor, st, version, "")
}

// keyedMove is move with an Idempotency-Key ("" for none).
func (o *ownedTable) keyedMove(ctx context.Context, actor domain.Actor, st domain.TableState, version int64, key string) (domain.TableState, error) {
	in := domain.MoveInput{Move: []byte(`{"move":"draw"}`), Version: version, IdempotencyKey: key}
	if st.View.Phase == "take" {
		return o.svc.Tables.Move(ctx, actor, o.id, in)
	}
	var err error
	for _, c := range st.View.Hand {
		in.Move = []byte(`{"move":"discard","card":"` + c.String() + `"}`)
		var next domain.TableState
		if next, err = o.svc.Tables.Move(ctx, actor, o.id, in); err == nil || domain.ErrorKind(err) != domain.KindRule {
			return next, err
		}
	}
	return domain.TableState{}, fmt.Errorf("no card of %v may be discarded: %w", st.View.Hand, err)
}

// movesTogether sends n moves of actor at st's version at once, and
// returns what each was answered.
func (o *ownedTable) movesTogether(actor domain.Actor, st domain.TableState, n int) []error {
	errs := make(chan error, n)
	for range n {
		go func() {
			_, err := o.move(o.ctx, actor, st, st.Table.Version)
			errs <- err
		}()
	}
	out := make([]error, n)
	for i := range out {
		out[i] = <-errs
	}
	return out
}

// TestAnOwnersMoveOnPostgresIsFewStatements: the plain move of a table's
// owner (fenced), its game in memory, is one statement and no
// transaction: the fence, the version check, the move's row and the
// table's update in one (owned_move.go), and a keyed move's answer with
// them. Each statement is a round trip, and each costs the server (pgx,
// GORM) and PostgreSQL CPU: the move was four (BEGIN, the fence with the
// version lock, the append with the update, COMMIT; docs/performance.md),
// and a keyed one five.
func TestAnOwnersMoveOnPostgresIsFewStatements(t *testing.T) {
	for _, c := range []struct {
		name string
		key  string
	}{
		{"APlainMoveIsOneStatement", ""},
		{"AKeyedMoveIsOneStatement", "key-1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newOwnedTable(t)
			actor, st := o.state(t)
			if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil { // the game is now in memory
				t.Fatal(err)
			}
			actor, st = o.state(t)
			count, sent := store.CountStatements(o.db), roundTrips(t, o.db)
			if _, err := o.keyedMove(o.ctx, actor, st, st.Table.Version, c.key); err != nil {
				t.Fatal(err)
			}
			got, n := count(), sent()
			if len(got) != 1 || n != 1 || strings.Contains(got[0], "idempotency_keys") != (c.key != "") {
				t.Errorf("%d round trips, %d statements; want one (with the key's answer: %v):\n%s", n, len(got), c.key != "",
					strings.Join(got, "\n"))
			}
		})
	}
}

// roundTrips returns what counts the statements db sends PostgreSQL from
// now on, BEGIN and COMMIT included (a listener's LISTEN left out: it
// starts when a read first asks the write marks).
func roundTrips(t testing.TB, db *store.DB) func() int {
	t.Helper()
	total := func() int {
		c, ok := db.DBCounts()
		if !ok {
			t.Fatal("no statement counts on PostgreSQL")
		}
		n := 0
		for _, s := range c.Statements {
			if s.Op != "listen" {
				n += int(s.Count)
			}
		}
		return n
	}
	before := total()
	return func() int { return total() - before }
}

// TestAnOwnersMovesAreOrderedAndChecked: the owner's moves (fenced: the
// fence reads the version the move is checked against) still meet the
// version check and are played one at a time on PostgreSQL.
func TestAnOwnersMovesAreOrderedAndChecked(t *testing.T) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, o *ownedTable)
	}{
		{"AMoveAtAnOldVersionIsAVersionConflict", func(t *testing.T, o *ownedTable) {
			actor, st := o.state(t)
			next, err := o.move(o.ctx, actor, st, st.Table.Version)
			if err != nil {
				t.Fatal(err)
			}
			actor, st2 := o.state(t)
			_, err = o.move(o.ctx, actor, st2, st.Table.Version) // the version before the move
			var de *domain.Error
			if domain.ErrorCode(err) != domain.EVersionConflict || !errors.As(err, &de) || de.Current == nil || *de.Current != next.Table.Version {
				t.Fatalf("a move at version %d after %d: %v; want version_conflict at %d", st.Table.Version, next.Table.Version, err, next.Table.Version)
			}
		}},
		{"MovesSentTogetherAtOneVersionPlayOnce", func(t *testing.T, o *ownedTable) {
			actor, st := o.state(t)
			const n = 6
			played := 0
			for _, err := range o.movesTogether(actor, st, n) {
				switch {
				case err == nil:
					played++
				case domain.ErrorCode(err) != domain.EVersionConflict:
					t.Errorf("a move sent together with others: %v; want it played or version_conflict", err)
				}
			}
			_, after := o.state(t)
			if played != 1 || after.Table.Version != st.Table.Version+1 {
				t.Errorf("%d of %d moves played, version %d → %d; want one move, one version", played, n, st.Table.Version, after.Table.Version)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, newOwnedTable(t)) })
	}
}

// BenchmarkAnOwnersMoveOnPostgres plays an owner's moves (fenced, the
// game in memory) one after another through the table service on
// PostgreSQL (TEST_DATABASE_URL), without HTTP: the move's transaction
// alone, on one connection. Besides ns/op it reports the CPU per move of
// this process (server-cpu-us/op: the domain, GORM, pgx) and of the
// connection's PostgreSQL backend (pg-cpu-us/op, when the server runs on
// this machine: the backend's alone, not the WAL writer's):
//
//	go test ./domain/store -run '^$' -bench AnOwnersMoveOnPostgres -benchtime 2000x -count 3
//
// commit=sync is how serve commits (PostgreSQL's default: the backend
// writes and flushes the WAL before COMMIT returns, and the flush's
// kernel work is charged to it); commit=async is how the tests commit
// (storetest sets synchronous_commit=off), the figure this benchmark gave
// alone until 2026-11-28. key=each sends every move with an
// Idempotency-Key of its own, as a frontend does (and the load generator):
// the answer is stored by the move's statement.
func BenchmarkAnOwnersMoveOnPostgres(b *testing.B) {
	for _, mode := range []struct{ name, setting string }{{"commit=sync", "on"}, {"commit=async", "off"}} {
		for _, keyed := range []bool{false, true} {
			name := mode.name + "/key=none"
			if keyed {
				name = mode.name + "/key=each"
			}
			b.Run(name, func(b *testing.B) { benchmarkAnOwnersMove(b, mode.setting, keyed) })
		}
	}
}

func benchmarkAnOwnersMove(b *testing.B, synchronousCommit string, keyed bool) {
	o := newOwnedTable(b)
	o.db.SQL().SetMaxOpenConns(1) // every transaction on the one backend measured
	if _, err := o.db.SQL().Exec(`SELECT set_config('synchronous_commit', $1, false)`, synchronousCommit); err != nil {
		b.Fatal(err)
	}
	var backend int
	var setting string
	if err := o.db.SQL().QueryRow(`SELECT pg_backend_pid(), current_setting('synchronous_commit')`).Scan(&backend, &setting); err != nil {
		b.Fatal(err)
	}
	if setting != synchronousCommit {
		b.Fatalf("synchronous_commit %s, want %s", setting, synchronousCommit)
	}
	actor, st := o.state(b)
	cpu0, pg0 := selfCPU(), procCPU(backend)
	b.ResetTimer()
	for i := range b.N {
		key := ""
		if keyed { // as a frontend sends each move: its answer stored in the move's statement
			key = "move-" + strconv.Itoa(i)
		}
		next, err := o.keyedMove(o.ctx, actor, st, st.Table.Version, key)
		if err != nil {
			b.Fatal(err)
		}
		if next.Table.Status != domain.TablePlaying {
			b.Fatal("the match ended: raise its deals")
		}
		if next.View.Turn != next.Seat {
			b.StopTimer()
			actor, next = o.state(b)
			b.StartTimer()
		}
		st = next
	}
	b.StopTimer()
	b.ReportMetric(float64((selfCPU()-cpu0).Microseconds())/float64(b.N), "server-cpu-us/op")
	b.ReportMetric(float64((procCPU(backend)-pg0).Microseconds())/float64(b.N), "pg-cpu-us/op")
}

// selfCPU is this process's CPU time, user and system.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU is process pid's CPU time from /proc (0 when it cannot be read:
// PostgreSQL on another machine).
func procCPU(pid int) time.Duration {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond // USER_HZ is 100
}

// TestAnOwnersMoveThatStoresThePositionIsOneStatement: every
// PositionEvery moves a move stores its deal's position; an owner's plain
// move does it in its one statement (owned_move.go: the deal's update
// beside the table's), not in a transaction of its own. The position
// stored is the game's: once the process forgets the game, the state read
// back from the position and the log is the state it showed.
func TestAnOwnersMoveThatStoresThePositionIsOneStatement(t *testing.T) {
	o := newOwnedTable(t)
	actor, st := o.state(t)
	if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil { // the game is now in memory
		t.Fatal(err)
	}
	storedMoves := func() (n int) {
		if err := o.db.SQL().QueryRow(`SELECT moves FROM table_deals WHERE table_id = $1 ORDER BY number DESC LIMIT 1`, o.id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	positions := 0
	for range domain.PositionEvery + 2 {
		actor, st = o.state(t)
		before := storedMoves()
		sent := roundTrips(t, o.db)
		if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil {
			t.Fatal(err)
		}
		if n := sent(); n != 1 {
			t.Errorf("a move at version %d sent %d statements; want one", st.Table.Version, n)
		}
		if storedMoves() != before {
			positions++
		}
	}
	if positions != 1 {
		t.Fatalf("%d positions stored in %d moves; want one", positions, domain.PositionEvery+2)
	}
	_, shown := o.state(t)
	o.svc.Tables.Forget(o.id) // the game read back from the stored position and the log
	_, read := o.state(t)
	a, _ := json.Marshal(shown.View)
	b, _ := json.Marshal(read.View)
	if string(a) != string(b) || read.Table.Version != shown.Table.Version {
		t.Errorf("read back from the position stored: version %d\n%s\nthe process showed version %d\n%s", read.Table.Version, b, shown.Table.Version, a)
	}
}
