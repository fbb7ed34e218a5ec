package migrations

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"fmt"
	"strconv"
)

// fillLotsSeeds gives every tournament that exists before version 6 the
// seed of its draw of lots, as the domain gives a new one at creation: a
// secret uint64 from crypto/rand (SQL has no portable source of it). A
// tournament's lots decide its last ties, so a predictable seed (0 for all)
// would not do.
func fillLotsSeeds(ctx context.Context, tx *sql.Tx, dialect string) error {
	ids, err := tournamentIDs(ctx, tx)
	if err != nil {
		return fmt.Errorf("lots seeds: %w", err)
	}
	update := bind(dialect, "UPDATE tournaments SET lots_seed = ? WHERE id = ?")
	for _, id := range ids {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("lots seed: %w", err)
		}
		seed := strconv.FormatUint(binary.LittleEndian.Uint64(b[:]), 10)
		if _, err := tx.ExecContext(ctx, update, seed, id); err != nil {
			return fmt.Errorf("lots seed of tournament %d: %w", id, err)
		}
	}
	return nil
}

func tournamentIDs(ctx context.Context, tx *sql.Tx) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id FROM tournaments ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
