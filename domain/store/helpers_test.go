package store_test

import (
	"context"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

func migrationsUp(ctx context.Context, db *store.DB) ([]int, error) {
	return migrations.Up(ctx, db.SQL(), db.Dialect())
}
