package domain

import (
	"context"
	"time"
)

// PurgeBatch is the most rows one purge transaction deletes: small enough
// that no transaction holds its locks long (SQLite has one writer at a
// time), so requests are not kept waiting.
const PurgeBatch = 500

// Purged counts what PurgeExpired deleted.
type Purged struct {
	RefreshTokens int64
	// IdempotencyKeys are the stored first answers to requests sent with
	// an Idempotency-Key (table moves, tournament commands) that expired.
	IdempotencyKeys int64
	// ClaimFailures are the failed claims of player profiles older than
	// ClaimFailureWindow, which no longer count (issue 28).
	ClaimFailures int64
}

// PurgeExpired deletes what has expired before now and is of no more use:
// refresh tokens past their expiry. An expired token is refused whether it
// is stored or not; once deleted, a replay of one that had been rotated is
// answered as an unknown token rather than as reuse (and no longer revokes
// its family), which costs nothing: whoever holds an expired token cannot
// use it. It deletes in batches of PurgeBatch, each its own transaction,
// until none is left or ctx ends.
//
// The answers stored for requests sent with an Idempotency-Key are kept
// IdempotencyTTL (a retry after that is a new request) and purged the same
// way.
func PurgeExpired(ctx context.Context, st Storage, now time.Time) (Purged, error) {
	var p Purged
	n, err := purgeInBatches(ctx, st, func(tx Tx) (int64, error) {
		return tx.RefreshTokens().DeleteExpired(now, PurgeBatch)
	})
	p.RefreshTokens = n
	if err != nil {
		return p, err
	}
	n, err = purgeInBatches(ctx, st, func(tx Tx) (int64, error) {
		return tx.Idempotency().DeleteExpired(now, PurgeBatch)
	})
	p.IdempotencyKeys = n
	if err != nil {
		return p, err
	}
	n, err = purgeInBatches(ctx, st, func(tx Tx) (int64, error) {
		return tx.Joins().DeleteClaimFailures(now.Add(-ClaimFailureWindow), PurgeBatch)
	})
	p.ClaimFailures = n
	return p, err
}

// purgeInBatches runs deleteBatch, each time in a new transaction, until a
// batch deletes fewer than PurgeBatch rows, and returns the total.
func purgeInBatches(ctx context.Context, st Storage, deleteBatch func(Tx) (int64, error)) (int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		var n int64
		err := st.InTx(ctx, func(tx Tx) error {
			var err error
			n, err = deleteBatch(tx)
			return err
		})
		total += n
		if err != nil || n < PurgeBatch {
			return total, err
		}
	}
}
