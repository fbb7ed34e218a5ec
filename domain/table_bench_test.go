package domain_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// BenchmarkTableMove plays accepted moves one after another through the
// table service on a SQLite file, without HTTP: two human seats alternate
// draw and discard. Its time per move is the time a move holds SQLite's one
// write transaction, the bound of the durable moves per second:
//
//	go test ./domain -run '^$' -bench TableMove -benchtime 5000x -count 5
//
// (api's BenchmarkTablePaths/moves measures the same over HTTP, many tables
// at once.) key=each sends each move with an Idempotency-Key of its own,
// as a frontend does (its answer stored in the move's transaction);
// key=none without.
func BenchmarkTableMove(b *testing.B) {
	for _, keyed := range []bool{false, true} {
		name := "key=none"
		if keyed {
			name = "key=each"
		}
		b.Run(name, func(b *testing.B) { benchmarkTableMove(b, keyed) })
	}
}

func benchmarkTableMove(b *testing.B, keyed bool) {
	db := storetest.SQLite(b)
	svc := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams})
	ctx := b.Context()
	var actors [2]domain.Actor
	for i, email := range []string{"anna@example.org", "bruno@example.org"} {
		u, err := svc.Auth.Register(ctx, domain.RegisterInput{Email: email, Password: password, Name: email})
		if err != nil {
			b.Fatal(err)
		}
		actors[i] = domain.Actor{UserID: u.ID}
	}
	grace := 0
	tb, err := svc.Tables.Create(ctx, actors[0], domain.TableInput{Rules: "fibur", Players: 2,
		Match: domain.MatchFormat{Deals: domain.MaxMatchDeals}, GraceSeconds: &grace})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Tables.Join(ctx, actors[1], tb.ID, nil, ""); err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Tables.Start(ctx, actors[0], tb.ID); err != nil {
		b.Fatal(err)
	}
	st, err := svc.Tables.State(ctx, actors[0], tb.ID, "")
	if err != nil {
		b.Fatal(err)
	}
	if st.View.Turn != 0 {
		if st, err = svc.Tables.State(ctx, actors[1], tb.ID, ""); err != nil {
			b.Fatal(err)
		}
	}
	cpu0 := processCPU()
	b.ResetTimer()
	for i := range b.N {
		turn := st.View.Turn
		key := ""
		if keyed {
			key = fmt.Sprint("move-", i)
		}
		next, err := benchMoveUnder(svc, actors[turn], tb.ID, st, key)
		if err != nil {
			b.Fatal(err)
		}
		if next.Table.Status != domain.TablePlaying {
			b.Fatal("the match ended: raise its deals")
		}
		st = next
		if st.View.Turn != turn { // the answer shows the mover's view: read the next seat's
			b.StopTimer()
			if st, err = svc.Tables.State(ctx, actors[st.View.Turn], tb.ID, ""); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
	b.StopTimer()
	// The process's CPU (user and system) a move: on a shared machine the
	// time a move takes is mostly the run queue's.
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-us/op")
}

// processCPU is this process's CPU time, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchMove plays the next move of the seat on turn in st: a draw, or the
// discard of the first card of its hand the rules let it discard.
func benchMove(svc domain.Services, actor domain.Actor, id int64, st domain.TableState) (domain.TableState, error) {
	return benchMoveUnder(svc, actor, id, st, "")
}

// benchMoveUnder is benchMove with an Idempotency-Key ("": none).
func benchMoveUnder(svc domain.Services, actor domain.Actor, id int64, st domain.TableState, key string) (domain.TableState, error) {
	ctx := context.Background()
	in := domain.MoveInput{Move: []byte(`{"move":"draw"}`), Version: st.Table.Version, IdempotencyKey: key}
	if st.View.Phase == "take" {
		return svc.Tables.Move(ctx, actor, id, in)
	}
	var err error
	for _, c := range st.View.Hand {
		in.Move = []byte(`{"move":"discard","card":"` + c.String() + `"}`)
		var next domain.TableState
		if next, err = svc.Tables.Move(ctx, actor, id, in); err == nil || domain.ErrorKind(err) != domain.KindRule {
			return next, err
		}
	}
	return domain.TableState{}, fmt.Errorf("no card of %v may be discarded: %w", st.View.Hand, err)
}

// BenchmarkTableStatePoll reads a table's state as a woken poll does, the
// running deal in the game cache, on PostgreSQL (TEST_DATABASE_URL): State's
// one-query path, against the table's version read with database/sql
// alone (raw), in the same run:
//
//	go test ./domain -run '^$' -bench TableStatePoll -benchtime 2000x -count 5
func BenchmarkTableStatePoll(b *testing.B) {
	db := storetest.Postgres(b)
	svc := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams})
	ctx := b.Context()
	u, err := svc.Auth.Register(ctx, domain.RegisterInput{Email: "anna@example.org", Password: password, Name: "Anna"})
	if err != nil {
		b.Fatal(err)
	}
	anna := domain.Actor{UserID: u.ID}
	grace := 0
	tb, err := svc.Tables.Create(ctx, anna, domain.TableInput{Rules: "fibur", Players: 2, GraceSeconds: &grace})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Tables.AddBot(ctx, anna, tb.ID, nil); err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Tables.Start(ctx, anna, tb.ID); err != nil {
		b.Fatal(err)
	}
	want, err := svc.Tables.State(ctx, anna, tb.ID, "") // fills the caches
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range []struct {
		name string
		read func() (int64, error)
	}{
		{"raw", func() (v int64, err error) {
			return v, db.SQL().QueryRowContext(ctx, "SELECT version FROM tables WHERE id = $1", tb.ID).Scan(&v)
		}},
		{"one-query", func() (int64, error) {
			st, err := svc.Tables.State(ctx, anna, tb.ID, "")
			return st.Table.Version, err
		}},
	} {
		b.Run(path.name, func(b *testing.B) {
			for range b.N {
				v, err := path.read()
				if err != nil || v != want.Table.Version {
					b.Fatalf("version %d, want %d: %v", v, want.Table.Version, err)
				}
			}
		})
	}
}
