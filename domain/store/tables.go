package store

import (
	"database/sql"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

type tableRow struct {
	ID                 int64 `gorm:"primaryKey"`
	CreatorID          int64
	ClubID             *int64
	Rules              string
	Options            string
	Players            int
	MatchDeals         int
	MatchTarget        int
	MatchRequireWinner bool
	Private            bool
	InviteCode         string
	AutoStart          bool
	TurnSeconds        int
	MatchSeconds       int
	GraceSeconds       int
	Status             string
	FreeSeats          int
	Version            int64
	DealNumber         int
	Winner             *int
	Draw               bool
	LostOnTime         *int
	Result             string
	AbandonedBy        *int
	TurnStartedAt      *time.Time
	ClockUsed          string
	CreatedAt          time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt          time.Time `gorm:"autoUpdateTime:false"`
	StartedAt          *time.Time
	FinishedAt         *time.Time
	TournamentID       *int64 // with the round and table number, set at creation only
	TournamentRound    int
	TournamentTable    int
}

func (tableRow) TableName() string { return "tables" }

func tableRowOf(t domain.Table) tableRow {
	used, _ := json.Marshal(t.ClockUsed) // []int64: cannot fail
	if t.ClockUsed == nil {
		used = []byte("[]")
	}
	// Pointers are copied: the row may be kept in the table cache.
	row := tableRow{ID: t.ID, CreatorID: t.CreatorID, ClubID: clonePtr(t.ClubID), Rules: string(t.Rules), Options: string(t.Options),
		Players: t.Players, MatchDeals: t.Match.Deals, MatchTarget: t.Match.Target, MatchRequireWinner: t.Match.RequireWinner,
		Private: t.Private, InviteCode: t.InviteCode, AutoStart: t.AutoStart, TurnSeconds: t.TurnSeconds,
		MatchSeconds: t.MatchSeconds, GraceSeconds: t.GraceSeconds, Status: string(t.Status), FreeSeats: t.FreeSeats,
		Version: t.Version, DealNumber: t.DealNumber, Winner: clonePtr(t.Winner), Draw: t.Draw, LostOnTime: clonePtr(t.LostOnTime),
		Result: string(t.Result), AbandonedBy: clonePtr(t.AbandonedBy), TurnStartedAt: utcPtr(t.TurnStartedAt), ClockUsed: string(used), CreatedAt: utc(t.CreatedAt),
		UpdatedAt: utc(t.UpdatedAt), StartedAt: utcPtr(t.StartedAt), FinishedAt: utcPtr(t.FinishedAt)}
	if tt := t.Tournament; tt != nil {
		row.TournamentID, row.TournamentRound, row.TournamentTable = &tt.ID, tt.Round, tt.Table
	}
	return row
}

// domain converts r; pointers are copied (r may be a cached row).
func (r tableRow) domain() domain.Table {
	t := domain.Table{ID: r.ID, CreatorID: r.CreatorID, ClubID: clonePtr(r.ClubID), Rules: domain.RuleSet(r.Rules),
		Options: json.RawMessage(r.Options), Players: r.Players,
		Match:   domain.MatchFormat{Deals: r.MatchDeals, Target: r.MatchTarget, RequireWinner: r.MatchRequireWinner},
		Private: r.Private, InviteCode: r.InviteCode, AutoStart: r.AutoStart, TurnSeconds: r.TurnSeconds,
		MatchSeconds: r.MatchSeconds, GraceSeconds: r.GraceSeconds, Status: domain.TableStatus(r.Status),
		FreeSeats: r.FreeSeats, Version: r.Version, DealNumber: r.DealNumber, Winner: clonePtr(r.Winner), Draw: r.Draw,
		LostOnTime: clonePtr(r.LostOnTime), Result: domain.TableResult(r.Result), AbandonedBy: clonePtr(r.AbandonedBy),
		TurnStartedAt: utcPtr(r.TurnStartedAt), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		StartedAt: utcPtr(r.StartedAt), FinishedAt: utcPtr(r.FinishedAt)}
	_ = json.Unmarshal([]byte(r.ClockUsed), &t.ClockUsed) // written by tableRowOf
	if r.TournamentID != nil {
		t.Tournament = &domain.TableTournament{ID: *r.TournamentID, Round: r.TournamentRound, Table: r.TournamentTable}
	}
	return t
}

type seatRow struct {
	TableID  int64 `gorm:"primaryKey"`
	Seat     int   `gorm:"primaryKey"`
	UserID   *int64
	Bot      bool
	JoinedAt *time.Time
}

func (seatRow) TableName() string { return "table_seats" }

type dealRow struct {
	TableID   int64 `gorm:"primaryKey"`
	Number    int   `gorm:"primaryKey"`
	Dealer    int
	Seed      string // a uint64 in decimal: PostgreSQL has no unsigned 64-bit integer
	Totals    string
	TieBreak  bool
	Position  string
	Moves     int
	Score     *string
	TimeoutAt *int
	StartedAt time.Time
	EndedAt   *time.Time
}

func (dealRow) TableName() string { return "table_deals" }

func dealRowOf(d domain.TableDeal) dealRow {
	totals, _ := json.Marshal(d.Totals) // []int: cannot fail
	row := dealRow{TableID: d.TableID, Number: d.Number, Dealer: d.Dealer, Seed: strconv.FormatUint(d.Seed, 10),
		Totals: string(totals), TieBreak: d.TieBreak, Position: string(d.Position), Moves: d.Moves,
		TimeoutAt: d.TimeOutAt, StartedAt: utc(d.StartedAt), EndedAt: utcPtr(d.EndedAt)}
	if d.Score != nil {
		s, _ := json.Marshal(d.Score) // plain ints: cannot fail
		str := string(s)
		row.Score = &str
	}
	return row
}

func (r dealRow) domain() (domain.TableDeal, error) {
	seed, err := strconv.ParseUint(r.Seed, 10, 64)
	if err != nil {
		return domain.TableDeal{}, err
	}
	d := domain.TableDeal{TableID: r.TableID, Number: r.Number, Dealer: r.Dealer, Seed: seed, TieBreak: r.TieBreak,
		Position: json.RawMessage(r.Position), Moves: r.Moves, TimeOutAt: r.TimeoutAt, StartedAt: r.StartedAt.UTC(), EndedAt: utcPtr(r.EndedAt)}
	if err := json.Unmarshal([]byte(r.Totals), &d.Totals); err != nil {
		return domain.TableDeal{}, err
	}
	if r.Score != nil {
		var s []engine.Score
		if err := json.Unmarshal([]byte(*r.Score), &s); err != nil {
			return domain.TableDeal{}, err
		}
		d.Score = s
	}
	return d, nil
}

type moveRow struct {
	TableID int64 `gorm:"primaryKey"`
	Deal    int   `gorm:"primaryKey"`
	Idx     int   `gorm:"primaryKey"`
	Seat    int
	Move    string
	Auto    bool
	At      time.Time
	Version int64
	Taken   string
}

func (moveRow) TableName() string { return "table_moves" }

func (r moveRow) domain() domain.TableMove {
	m := domain.TableMove{TableID: r.TableID, Deal: r.Deal, Index: r.Idx, Seat: r.Seat, Move: json.RawMessage(r.Move),
		Auto: r.Auto, At: r.At.UTC(), Version: r.Version}
	if r.Taken != "" {
		m.Taken = json.RawMessage(r.Taken)
	}
	return m
}

type tableRepo struct{ t *tx }

func (r tableRepo) CountOpenOfCreator(userID int64) (int, error) {
	if r.t.dialect == Postgres {
		var id int64
		err := r.t.db.Model(&userRow{}).Where("id = ?", userID).
			Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate}).Pluck("id", &id).Error
		if err != nil {
			return 0, translate(err, "user")
		}
	}
	var n int64
	err := r.t.db.Model(&tableRow{}).Where("creator_id = ? AND status <> ?", userID, string(domain.TableFinished)).Count(&n).Error
	return int(n), translate(err, "table")
}

func (r tableRepo) Create(t *domain.Table) error {
	row := tableRowOf(*t)
	row.ID = 0
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "table")
	}
	for _, s := range t.Seats {
		seat := seatRow{TableID: row.ID, Seat: s.Seat, UserID: s.UserID, Bot: s.Bot, JoinedAt: utcPtr(s.JoinedAt)}
		if err := r.t.db.Create(&seat).Error; err != nil {
			return translate(err, "table seat")
		}
	}
	got, err := r.Get(row.ID)
	if err != nil {
		return err
	}
	*t = got
	return nil
}

func (r tableRepo) Get(id int64) (domain.Table, error) { return r.byID(id, false) }

func (r tableRepo) ByInvite(code string) (domain.Table, error) {
	return r.get(r.t.db, "invite_code = ?", code)
}

func (r tableRepo) Lock(id int64) (domain.Table, error) { return r.byID(id, true) }

// byID reads a table and its seats in plain SQL (every move and every
// state read reads its table), locking the row on PostgreSQL when lock is
// set (SQLite's write transaction holds the whole database). One statement
// reads the table's version and its seats with their users' names; the
// rest of the row comes from the table cache when it holds that version,
// else from a second statement. Each column read costs calls into SQLite
// through cgo: the row's thirty columns, read with every move, cost more
// than the move's writes.
func (r tableRepo) byID(id int64, lock bool) (domain.Table, error) {
	t := r.t
	q := `SELECT t.version, s.seat, s.user_id, u.name, s.bot, ` + t.stampCol("s.joined_at") + `
		FROM tables AS t LEFT JOIN table_seats AS s ON s.table_id = t.id LEFT JOIN users AS u ON u.id = s.user_id
		WHERE t.id = $1 ORDER BY s.seat`
	if lock && t.dialect == Postgres {
		q += " FOR UPDATE OF t"
	}
	version, seats, err := r.seats(q, id)
	if err != nil {
		return domain.Table{}, err
	}
	row, ok := tableRow{}, false
	if t.tables != nil {
		row, ok = t.tables.get(id, version)
	}
	if !ok {
		if row, err = r.row(id); err != nil {
			return domain.Table{}, err
		}
		t.committed = append(t.committed, row)
	}
	if lock {
		t.remember(row)
	}
	tb := row.domain()
	tb.Seats = seats
	return tb, nil
}

// seats runs q, which reads a table's version and its seats (none: the
// table does not exist).
func (r tableRepo) seats(q string, id int64) (int64, []domain.Seat, error) {
	rows, err := r.t.query(q, id)
	if err != nil {
		return 0, nil, translate(err, "table")
	}
	defer rows.Close()
	var version int64
	var seats []domain.Seat
	found := false
	for rows.Next() {
		var seat *int
		var name *string
		var bot *bool
		var s domain.Seat
		if err := rows.Scan(&version, &seat, &s.UserID, &name, &bot, optStamp{&s.JoinedAt}); err != nil {
			return 0, nil, translate(err, "table seat")
		}
		found = true
		if seat == nil { // a table without seats
			continue
		}
		s.Seat, s.Bot, s.JoinedAt = *seat, bot != nil && *bot, utcPtr(s.JoinedAt)
		if name != nil {
			s.UserName = *name
		}
		seats = append(seats, s)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, translate(err, "table seat")
	}
	if !found {
		return 0, nil, translate(sql.ErrNoRows, "table")
	}
	return version, seats, nil
}

// row reads a table's row.
func (r tableRepo) row(id int64) (tableRow, error) {
	t := r.t
	q := `SELECT id, creator_id, club_id, rules, options, players, match_deals, match_target, match_require_winner,
		private, invite_code, auto_start, turn_seconds, match_seconds, grace_seconds, status, free_seats, version,
		deal_number, winner, draw, lost_on_time, result, abandoned_by, ` + t.stampCol("turn_started_at") + `, clock_used, ` +
		t.stampCol("created_at") + `, ` + t.stampCol("updated_at") + `, ` + t.stampCol("started_at") + `, ` +
		t.stampCol("finished_at") + `, tournament_id, tournament_round, tournament_table FROM tables WHERE id = $1`
	var row tableRow
	err := t.queryRow(false, q, []any{id}, &row.ID, &row.CreatorID, &row.ClubID, &row.Rules, &row.Options, &row.Players,
		&row.MatchDeals, &row.MatchTarget, &row.MatchRequireWinner, &row.Private, &row.InviteCode, &row.AutoStart,
		&row.TurnSeconds, &row.MatchSeconds, &row.GraceSeconds, &row.Status, &row.FreeSeats, &row.Version,
		&row.DealNumber, &row.Winner, &row.Draw, &row.LostOnTime, &row.Result, &row.AbandonedBy,
		optStamp{&row.TurnStartedAt}, &row.ClockUsed, timestamp{&row.CreatedAt}, timestamp{&row.UpdatedAt},
		optStamp{&row.StartedAt}, optStamp{&row.FinishedAt}, &row.TournamentID, &row.TournamentRound, &row.TournamentTable)
	return row, translate(err, "table")
}

func (r tableRepo) get(q *gorm.DB, where string, arg any) (domain.Table, error) {
	var row tableRow
	if err := q.Where(where, arg).Take(&row).Error; err != nil {
		return domain.Table{}, translate(err, "table")
	}
	ts, err := r.withSeats([]tableRow{row})
	if err != nil {
		return domain.Table{}, err
	}
	return ts[0], nil
}

// withSeats converts rows to tables with their seats, in one query.
func (r tableRepo) withSeats(rows []tableRow) ([]domain.Table, error) {
	ts := make([]domain.Table, len(rows))
	index := make(map[int64]int, len(rows))
	var args sqlArgs
	in := make([]string, len(rows))
	for i, row := range rows {
		ts[i], index[row.ID], in[i] = row.domain(), i, args.add(row.ID)
	}
	if len(rows) == 0 {
		return ts, nil
	}
	// Plain SQL (see plainsql.go): the lobby reads a page of tables and
	// their seats on every call.
	q := `SELECT s.table_id, s.seat, s.user_id, u.name, s.bot, ` + r.t.stampCol("s.joined_at") + `
		FROM table_seats AS s LEFT JOIN users AS u ON u.id = s.user_id
		WHERE s.table_id IN (` + strings.Join(in, ", ") + `) ORDER BY s.table_id, s.seat`
	seats, err := r.t.query(q, args...)
	if err != nil {
		return nil, translate(err, "table seat")
	}
	defer seats.Close()
	for seats.Next() {
		var id int64
		var name *string
		var s domain.Seat
		if err := seats.Scan(&id, &s.Seat, &s.UserID, &name, &s.Bot, optStamp{&s.JoinedAt}); err != nil {
			return nil, translate(err, "table seat")
		}
		s.JoinedAt = utcPtr(s.JoinedAt)
		if name != nil {
			s.UserName = *name
		}
		t := &ts[index[id]]
		t.Seats = append(t.Seats, s)
	}
	return ts, translate(seats.Err(), "table seat")
}

// Update writes the columns of t that differ from the row this
// transaction locked (or last wrote), and always the version; without a
// locked row, every column. A move changes the version, the update time and
// the turn's clock: on SQLite each index whose column is written, changed or
// not, is rewritten, and each page written is another page in the log at
// commit, so writing the status (indexed) on every move made the update
// cost as much as the rest of the move's writes.
func (r tableRepo) Update(t domain.Table) error {
	row := tableRowOf(t)
	var set []string
	var args sqlArgs
	prev, diff := r.t.locked[t.ID]
	for _, c := range tableColumns(row) {
		if c.name == "version" || !diff || !c.same(prev) {
			set = append(set, c.name+" = "+args.add(c.value))
		}
	}
	err := r.t.execOne("table", "UPDATE tables SET "+strings.Join(set, ", ")+" WHERE id = "+args.add(row.ID), args...)
	if err != nil {
		return err
	}
	r.t.remember(row)
	r.t.committed = append(r.t.committed, row)
	return r.announce(t.ID, t.Version)
}

// remember keeps row as the transaction's copy of its table's row.
func (t *tx) remember(row tableRow) {
	if t.locked == nil {
		t.locked = map[int64]tableRow{}
	}
	t.locked[row.ID] = row
}

// tableColumn is a column Update writes: its value in a row, and whether
// another row holds the same.
type tableColumn struct {
	name  string
	value any
	same  func(tableRow) bool
}

// tableColumns lists the columns Update writes, with row's values; the
// statements they make are few (a move's, a deal's end, a match's end…),
// and each is prepared once.
func tableColumns(row tableRow) []tableColumn {
	return []tableColumn{
		{"status", row.Status, func(o tableRow) bool { return o.Status == row.Status }},
		{"free_seats", row.FreeSeats, func(o tableRow) bool { return o.FreeSeats == row.FreeSeats }},
		{"version", row.Version, func(o tableRow) bool { return o.Version == row.Version }},
		{"deal_number", row.DealNumber, func(o tableRow) bool { return o.DealNumber == row.DealNumber }},
		{"winner", row.Winner, func(o tableRow) bool { return sameInt(o.Winner, row.Winner) }},
		{"draw", row.Draw, func(o tableRow) bool { return o.Draw == row.Draw }},
		{"lost_on_time", row.LostOnTime, func(o tableRow) bool { return sameInt(o.LostOnTime, row.LostOnTime) }},
		{"result", row.Result, func(o tableRow) bool { return o.Result == row.Result }},
		{"abandoned_by", row.AbandonedBy, func(o tableRow) bool { return sameInt(o.AbandonedBy, row.AbandonedBy) }},
		{"turn_started_at", row.TurnStartedAt, func(o tableRow) bool { return sameTime(o.TurnStartedAt, row.TurnStartedAt) }},
		{"clock_used", row.ClockUsed, func(o tableRow) bool { return o.ClockUsed == row.ClockUsed }},
		{"updated_at", row.UpdatedAt, func(o tableRow) bool { return o.UpdatedAt.Equal(row.UpdatedAt) }},
		{"started_at", row.StartedAt, func(o tableRow) bool { return sameTime(o.StartedAt, row.StartedAt) }},
		{"finished_at", row.FinishedAt, func(o tableRow) bool { return sameTime(o.FinishedAt, row.FinishedAt) }},
	}
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func sameInt(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func sameTime(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

func (r tableRepo) SetSeat(tableID int64, s domain.Seat) error {
	res := r.t.db.Model(&seatRow{}).Where("table_id = ? AND seat = ?", tableID, s.Seat).Updates(map[string]any{
		"user_id": s.UserID, "bot": s.Bot, "joined_at": utcPtr(s.JoinedAt),
	})
	return hitOne(res, "table seat")
}

// List reads a page of the lobby and the number of tables that match in
// one statement, in plain SQL (see plainsql.go), and their seats in a
// second: the columns a table's answer shows (not its clock's).
func (r tableRepo) List(f domain.TableFilter, userID int64) ([]domain.Table, int, error) {
	t := r.t
	q := pagedQuery{from: "tables", order: "id DESC", cols: `id, creator_id, club_id, rules, options, players, match_deals,
		match_target, match_require_winner, private, invite_code, auto_start, turn_seconds, match_seconds, grace_seconds,
		status, free_seats, version, deal_number, winner, draw, lost_on_time, result, abandoned_by, ` +
		t.stampCol("created_at") + `, ` + t.stampCol("updated_at") + `, ` + t.stampCol("started_at") + `, ` +
		t.stampCol("finished_at")}
	mine := func() string {
		return "(creator_id = " + q.args.add(userID) +
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
	if f.Status != "" {
		conds = append(conds, "status = "+q.args.add(string(f.Status)))
	}
	q.where = strings.Join(conds, " AND ")
	rows := make([]tableRow, 0, f.Limit)
	total, err := q.run(t, f.Limit, f.Offset, "table", func(rs *sql.Rows, total *int64) error {
		var row tableRow
		err := rs.Scan(&row.ID, &row.CreatorID, &row.ClubID, &row.Rules, &row.Options, &row.Players, &row.MatchDeals,
			&row.MatchTarget, &row.MatchRequireWinner, &row.Private, &row.InviteCode, &row.AutoStart, &row.TurnSeconds,
			&row.MatchSeconds, &row.GraceSeconds, &row.Status, &row.FreeSeats, &row.Version, &row.DealNumber, &row.Winner,
			&row.Draw, &row.LostOnTime, &row.Result, &row.AbandonedBy, timestamp{&row.CreatedAt}, timestamp{&row.UpdatedAt},
			optStamp{&row.StartedAt}, optStamp{&row.FinishedAt}, total)
		rows = append(rows, row)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	ts, err := r.withSeats(rows)
	return ts, total, err
}

func (r tableRepo) CreateDeal(d domain.TableDeal) error {
	row := dealRowOf(d)
	return translate(r.t.db.Create(&row).Error, "deal")
}

func (r tableRepo) Deal(tableID int64, number int) (domain.TableDeal, error) {
	var row dealRow
	if err := r.t.db.Where("table_id = ? AND number = ?", tableID, number).Take(&row).Error; err != nil {
		return domain.TableDeal{}, translate(err, "deal")
	}
	return row.domain()
}

func (r tableRepo) UpdateDeal(d domain.TableDeal) error {
	row := dealRowOf(d)
	return r.t.execOne("deal", `UPDATE table_deals SET position = $1, moves = $2, score = $3, timeout_at = $4, ended_at = $5
		WHERE table_id = $6 AND number = $7`, row.Position, row.Moves, row.Score, row.TimeoutAt, row.EndedAt, row.TableID, row.Number)
}

func (r tableRepo) Deals(tableID int64) ([]domain.TableDeal, error) {
	var rows []dealRow
	if err := r.t.db.Where("table_id = ?", tableID).Order("number").Find(&rows).Error; err != nil {
		return nil, translate(err, "deal")
	}
	ds := make([]domain.TableDeal, len(rows))
	for i, row := range rows {
		d, err := row.domain()
		if err != nil {
			return nil, err
		}
		ds[i] = d
	}
	return ds, nil
}

func (r tableRepo) AppendMove(m domain.TableMove) error {
	return r.t.execOne("move", `INSERT INTO table_moves (table_id, deal, idx, seat, "move", "auto", "at", version, taken)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, m.TableID, m.Deal, m.Index, m.Seat, string(m.Move), m.Auto, utc(m.At),
		m.Version, string(m.Taken))
}

func (r tableRepo) MovesSince(tableID int64, deal int, since int64) ([]domain.TableMove, error) {
	var rows []moveRow
	err := r.t.db.Where("table_id = ? AND deal = ? AND version > ?", tableID, deal, since).Order("idx").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "move")
	}
	return mapRows(rows, moveRow.domain), nil
}

func (r tableRepo) Moves(tableID int64, deal int) ([]domain.TableMove, error) {
	var rows []moveRow
	if err := r.t.db.Where("table_id = ? AND deal = ?", tableID, deal).Order("idx").Find(&rows).Error; err != nil {
		return nil, translate(err, "move")
	}
	return mapRows(rows, moveRow.domain), nil
}

// MovesFrom reads in plain SQL: every state read after a move and every
// move that finds no game in memory reads the moves past the stored
// position.
func (r tableRepo) MovesFrom(tableID int64, deal, from int) ([]domain.TableMove, error) {
	t := r.t
	rows, err := t.query(`SELECT idx, seat, "move", "auto", `+t.stampCol(`"at"`)+` FROM table_moves
		WHERE table_id = $1 AND deal = $2 AND idx >= $3 ORDER BY idx`, tableID, deal, from)
	if err != nil {
		return nil, translate(err, "move")
	}
	defer rows.Close()
	var out []domain.TableMove
	for rows.Next() {
		m := domain.TableMove{TableID: tableID, Deal: deal}
		var move string
		if err := rows.Scan(&m.Index, &m.Seat, &move, &m.Auto, timestamp{&m.At}); err != nil {
			return nil, translate(err, "move")
		}
		m.Move, m.At = json.RawMessage(move), m.At.UTC()
		out = append(out, m)
	}
	return out, translate(rows.Err(), "move")
}

func (r tableRepo) LastMove(tableID int64, deal int) (domain.TableMove, error) {
	return takeOne(r.t.db.Where("table_id = ? AND deal = ?", tableID, deal).Order("idx DESC"), "move", moveRow.domain)
}

type idempotencyRow struct {
	UserID      int64  `gorm:"primaryKey"`
	IdemKey     string `gorm:"primaryKey"`
	TableID     int64
	RequestHash string
	Status      int
	Body        string
	CreatedAt   time.Time `gorm:"autoCreateTime:false"`
}

func (idempotencyRow) TableName() string { return "table_idempotency" }

func (r tableRepo) Idempotent(userID int64, key string, since time.Time) (domain.IdempotentMove, error) {
	var row idempotencyRow
	err := r.t.db.Where("user_id = ? AND idem_key = ? AND created_at >= ?", userID, key, utc(since)).Take(&row).Error
	if err != nil {
		return domain.IdempotentMove{}, translate(err, "idempotency key")
	}
	return domain.IdempotentMove{UserID: row.UserID, Key: row.IdemKey, TableID: row.TableID, RequestHash: row.RequestHash,
		Result: json.RawMessage(row.Body), CreatedAt: row.CreatedAt.UTC()}, nil
}

func (r tableRepo) SaveIdempotent(m domain.IdempotentMove) error {
	if err := r.t.db.Where("user_id = ? AND idem_key = ?", m.UserID, m.Key).Delete(&idempotencyRow{}).Error; err != nil {
		return translate(err, "idempotency key")
	}
	row := idempotencyRow{UserID: m.UserID, IdemKey: m.Key, TableID: m.TableID, RequestHash: m.RequestHash,
		Status: 200, Body: string(m.Result), CreatedAt: utc(m.CreatedAt)}
	return translate(r.t.db.Create(&row).Error, "idempotency key")
}

func (r tableRepo) DeleteIdempotentBefore(t time.Time) (int64, error) {
	res := r.t.db.Where("created_at < ?", utc(t)).Delete(&idempotencyRow{})
	return res.RowsAffected, translate(res.Error, "idempotency key")
}

func (r tableRepo) Clocked() ([]domain.Table, error) {
	var rows []tableRow
	err := r.t.db.Where("status = ? AND (turn_seconds > 0 OR match_seconds > 0 OR grace_seconds > 0)", string(domain.TablePlaying)).
		Order("id").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "table")
	}
	return r.withSeats(rows)
}
