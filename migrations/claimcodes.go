package migrations

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
)

// claimAlphabet is domain.ClaimAlphabet, repeated here because migrations
// import nothing of ours: 31 letters and digits that are not mistaken for
// one another when read off a printed card (no 0/O, 1/I/L).
const claimAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// fillClaimCodes gives every profile without an account, as of version 18,
// a claim code of 8 characters, so that the players a director created
// before it can claim theirs too.
func fillClaimCodes(ctx context.Context, tx *sql.Tx, dialect string) error {
	rows, err := tx.QueryContext(ctx, "SELECT id FROM players WHERE user_id IS NULL ORDER BY id")
	if err != nil {
		return fmt.Errorf("claim codes: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("claim codes: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("claim codes: %w", err)
	}
	update := bind(dialect, "UPDATE players SET claim_code = ? WHERE id = ?")
	for _, id := range ids {
		code, err := claimCode()
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, update, code, id); err != nil {
			return fmt.Errorf("claim code of player %d: %w", id, err)
		}
	}
	return nil
}

// claimCode is 8 characters of claimAlphabet, each drawn uniformly
// (bytes past the last whole multiple of 31 are drawn again).
func claimCode() (string, error) {
	out := make([]byte, 0, 8)
	var b [16]byte
	for len(out) < 8 {
		if _, err := rand.Read(b[:]); err != nil {
			return "", fmt.Errorf("claim code: %w", err)
		}
		for _, c := range b {
			if int(c) < 248 && len(out) < 8 { // 248 = 8 * 31
				out = append(out, claimAlphabet[int(c)%len(claimAlphabet)])
			}
		}
	}
	return string(out), nil
}
