package migrations_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

// oldHash is a request hash as the services wrote it before migration 12.
func oldHash(format string, args ...any) string {
	sum := sha256.Sum256(fmt.Appendf(nil, format, args...))
	return hex.EncodeToString(sum[:])
}

// TestIdempotencyMigrationReplaysAnswersStoredBefore writes answers into the
// two old stores at version 11 and migrates to one store: a table move
// retried after the migration (by services started anew) answers what was
// stored before it, the same key with another move is refused, the
// tournament's answer keeps its scope, fingerprint and a day of life from
// when it was stored, and a key a user sent to both a table and a tournament
// keeps the later answer. Down puts each row back in its old table.
func TestIdempotencyMigrationReplaysAnswersStoredBefore(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		ctx, sqlDB, bind := t.Context(), db.SQL(), binder(db)
		_, err := migrations.Up(ctx, sqlDB, db.Dialect())
		must(t, err)
		stored := time.Date(2026, 3, 1, 12, 0, 0, 250000000, time.UTC)
		now := stored.Add(23 * time.Hour)
		svc := domain.NewServices(db, domain.Config{Now: func() time.Time { return now }, PasswordParams: domain.TestPasswordParams})
		u, err := svc.Auth.Register(ctx, domain.RegisterInput{Email: "ada@example.org", Password: "correct horse battery", Name: "Ada"})
		must(t, err)
		actor := domain.Actor{UserID: u.ID}
		tb, err := svc.Tables.Create(ctx, actor, domain.TableInput{Rules: "fibur", Players: 2})
		must(t, err)
		var tournamentID int64
		must(t, db.InTx(ctx, func(tx domain.Tx) error {
			c := domain.Club{Name: "C", CreatedAt: now, UpdatedAt: now}
			if err := tx.Clubs().Create(&c); err != nil {
				return err
			}
			tm := domain.Tournament{ClubID: c.ID, Name: "T", Rules: "fibur", Options: []byte("{}"), PlayersPerTable: 4,
				Kind: domain.PairsTournament, DealsPerRound: 3, StartsAt: now, Status: domain.TournamentDraft, LotsSeed: 1,
				CreatedAt: now, UpdatedAt: now}
			err := tx.Tournaments().Create(&tm)
			tournamentID = tm.ID
			return err
		}))

		downTo(t, db, 11)
		move := json.RawMessage(`{"move":"draw"}`)
		answer := fmt.Sprintf(`{"Table":{"ID":%d},"Seat":0,"Totals":[7,9]}`, tb.ID)
		tournamentHash := oldHash("%d\n%s", tournamentID, "POST /tournaments/1/rounds\n{}")
		inserts := []struct {
			table, resource string
			id              int64
			key, hash, body string
			at              time.Time
		}{
			{"table_idempotency", "table_id", tb.ID, "move-1", oldHash("%d\n%d\n%s", tb.ID, 4, move), answer, stored},
			{"tournament_idempotency", "tournament_id", tournamentID, "draw-1", tournamentHash, `{"seq":2}`, stored},
			{"table_idempotency", "table_id", tb.ID, "both", "t", `{}`, stored},
			{"tournament_idempotency", "tournament_id", tournamentID, "both", "later", `{}`, stored.Add(time.Minute)},
		}
		for _, in := range inserts {
			_, err := sqlDB.ExecContext(ctx, bind(`INSERT INTO `+in.table+` (user_id, idem_key, `+in.resource+`, request_hash, status, body, created_at)
				VALUES (?, ?, ?, ?, 200, ?, ?)`), u.ID, in.key, in.id, in.hash, in.body, in.at)
			must(t, err)
		}
		applied, err := migrations.Up(ctx, sqlDB, db.Dialect())
		must(t, err)
		if len(applied) == 0 || applied[0] != 12 {
			t.Fatalf("applied %v, want 12 first (and any later ones)", applied)
		}

		restarted := domain.NewServices(db, domain.Config{Now: func() time.Time { return now }, PasswordParams: domain.TestPasswordParams})
		st, err := restarted.Tables.Move(ctx, actor, tb.ID, domain.MoveInput{Move: move, Version: 4, IdempotencyKey: "move-1"})
		must(t, err)
		if got, _ := json.Marshal(st.Totals); string(got) != "[7,9]" || st.Table.ID != tb.ID {
			t.Errorf("the retried move answered %+v, want the answer stored before the migration", st)
		}
		_, err = restarted.Tables.Move(ctx, actor, tb.ID, domain.MoveInput{Move: move, Version: 5, IdempotencyKey: "move-1"})
		if domain.ErrorCode(err) != domain.EIdempotencyKeyReused {
			t.Errorf("the same key with another move: %v, want %s", err, domain.EIdempotencyKeyReused)
		}

		get := func(key string, at time.Time) (a domain.IdempotentAnswer, err error) {
			err = db.View(ctx, func(tx domain.Tx) error {
				a, err = tx.Idempotency().Get(u.ID, key, at)
				return err
			})
			return a, err
		}
		a, err := get("draw-1", now)
		must(t, err)
		if want := fmt.Sprint("tournaments/", tournamentID); a.Scope != want || a.Fingerprint != tournamentHash ||
			string(a.Answer) != `{"seq":2}` || !a.ExpiresAt.Equal(stored.Add(domain.IdempotencyTTL)) {
			t.Errorf("the tournament's answer after the migration: %+v", a)
		}
		if _, err := get("draw-1", stored.Add(domain.IdempotencyTTL+time.Microsecond)); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("a day after it was stored the answer is still there: %v", err)
		}
		if a, err := get("both", now); err != nil || a.Fingerprint != "later" {
			t.Errorf("the key sent to a table and a tournament: %+v, %v; want the later answer", a, err)
		}

		downTo(t, db, 11)
		var at time.Time
		var n int
		must(t, sqlDB.QueryRowContext(ctx, bind(`SELECT created_at FROM table_idempotency WHERE idem_key = ?`), "move-1").Scan(&at))
		must(t, sqlDB.QueryRowContext(ctx, `SELECT COUNT(*) FROM tournament_idempotency`).Scan(&n))
		if !at.Equal(stored) || n != 2 {
			t.Errorf("after Down: the move's key created at %v (want %v), %d tournament keys (want 2)", at, stored, n)
		}
	})
}
