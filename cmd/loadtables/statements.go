package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// dbFigures is what the servers sent PostgreSQL (their
// burraco_db_statements_total, burraco_db_prepares_total,
// burraco_db_connects_total and burraco_db_pings_total), summed: what a
// move costs PostgreSQL beyond its own transaction shows as statements per
// move of other kinds, statements prepared again (parse and plan), or
// connections opened (new backends) while playing; and the owners' moves
// written in batches (burraco_db_move_batch_moves: a batch is one commit).
type dbFigures struct {
	statements                map[string]int64 // by "op table" (table empty: "op")
	prepares, connects, pings int64
	batches, batchedMoves     int64
}

func (a dbFigures) minus(b dbFigures) dbFigures {
	d := dbFigures{prepares: a.prepares - b.prepares, connects: a.connects - b.connects, pings: a.pings - b.pings,
		batches: a.batches - b.batches, batchedMoves: a.batchedMoves - b.batchedMoves}
	for k, n := range a.statements {
		if n -= b.statements[k]; n != 0 {
			if d.statements == nil {
				d.statements = map[string]int64{}
			}
			d.statements[k] = n
		}
	}
	return d
}

func (a *dbFigures) add(b dbFigures) {
	a.prepares += b.prepares
	a.connects += b.connects
	a.pings += b.pings
	a.batches += b.batches
	a.batchedMoves += b.batchedMoves
	for k, n := range b.statements {
		if a.statements == nil {
			a.statements = map[string]int64{}
		}
		a.statements[k] += n
	}
}

// dbSample adds a sample of the burraco_db_* counters to f; it reports
// whether name was one of them.
func dbSample(f *dbFigures, name, value string) (bool, error) {
	var n *int64
	switch {
	case strings.HasPrefix(name, "burraco_db_statements_total{"):
		if f.statements == nil {
			f.statements = map[string]int64{}
		}
		key := strings.TrimSpace(label(name, "op") + " " + label(name, "table"))
		v, err := strconv.ParseFloat(value, 64)
		f.statements[key] += int64(v)
		return true, err
	case name == "burraco_db_prepares_total":
		n = &f.prepares
	case name == "burraco_db_connects_total":
		n = &f.connects
	case name == "burraco_db_pings_total":
		n = &f.pings
	case name == "burraco_db_move_batch_moves_count":
		n = &f.batches
	case name == "burraco_db_move_batch_moves_sum":
		n = &f.batchedMoves
	default:
		return false, nil
	}
	v, err := strconv.ParseFloat(value, 64)
	*n = int64(v)
	return true, err
}

// printStatements says what the servers sent PostgreSQL per move during
// play: all statements, then each kind of at least 0.01 a move, most first;
// the statements prepared, the connections opened and the pings.
func (r *result) printStatements(w io.Writer) {
	d := r.server.db
	if d.statements == nil || r.server.moves <= 0 {
		return // SQLite, or a server before the counters
	}
	moves := float64(r.server.moves)
	var total int64
	for _, n := range d.statements {
		total += n
	}
	keys := slices.SortedFunc(maps.Keys(d.statements), func(a, b string) int {
		if c := d.statements[b] - d.statements[a]; c != 0 {
			return int(min(max(c, -1), 1))
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range keys {
		if per := float64(d.statements[k]) / moves; per >= 0.01 {
			parts = append(parts, fmt.Sprintf("%s %.2f", k, per))
		}
	}
	fmt.Fprintf(w, "  statements sent to PostgreSQL a move %.2f (burraco_db_statements_total): %s\n", float64(total)/moves, strings.Join(parts, ", "))
	fmt.Fprintf(w, "  a move's statements prepared %.3f, connections opened %.3f, pings %.3f (burraco_db_prepares_total, _connects_total, _pings_total)\n",
		float64(d.prepares)/moves, float64(d.connects)/moves, float64(d.pings)/moves)
	if d.batches > 0 {
		fmt.Fprintf(w, "  the owners' moves written in batches of %.2f on average, one commit each (burraco_db_move_batch_moves: %d moves in %d batches)\n",
			float64(d.batchedMoves)/float64(d.batches), d.batchedMoves, d.batches)
	}
}
