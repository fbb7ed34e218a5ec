package store

import (
	"context"
	"time"

	"github.com/burraco/burraco/domain"
)

// StoreAnswerWith runs upsertAnswer as a data-modifying WITH of a larger
// statement on PostgreSQL, its row taken from a result f that has one row
// when cond holds (as a move's fence would), and returns how many rows
// the statement stored.
func StoreAnswerWith(ctx context.Context, db *DB, cond bool, a domain.IdempotentAnswer, now time.Time) (int, error) {
	args := sqlArgs{cond}
	q := "WITH f AS (SELECT 1 AS id WHERE $1::boolean), kept AS (" + upsertAnswer(&args, a, now, "f") +
		" RETURNING 1) SELECT count(*) FROM kept"
	var n int
	err := db.gorm.WithContext(ctx).Raw(q, args...).Row().Scan(&n)
	return n, err
}
