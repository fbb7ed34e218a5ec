package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/burraco/burraco/domain"
)

// purgeEvery is how often serve deletes expired rows (refresh tokens, and
// the idempotency keys): rarely enough to cost nothing, often
// enough that they do not pile up.
const purgeEvery = time.Hour

// purgeLoop runs purge at once and then every interval, until ctx ends.
// A failed purge is logged and tried again at the next tick.
func purgeLoop(ctx context.Context, every time.Duration, purge func(context.Context) (domain.Purged, error), log *slog.Logger) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		p, err := purge(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			log.Warn("purge of expired rows failed; retrying at the next tick", "err", err, "next_in", every)
		case p.RefreshTokens > 0 || p.IdempotencyKeys > 0 || p.ClaimFailures > 0:
			log.Info("purged expired rows", "refresh_tokens", p.RefreshTokens, "idempotency_keys", p.IdempotencyKeys,
				"claim_failures", p.ClaimFailures)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// startPurging runs purgeLoop over the database in a goroutine; the
// returned function stops it and waits until it has.
func startPurging(ctx context.Context, st domain.Storage, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		purgeLoop(ctx, purgeEvery, func(ctx context.Context) (domain.Purged, error) {
			return domain.PurgeExpired(ctx, st, time.Now())
		}, log)
	}()
	return func() {
		cancel()
		<-done
	}
}
