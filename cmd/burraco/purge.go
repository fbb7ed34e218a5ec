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

// staleSweepEvery is how often serve cancels the tables left open past
// their TTL: hourly, as the purge, or a quarter of a short TTL (at least a
// minute), so that none stays more than a quarter of its TTL too long.
func staleSweepEvery(ttl time.Duration) time.Duration {
	return max(min(purgeEvery, ttl/4), time.Minute)
}

// startClosingStaleTables runs the tables' CloseStale at once and then
// periodically (staleSweepEvery) in a goroutine, until ctx ends; the
// returned function stops it and waits until it has. A TTL of 0 or less
// closes nothing: no goroutine is started.
func startClosingStaleTables(ctx context.Context, tables domain.TableService, ttl time.Duration, log *slog.Logger) (stop func()) {
	if ttl <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		every := staleSweepEvery(ttl)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			n, err := tables.CloseStale(ctx, time.Now())
			// What a sweep did is logged even when serve stops meanwhile;
			// its failure only when it was not the stop that cut it.
			switch {
			case err == nil && n > 0:
				log.Info("cancelled tables left open past their TTL", "tables", n, "ttl", ttl)
			case err != nil && ctx.Err() == nil:
				log.Warn("closing the tables left open failed; retrying at the next tick", "err", err, "next_in", every)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
