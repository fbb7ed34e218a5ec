package store

import (
	"strings"

	"gorm.io/gorm"

	"github.com/burraco/burraco/internal/fold"
)

// The shapes every repository repeats: a page of a list, the one row of a
// read, and the row an update or delete must hit.

// listPage counts the rows that where matches and reads one page of them,
// in order, converted to domain values. where is called once per query,
// since a GORM statement is spent by running it.
func listPage[R, D any](where func() *gorm.DB, order string, limit, offset int, entity string, conv func(R) D) ([]D, int, error) {
	var total int64
	if err := where().Count(&total).Error; err != nil {
		return nil, 0, translate(err, entity)
	}
	var rows []R
	if err := where().Order(order).Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, translate(err, entity)
	}
	return mapRows(rows, conv), int(total), nil
}

// mapRows converts rows to domain values.
func mapRows[R, D any](rows []R, conv func(R) D) []D {
	out := make([]D, len(rows))
	for i, r := range rows {
		out[i] = conv(r)
	}
	return out
}

// takeOne reads the one row that q (with conds) matches, converted to a
// domain value. Errors: ENotFound when there is none.
func takeOne[R, D any](q *gorm.DB, entity string, conv func(R) D, conds ...any) (D, error) {
	var row R
	if err := q.Take(&row, conds...).Error; err != nil {
		var zero D
		return zero, translate(err, entity)
	}
	return conv(row), nil
}

// hitOne is the ending of an update that must change a row: its error
// translated, ENotFound when it matched none.
func hitOne(res *gorm.DB, entity string) error {
	if res.Error != nil {
		return translate(res.Error, entity)
	}
	if res.RowsAffected == 0 {
		return notFound(entity)
	}
	return nil
}

// deletedOne is hitOne for deletes, where a row that is still referenced is
// EConflict.
func deletedOne(res *gorm.DB, entity string) error {
	if res.Error != nil {
		return translateDelete(res.Error, entity)
	}
	return hitOne(res, entity)
}

// likeEscaper escapes the LIKE wildcards and the escape character itself.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// searchMatches is the condition and argument of a search: the folded
// search column of the table (alias.search) contains the folded query, its
// % and _ taken literally. The column and the query are folded alike
// (internal/fold), so the comparison is the same on SQLite and PostgreSQL:
// case- and accent-insensitive.
func searchMatches(column, query string) (string, string) {
	return column + ` LIKE ? ESCAPE '\'`, "%" + likeEscaper.Replace(fold.Fold(query)) + "%"
}
