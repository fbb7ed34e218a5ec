package store

import (
	"time"

	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
)

// tx is one unit of work; its repositories share the GORM transaction.
type tx struct {
	db      *gorm.DB
	dialect string
	// locked holds the table rows as this transaction locked or last wrote
	// them, so that an update writes only the columns that changed (see
	// tableRepo.Update).
	locked map[int64]tableRow
	// lockedSeats holds the seats of the tables this transaction locked, as
	// read then, while it has not changed them: a version it writes keeps
	// them (see tableRepo.Update).
	lockedSeats map[int64][]domain.Seat
	// changedSeats are the tables whose seats this transaction changed:
	// none of their seats is cached from it, but as read at the version
	// it wrote last (wroteVersion), after the change.
	changedSeats map[int64]bool
	wroteVersion map[int64]int64
	tables       *tableCache // the database's, or nil
	// committed are the table rows to cache once the transaction commits
	// (at once after a read-only one).
	committed []tableRow
	// committedSeats are the tables' seats to cache likewise (the lobby's).
	committedSeats []tableSeats
	// fenced is set when the transaction is a table owner's, its lease
	// checked (leases.go): its tables' versions are announced by the
	// second's list (table_feed_owned.go), not one notice each; deferred
	// holds them until the commit.
	fenced   bool
	deferred []tableVersion
	// fencedVersion is the version of the fence's table the fence read
	// under the table's row lock, until the transaction's first lock of it
	// or first write (leases.go).
	fencedVersion *lockedVersion
	// appends are the moves' rows kept to be sent with the table's
	// update (appends.go); nil where AppendMove inserts at once.
	appends *pendingAppends
	// deferredWrites are the records a fenced play transaction wrote, for
	// the second's list likewise (write_marks_owned.go).
	deferredWrites []string
}

// done caches the rows the transaction read or wrote, once it committed.
func (t *tx) done() {
	if t.tables == nil {
		return
	}
	for _, row := range t.committed {
		t.tables.put(row)
	}
	for _, s := range t.committedSeats {
		t.tables.putSeats(s)
	}
}

func (t *tx) Users() domain.UserRepo                 { return userRepo{t} }
func (t *tx) RefreshTokens() domain.RefreshTokenRepo { return tokenRepo{t} }
func (t *tx) Clubs() domain.ClubRepo                 { return clubRepo{t} }
func (t *tx) Memberships() domain.MembershipRepo     { return membershipRepo{t} }
func (t *tx) Players() domain.PlayerRepo             { return playerRepo{t} }
func (t *tx) Tournaments() domain.TournamentRepo     { return tournamentRepo{t} }
func (t *tx) TournamentEvents() domain.TournamentEventRepo {
	return tournamentEventRepo{t}
}
func (t *tx) Settings() domain.SettingRepo { return settingRepo{t} }
func (t *tx) Tables() domain.TableRepo     { return tableRepo{t} }
func (t *tx) Seasons() domain.SeasonRepo   { return seasonRepo{t} }
func (t *tx) Idempotency() domain.IdempotencyRepo {
	return idempotencyRepo{t}
}

// utc normalises a time for storage: UTC, microseconds (PostgreSQL's
// precision), so that both databases round-trip it unchanged.
func utc(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := utc(*t)
	return &u
}
