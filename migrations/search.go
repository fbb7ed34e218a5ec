package migrations

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/burraco/burraco/internal/fold"
)

// goSteps are the parts of migrations that SQL cannot express portably,
// run after the version's up SQL, in its transaction. A step reads and
// writes the schema as it is at its version.
var goSteps = map[int]func(ctx context.Context, tx *sql.Tx, dialect string) error{
	4:  fillSearch,
	6:  fillLotsSeeds,
	18: fillClaimCodes,
}

// searched are the tables with a search column and the columns folded into
// it, as of version 4.
var searched = []struct{ table, columns string }{
	{"clubs", "name, city"},
	{"players", "name"},
	{"tournaments", "name"},
}

// fillSearch writes the folded search column of every existing row.
func fillSearch(ctx context.Context, tx *sql.Tx, dialect string) error {
	for _, s := range searched {
		values, err := foldedValues(ctx, tx, s.table, s.columns)
		if err != nil {
			return fmt.Errorf("fold %s: %w", s.table, err)
		}
		update := bind(dialect, "UPDATE "+s.table+" SET search = ? WHERE id = ?")
		for id, v := range values {
			if _, err := tx.ExecContext(ctx, update, v, id); err != nil {
				return fmt.Errorf("fold %s %d: %w", s.table, id, err)
			}
		}
	}
	return nil
}

// foldedValues reads the rows of table and returns each one's search value
// by id (fold.Search of its columns).
func foldedValues(ctx context.Context, tx *sql.Tx, table, columns string) (map[int64]string, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, "+columns+" FROM "+table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		texts := make([]string, len(cols)-1)
		dest := []any{&id}
		for i := range texts {
			dest = append(dest, &texts[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		out[id] = fold.Search(texts...)
	}
	return out, rows.Err()
}
