package store

import (
	"database/sql"
	"slices"
	"strings"

	"github.com/burraco/burraco/domain"
)

// List reads a page of the lobby. The page's statement reads only each
// table's id and version (and the number that match); the rest of each
// row, and its seats, come from the table cache when it holds that
// version, else from one statement each for the rows and the seats it
// lacks. The seats' users' names, which change without the table's
// version, are read every time, one row per user. Every column read costs
// calls into SQLite through cgo: the page's thirty columns and its seats'
// six, read in full, made the lobby the costliest request of a club
// evening (docs/performance.md).
func (r tableRepo) List(f domain.TableFilter, userID int64) ([]domain.Table, int, error) {
	q := pagedQuery{from: "tables", order: "id DESC", cols: "id, version"}
	mine := func() string { // a tournament's table is not its creator's (the round's starter)
		return "(creator_id = " + q.args.add(userID) + " AND tournament_id IS NULL" +
			" OR EXISTS (SELECT 1 FROM table_seats AS s WHERE s.table_id = tables.id AND s.user_id = " + q.args.add(userID) + "))"
	}
	var conds []string
	if f.Mine {
		conds = append(conds, mine())
	} else {
		public := "private = " + q.args.add(false)
		conds = append(conds, "("+public+" OR "+mine()+")")
	}
	if f.OpenSeats {
		conds = append(conds, "status = "+q.args.add(string(domain.TableOpen))+" AND free_seats > 0")
	}
	if f.Rules != "" {
		conds = append(conds, "rules = "+q.args.add(string(f.Rules)))
	}
	if f.ClubID != nil {
		conds = append(conds, "club_id = "+q.args.add(*f.ClubID))
	}
	// A cancelled table is stored finished with why in cancelled
	// (tableRow.Cancelled), and leaves the lobby: it is listed only to
	// whoever asks for the cancelled ones.
	switch f.Status {
	case "":
		conds = append(conds, "cancelled = "+q.args.add(""))
	case domain.TableCancelled:
		conds = append(conds, "status = "+q.args.add(string(domain.TableFinished))+" AND cancelled <> "+q.args.add(""))
	default:
		conds = append(conds, "status = "+q.args.add(string(f.Status))+" AND cancelled = "+q.args.add(""))
	}
	q.where = strings.Join(conds, " AND ")
	page := make([]tableRow, 0, f.Limit)
	total, err := q.run(r.t, f.Limit, f.Offset, "table", func(rs *sql.Rows, total *int64) error {
		var row tableRow
		err := rs.Scan(&row.ID, &row.Version, total)
		page = append(page, row)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	if err := r.cachedRows(page); err != nil {
		return nil, 0, err
	}
	ts := make([]domain.Table, len(page))
	for i, row := range page {
		ts[i] = row.domain()
	}
	return ts, total, r.lobbySeats(ts)
}

// cachedRows fills each of rows, of which only the id and version are
// set, with the row of that version: from the table cache, or read in one
// statement (in the same transaction, so at the same version) and cached
// once the transaction has committed.
func (r tableRepo) cachedRows(rows []tableRow) error {
	var args sqlArgs
	var in []string
	missing := map[int64]int{}
	for i, row := range rows {
		if r.t.tables != nil {
			if cached, ok := r.t.tables.get(row.ID, row.Version); ok {
				rows[i] = cached
				continue
			}
		}
		missing[row.ID] = i
		in = append(in, args.add(row.ID))
	}
	if len(in) == 0 {
		return nil
	}
	rs, err := r.t.query("SELECT "+tableRowColumns(r.t, "")+" FROM tables WHERE id IN ("+strings.Join(in, ", ")+")", args...)
	if err != nil {
		return translate(err, "table")
	}
	defer rs.Close()
	for rs.Next() {
		var row tableRow
		if err := rs.Scan(row.scanTargets()...); err != nil {
			return translate(err, "table")
		}
		if i, ok := missing[row.ID]; ok {
			rows[i] = row
			r.t.committed = append(r.t.committed, row)
		}
	}
	return translate(rs.Err(), "table")
}

// lobbySeats sets the seats of ts: each table's from the seat cache when
// it holds the table's version (a table's seats, and their users' names,
// change only with its version), the others' read in one statement with
// their users' names in another, and cached once the transaction has
// committed.
func (r tableRepo) lobbySeats(ts []domain.Table) error {
	var args sqlArgs
	var in []string
	missing := map[int64]int{}
	for i := range ts {
		if r.t.tables != nil {
			if seats, ok := r.t.tables.seatsAt(ts[i].ID, ts[i].Version); ok {
				ts[i].Seats = seats
				continue
			}
		}
		missing[ts[i].ID] = i
		in = append(in, args.add(ts[i].ID))
	}
	if len(in) == 0 {
		return nil
	}
	return r.readSeats(ts, missing, in, args)
}

// readSeats reads the seats of the tables missing names (id → index in
// ts; in and args their placeholders and values), without their users'
// names.
func (r tableRepo) readSeats(ts []domain.Table, missing map[int64]int, in []string, args sqlArgs) error {
	rs, err := r.t.query(`SELECT table_id, seat, user_id, bot, `+r.t.timeCol("joined_at")+`, stand_in, stand_in_reason,
		player_back FROM table_seats WHERE table_id IN (`+strings.Join(in, ", ")+`) ORDER BY table_id, seat`, args...)
	if err != nil {
		return translate(err, "table seat")
	}
	defer rs.Close()
	for rs.Next() {
		var id int64
		var s domain.Seat
		var standIn string
		if err := rs.Scan(&id, &s.Seat, &s.UserID, &s.Bot, optTime{&s.JoinedAt}, &standIn, &s.StandInReason, &s.Returning); err != nil {
			return translate(err, "table seat")
		}
		s.JoinedAt, s.StandIn = utcPtr(s.JoinedAt), domain.StandIn(standIn)
		t := &ts[missing[id]]
		t.Seats = append(t.Seats, s)
	}
	if err := rs.Err(); err != nil {
		return translate(err, "table seat")
	}
	if err := r.seatNames(ts, missing); err != nil {
		return err
	}
	for _, i := range missing {
		r.t.committedSeats = append(r.t.committedSeats, tableSeats{id: ts[i].ID, version: ts[i].Version, seats: ts[i].Seats})
		ts[i].Seats = slices.Clone(ts[i].Seats) // the cached slice is never handed out
	}
	return nil
}

// seatNames sets the names of the users seated at the tables of ts at the
// indexes of which (the values of a map by table id).
func (r tableRepo) seatNames(ts []domain.Table, which map[int64]int) error {
	var args sqlArgs
	var in []string
	seen := map[int64]bool{}
	for _, i := range which {
		for _, s := range ts[i].Seats {
			if s.UserID != nil && !seen[*s.UserID] {
				seen[*s.UserID] = true
				in = append(in, args.add(*s.UserID))
			}
		}
	}
	if len(in) == 0 {
		return nil
	}
	rs, err := r.t.query("SELECT id, name FROM users WHERE id IN ("+strings.Join(in, ", ")+")", args...)
	if err != nil {
		return translate(err, "user")
	}
	defer rs.Close()
	names := make(map[int64]string, len(in))
	for rs.Next() {
		var id int64
		var name string
		if err := rs.Scan(&id, &name); err != nil {
			return translate(err, "user")
		}
		names[id] = name
	}
	if err := rs.Err(); err != nil {
		return translate(err, "user")
	}
	for _, i := range which {
		for j, s := range ts[i].Seats {
			if s.UserID != nil {
				ts[i].Seats[j].UserName = names[*s.UserID]
			}
		}
	}
	return nil
}
