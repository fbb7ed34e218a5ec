package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
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
	AbsentPolicy       string
	ReconnectSeconds   int
	BankSeconds        int
	BankLeft           string // []int64 JSON
	ClaimPolicy        string
	// Outcome is a claimed or aborted match's result, stored with result
	// '' (the column's CHECK predates them: migration 0020).
	Outcome        string
	Deadline       *time.Time
	DeadlinePassed bool
	Status         string
	FreeSeats      int
	Version        int64
	DealNumber     int
	Winner         *int
	Draw           bool
	LostOnTime     *int
	Result         string
	AbandonedBy    *int
	TurnStartedAt  *time.Time
	ClockUsed      string
	CreatedAt      time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt      time.Time `gorm:"autoUpdateTime:false"`
	StartedAt      *time.Time
	FinishedAt     *time.Time
	// Cancelled is why a cancelled table was: such a table is stored with
	// status finished (the columns' CHECK, which SQLite cannot widen
	// without rebuilding the tables three others reference, knows no
	// cancelled) and read back as cancelled (migration 0015).
	Cancelled string
	// clock is ClockUsed decoded, set on the rows the table cache holds:
	// the lobby converts twenty of them on every read.
	clock           []int64
	TournamentID    *int64 // with the round and table number, set at creation only
	TournamentRound int
	TournamentTable int
	// Rated, RematchWishes ([]int JSON) and RematchID: issue 29's rematch
	// and ratings (migration 0021).
	Rated         bool
	RematchWishes string
	RematchID     *int64
}

func (tableRow) TableName() string { return "tables" }

func tableRowOf(t domain.Table) tableRow {
	used, _ := json.Marshal(t.ClockUsed) // []int64: cannot fail
	if t.ClockUsed == nil {
		used = []byte("[]")
	}
	policy := t.AbsentPolicy
	if policy == "" { // a table made before the policy existed, or without one
		policy = domain.AbsentForfeit
	}
	// Pointers are copied: the row may be kept in the table cache.
	row := tableRow{ID: t.ID, CreatorID: t.CreatorID, ClubID: clonePtr(t.ClubID), Rules: string(t.Rules), Options: string(t.Options),
		Players: t.Players, MatchDeals: t.Match.Deals, MatchTarget: t.Match.Target, MatchRequireWinner: t.Match.RequireWinner,
		Private: t.Private, InviteCode: t.InviteCode, AutoStart: t.AutoStart, TurnSeconds: t.TurnSeconds,
		MatchSeconds: t.MatchSeconds, GraceSeconds: t.GraceSeconds, AbsentPolicy: string(policy),
		Deadline: utcPtr(t.Deadline), DeadlinePassed: t.DeadlinePassed, Status: string(t.Status), FreeSeats: t.FreeSeats,
		Version: t.Version, DealNumber: t.DealNumber, Winner: clonePtr(t.Winner), Draw: t.Draw, LostOnTime: clonePtr(t.LostOnTime),
		Result: string(t.Result), AbandonedBy: clonePtr(t.AbandonedBy), TurnStartedAt: utcPtr(t.TurnStartedAt), ClockUsed: string(used), CreatedAt: utc(t.CreatedAt),
		UpdatedAt: utc(t.UpdatedAt), StartedAt: utcPtr(t.StartedAt), FinishedAt: utcPtr(t.FinishedAt)}
	if tt := t.Tournament; tt != nil {
		row.TournamentID, row.TournamentRound, row.TournamentTable = &tt.ID, tt.Round, tt.Table
	}
	if t.Status == domain.TableCancelled {
		row.Status, row.Cancelled = string(domain.TableFinished), string(t.Cancelled)
	}
	row.ReconnectSeconds, row.ClaimPolicy = t.ReconnectSeconds, string(t.ClaimPolicy)
	bank, _ := json.Marshal(t.BankLeft) // []int64: cannot fail
	if t.BankLeft == nil {
		bank = []byte("[]")
	}
	row.BankSeconds, row.BankLeft = t.BankSeconds, string(bank)
	if row.ClaimPolicy == "" {
		row.ClaimPolicy = string(domain.ClaimWin)
	}
	if t.Result == domain.ResultClaimed || t.Result == domain.ResultAborted {
		row.Result, row.Outcome = "", string(t.Result)
	}
	row.Rated, row.RematchWishes, row.RematchID = t.Rated, seatList(t.RematchWishes), clonePtr(t.RematchID)
	return row
}

// seatList is a list of seats as JSON ("[]" when empty).
func seatList(seats []int) string {
	if len(seats) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(seats) // []int: cannot fail
	return string(b)
}

// domain converts r; pointers are copied (r may be a cached row).
func (r tableRow) domain() domain.Table {
	t := domain.Table{ID: r.ID, CreatorID: r.CreatorID, ClubID: clonePtr(r.ClubID), Rules: domain.RuleSet(r.Rules),
		Options: json.RawMessage(r.Options), Players: r.Players,
		Match:   domain.MatchFormat{Deals: r.MatchDeals, Target: r.MatchTarget, RequireWinner: r.MatchRequireWinner},
		Private: r.Private, InviteCode: r.InviteCode, AutoStart: r.AutoStart, TurnSeconds: r.TurnSeconds,
		MatchSeconds: r.MatchSeconds, GraceSeconds: r.GraceSeconds, AbsentPolicy: domain.AbsentPolicy(r.AbsentPolicy),
		Deadline: utcPtr(r.Deadline), DeadlinePassed: r.DeadlinePassed, Status: domain.TableStatus(r.Status),
		FreeSeats: r.FreeSeats, Version: r.Version, DealNumber: r.DealNumber, Winner: clonePtr(r.Winner), Draw: r.Draw,
		LostOnTime: clonePtr(r.LostOnTime), Result: domain.TableResult(r.Result), AbandonedBy: clonePtr(r.AbandonedBy),
		TurnStartedAt: utcPtr(r.TurnStartedAt), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		StartedAt: utcPtr(r.StartedAt), FinishedAt: utcPtr(r.FinishedAt)}
	if r.clock != nil {
		t.ClockUsed = slices.Clone(r.clock)
	} else {
		_ = json.Unmarshal([]byte(r.ClockUsed), &t.ClockUsed) // written by tableRowOf
	}
	if r.TournamentID != nil {
		t.Tournament = &domain.TableTournament{ID: *r.TournamentID, Round: r.TournamentRound, Table: r.TournamentTable}
	}
	if r.Cancelled != "" {
		t.Status, t.Cancelled = domain.TableCancelled, domain.CancelCause(r.Cancelled)
	}
	t.ReconnectSeconds, t.ClaimPolicy = r.ReconnectSeconds, domain.ClaimPolicy(r.ClaimPolicy)
	t.BankSeconds = r.BankSeconds
	if r.BankSeconds > 0 {
		_ = json.Unmarshal([]byte(r.BankLeft), &t.BankLeft) // written by tableRowOf
	}
	if r.Outcome != "" {
		t.Result = domain.TableResult(r.Outcome)
	}
	t.Rated, t.RematchID = r.Rated, clonePtr(r.RematchID)
	if r.RematchWishes != "" && r.RematchWishes != "[]" {
		_ = json.Unmarshal([]byte(r.RematchWishes), &t.RematchWishes) // written by tableRowOf
	}
	return t
}

type seatRow struct {
	TableID       int64 `gorm:"primaryKey"`
	Seat          int   `gorm:"primaryKey"`
	UserID        *int64
	Bot           bool
	JoinedAt      *time.Time
	StandIn       string
	StandInReason string
	Returning     bool `gorm:"column:player_back"`
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
	TableID  int64 `gorm:"primaryKey"`
	Deal     int   `gorm:"primaryKey"`
	Idx      int   `gorm:"primaryKey"`
	Seat     int
	Move     string
	Auto     bool
	PlayedBy string
	At       time.Time
	Version  int64
	Taken    string
}

func (moveRow) TableName() string { return "table_moves" }

func (r moveRow) domain() domain.TableMove {
	m := domain.TableMove{TableID: r.TableID, Deal: r.Deal, Index: r.Idx, Seat: r.Seat, Move: json.RawMessage(r.Move),
		Auto: r.Auto, By: domain.MovedBy(r.PlayedBy), At: r.At.UTC(), Version: r.Version}
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
	// A cancelled table is stored finished (tableRow.Cancelled); a
	// tournament's is the tournament's, not the round's starter's.
	err := r.t.db.Model(&tableRow{}).Where("creator_id = ? AND status <> ? AND tournament_id IS NULL", userID,
		string(domain.TableFinished)).Count(&n).Error
	return int(n), translate(err, "table")
}

func (r tableRepo) StaleOpen(before time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := r.t.db.Model(&tableRow{}).Where("status = ? AND tournament_id IS NULL AND created_at <= ?",
		string(domain.TableOpen), utc(before)).Order("created_at, id").Limit(limit).Pluck("id", &ids).Error
	return ids, translate(err, "table")
}

func (r tableRepo) Create(t *domain.Table) error {
	row := tableRowOf(*t)
	row.ID = 0
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "table")
	}
	for _, s := range t.Seats {
		seat := seatRow{TableID: row.ID, Seat: s.Seat, UserID: s.UserID, Bot: s.Bot, JoinedAt: utcPtr(s.JoinedAt),
			StandIn: string(s.StandIn), StandInReason: s.StandInReason, Returning: s.Returning}
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

// lockCached locks a table's row (PostgreSQL) reading only its version,
// and returns the table from the cache when it holds that version (its row
// and seats): a move's read is then one statement of one column. ok is
// false when the cache does not hold it (the row is locked all the same).
func (r tableRepo) lockCached(id int64) (domain.Table, bool, error) {
	t := r.t
	if t.tables == nil {
		return domain.Table{}, false, nil
	}
	version, ok := t.takeFencedVersion(id) // read and locked by the fence (leases.go)
	if !ok {
		q := "SELECT version FROM tables WHERE id = $1"
		if t.dialect == Postgres {
			q += " FOR UPDATE"
		}
		if err := t.queryRow(false, q, []any{id}, &version); errors.Is(err, sql.ErrNoRows) {
			return domain.Table{}, false, notFound("table")
		} else if err != nil {
			return domain.Table{}, false, translate(err, "table")
		}
	}
	if t.changedSeats[id] {
		return domain.Table{}, false, nil
	}
	row, seats, ok := r.cached(id, version)
	if !ok {
		return domain.Table{}, false, nil
	}
	t.remember(row)
	t.lockSeats(id, seats)
	tb := row.domain()
	tb.Seats = seats
	return tb, true, nil
}

// Cached implements domain.TableRepo.
func (r tableRepo) Cached(id, version int64) (domain.Table, bool) {
	row, seats, ok := r.cached(id, version)
	if !ok {
		return domain.Table{}, false
	}
	t := row.domain()
	t.Seats = seats
	return t, true
}

// cached is the row and a copy of the seats of table id at version, when
// the table cache holds both.
func (r tableRepo) cached(id, version int64) (tableRow, []domain.Seat, bool) {
	if r.t.tables == nil {
		return tableRow{}, nil, false
	}
	row, ok := r.t.tables.get(id, version)
	if !ok {
		return tableRow{}, nil, false
	}
	seats, ok := r.t.tables.seatsAt(id, version)
	return row, seats, ok
}

// byID reads a table and its seats in raw SQL (every move and every
// state read reads its table), locking the row on PostgreSQL when lock is
// set (SQLite's write transaction holds the whole database). One statement
// reads the table's version and its seats with their users' names; the
// rest of the row comes from the table cache when it holds that version,
// else from a second statement. Each column read costs calls into SQLite
// through cgo: the row's thirty columns, read with every move, cost more
// than the move's writes.
func (r tableRepo) byID(id int64, lock bool) (domain.Table, error) {
	t := r.t
	if lock {
		if tb, ok, err := r.lockCached(id); err != nil || ok {
			return tb, err
		}
	}
	q := `SELECT t.version, s.seat, s.user_id, u.name, s.bot, ` + t.timeCol("s.joined_at") + `, s.stand_in,
		s.stand_in_reason, s.player_back
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
		t.lockSeats(id, seats)
	}
	if !t.changedSeats[id] || t.wroteVersion[id] == version {
		// Seats this transaction changed are cached only as read at the
		// version it wrote after them (a match's start re-reads its table:
		// its seats' first states then need no query); a change after the
		// read drops them again (seatsChanged).
		t.committedSeats = append(t.committedSeats, tableSeats{id: id, version: version, seats: slices.Clone(seats)})
	}
	tb := row.domain()
	tb.Seats = seats
	return tb, nil
}

// tableRowColumns lists a table row's columns in scanTargets' order, each
// prefixed (a table alias).
func tableRowColumns(t *tx, prefix string) string {
	cols := []string{"id", "creator_id", "club_id", "rules", "options", "players", "match_deals", "match_target",
		"match_require_winner", "private", "invite_code", "auto_start", "turn_seconds", "match_seconds", "grace_seconds",
		"status", "free_seats", "version", "deal_number", "winner", "draw", "lost_on_time", "result", "abandoned_by"}
	for i, c := range cols {
		cols[i] = prefix + c
	}
	cols = append(cols, t.timeCol(prefix+"turn_started_at"), prefix+"clock_used", t.timeCol(prefix+"created_at"),
		t.timeCol(prefix+"updated_at"), t.timeCol(prefix+"started_at"), t.timeCol(prefix+"finished_at"),
		prefix+"absent_policy", t.timeCol(prefix+"deadline"), prefix+"deadline_passed",
		prefix+"tournament_id", prefix+"tournament_round", prefix+"tournament_table", prefix+"cancelled",
		prefix+"reconnect_seconds", prefix+"claim_policy", prefix+"outcome", prefix+"bank_seconds", prefix+"bank_left",
		prefix+"rated", prefix+"rematch_wishes", prefix+"rematch_id")
	return strings.Join(cols, ", ")
}

// scanTargets are the fields of r in tableRowColumns' order.
func (r *tableRow) scanTargets() []any {
	return []any{&r.ID, &r.CreatorID, &r.ClubID, &r.Rules, &r.Options, &r.Players,
		&r.MatchDeals, &r.MatchTarget, &r.MatchRequireWinner, &r.Private, &r.InviteCode, &r.AutoStart,
		&r.TurnSeconds, &r.MatchSeconds, &r.GraceSeconds, &r.Status, &r.FreeSeats, &r.Version,
		&r.DealNumber, &r.Winner, &r.Draw, &r.LostOnTime, &r.Result, &r.AbandonedBy,
		optTime{&r.TurnStartedAt}, &r.ClockUsed, timestamp{&r.CreatedAt}, timestamp{&r.UpdatedAt},
		optTime{&r.StartedAt}, optTime{&r.FinishedAt}, &r.AbsentPolicy, optTime{&r.Deadline}, &r.DeadlinePassed,
		&r.TournamentID, &r.TournamentRound, &r.TournamentTable, &r.Cancelled,
		&r.ReconnectSeconds, &r.ClaimPolicy, &r.Outcome, &r.BankSeconds, &r.BankLeft,
		&r.Rated, &r.RematchWishes, &r.RematchID}
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
		var bot, returning *bool
		var standIn, reason *string
		var s domain.Seat
		if err := rows.Scan(&version, &seat, &s.UserID, &name, &bot, optTime{&s.JoinedAt}, &standIn, &reason,
			&returning); err != nil {
			return 0, nil, translate(err, "table seat")
		}
		found = true
		if seat == nil { // a table without seats
			continue
		}
		s.Seat, s.Bot, s.JoinedAt = *seat, bot != nil && *bot, utcPtr(s.JoinedAt)
		s.Returning = returning != nil && *returning
		if standIn != nil {
			s.StandIn = domain.StandIn(*standIn)
		}
		if reason != nil {
			s.StandInReason = *reason
		}
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
	var row tableRow
	err := r.t.queryRow(false, `SELECT `+tableRowColumns(r.t, "")+` FROM tables WHERE id = $1`, []any{id}, row.scanTargets()...)
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
	// Raw SQL (see rawsql.go): the lobby reads a page of tables and
	// their seats on every call.
	q := `SELECT s.table_id, s.seat, s.user_id, u.name, s.bot, ` + r.t.timeCol("s.joined_at") + `, s.stand_in,
		s.stand_in_reason, s.player_back
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
		var standIn string
		if err := seats.Scan(&id, &s.Seat, &s.UserID, &name, &s.Bot, optTime{&s.JoinedAt}, &standIn, &s.StandInReason,
			&s.Returning); err != nil {
			return nil, translate(err, "table seat")
		}
		s.JoinedAt, s.StandIn = utcPtr(s.JoinedAt), domain.StandIn(standIn)
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
	with := r.t.appends.withMoves(&args, t.ID) // the moves appended, in the same statement (appends.go)
	prev, diff := r.t.locked[t.ID]
	for _, c := range tableColumns(row) {
		if c.name == "version" || !diff || !c.same(prev) {
			set = append(set, c.name+" = "+args.add(c.value))
		}
	}
	err := r.t.execOne("table", with+"UPDATE tables SET "+strings.Join(set, ", ")+" WHERE id = "+args.add(row.ID), args...)
	if err != nil {
		return err
	}
	r.t.remember(row)
	r.t.committed = append(r.t.committed, row)
	if r.t.wroteVersion == nil {
		r.t.wroteVersion = map[int64]int64{}
	}
	r.t.wroteVersion[t.ID] = row.Version
	if seats, ok := r.t.lockedSeats[t.ID]; ok {
		// The seats read under the lock, unchanged since: the new version's.
		r.t.committedSeats = append(r.t.committedSeats, tableSeats{id: t.ID, version: row.Version, seats: slices.Clone(seats)})
	}
	if r.t.fenced { // the owner's: in the second's list (table_feed_owned.go)
		r.t.deferred = append(r.t.deferred, tableVersion{t.ID, t.Version})
		return nil
	}
	return r.announce(t.ID, t.Version)
}

// lockSeats keeps the seats of a table this transaction locked, as read
// under the lock.
func (t *tx) lockSeats(id int64, seats []domain.Seat) {
	if t.lockedSeats == nil {
		t.lockedSeats = map[int64][]domain.Seat{}
	}
	t.lockedSeats[id] = slices.Clone(seats)
}

// seatsChanged notes that this transaction changes a table's seats: what
// it read of them before, or reads now at a version it has not bumped yet,
// is not cached.
func (t *tx) seatsChanged(tableID int64) {
	delete(t.lockedSeats, tableID)
	if t.changedSeats == nil {
		t.changedSeats = map[int64]bool{}
	}
	t.changedSeats[tableID] = true
	t.committedSeats = slices.DeleteFunc(t.committedSeats, func(s tableSeats) bool { return s.id == tableID })
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
		{"deadline_passed", row.DeadlinePassed, func(o tableRow) bool { return o.DeadlinePassed == row.DeadlinePassed }},
		{"turn_started_at", row.TurnStartedAt, func(o tableRow) bool { return sameTime(o.TurnStartedAt, row.TurnStartedAt) }},
		{"clock_used", row.ClockUsed, func(o tableRow) bool { return o.ClockUsed == row.ClockUsed }},
		{"updated_at", row.UpdatedAt, func(o tableRow) bool { return o.UpdatedAt.Equal(row.UpdatedAt) }},
		{"started_at", row.StartedAt, func(o tableRow) bool { return sameTime(o.StartedAt, row.StartedAt) }},
		{"finished_at", row.FinishedAt, func(o tableRow) bool { return sameTime(o.FinishedAt, row.FinishedAt) }},
		{"cancelled", row.Cancelled, func(o tableRow) bool { return o.Cancelled == row.Cancelled }},
		{"outcome", row.Outcome, func(o tableRow) bool { return o.Outcome == row.Outcome }},
		{"bank_left", row.BankLeft, func(o tableRow) bool { return o.BankLeft == row.BankLeft }},
		{"rematch_wishes", row.RematchWishes, func(o tableRow) bool { return o.RematchWishes == row.RematchWishes }},
		{"rematch_id", row.RematchID, func(o tableRow) bool { return sameInt64(o.RematchID, row.RematchID) }},
	}
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func sameInt64(a, b *int64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func sameInt(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func sameTime(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}

func (r tableRepo) SetSeat(tableID int64, s domain.Seat) error {
	r.t.seatsChanged(tableID)
	res := r.t.db.Model(&seatRow{}).Where("table_id = ? AND seat = ?", tableID, s.Seat).Updates(map[string]any{
		"user_id": s.UserID, "bot": s.Bot, "joined_at": utcPtr(s.JoinedAt), "stand_in": string(s.StandIn),
		"stand_in_reason": s.StandInReason, "player_back": s.Returning,
	})
	return hitOne(res, "table seat")
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
	var args sqlArgs
	set := dealPositionSet(&args, row)
	return r.t.execOne("deal", `UPDATE table_deals SET `+set+` WHERE table_id = `+args.add(row.TableID)+` AND number = `+args.add(row.Number), args...)
}

// dealPositionSet is the SET list of a deal's update as play writes it
// (its position with its move count, score, time-out and end), its values
// added to args: UpdateDeal's, and an owner's move's (AppendMoveIfAt).
func dealPositionSet(args *sqlArgs, row dealRow) string {
	return "position = " + args.add(row.Position) + ", moves = " + args.add(row.Moves) + ", score = " + args.add(row.Score) +
		", timeout_at = " + args.add(row.TimeoutAt) + ", ended_at = " + args.add(row.EndedAt)
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
	by := m.By
	if by == "" {
		by = domain.ByPlayer
	}
	args := appendArgs(m.TableID, m.Deal, m.Index, m.Seat, string(m.Move), m.Auto, utc(m.At), m.Version, string(m.Taken), string(by))
	if r.t.appends != nil && r.t.dialect == Postgres { // sent with the table's update (appends.go)
		r.t.appends.add(args)
		return nil
	}
	return r.t.execOne("move", moveColumns+`($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, args...)
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

// MovesFrom reads in raw SQL: every state read after a move and every
// move that finds no game in memory reads the moves past the stored
// position.
func (r tableRepo) MovesFrom(tableID int64, deal, from int) ([]domain.TableMove, error) {
	t := r.t
	rows, err := t.query(`SELECT idx, seat, "move", "auto", `+t.timeCol(`"at"`)+`, played_by FROM table_moves
		WHERE table_id = $1 AND deal = $2 AND idx >= $3 ORDER BY idx`, tableID, deal, from)
	if err != nil {
		return nil, translate(err, "move")
	}
	defer rows.Close()
	var out []domain.TableMove
	for rows.Next() {
		m := domain.TableMove{TableID: tableID, Deal: deal}
		var move string
		if err := rows.Scan(&m.Index, &m.Seat, &move, &m.Auto, timestamp{&m.At}, &m.By); err != nil {
			return nil, translate(err, "move")
		}
		m.Move, m.At = json.RawMessage(move), m.At.UTC()
		out = append(out, m)
	}
	return out, translate(rows.Err(), "move")
}

// DealFrom reads in raw SQL, in one statement: a move, or a poll, that
// finds its running deal in memory behind the table (another process
// moved it) reads the deal's state and the moves it lacks, not the
// deal's position (kilobytes).
//
// The join names the table and the deal by $1 and $2 before from ($3):
// SQLite numbers the placeholders in the order they first appear
// (rawsql.go), and with $3 written first it read another table's deal
// (the deal numbered from of the table whose id is number) and took its
// moves for this one's: a state read then showed a newer version with
// the older game, and kept it (the stuck table of 2026-11-28,
// docs/performance.md).
func (r tableRepo) DealFrom(tableID int64, number, from int) (domain.TableDeal, []domain.TableMove, error) {
	t := r.t
	rows, err := t.query(`SELECT d.dealer, d.seed, d.totals, d.tie_break, d.moves, d.score, d.timeout_at, `+
		t.timeCol("d.started_at")+`, `+t.timeCol("d.ended_at")+`, m.idx, m.seat, m."move", m."auto", `+
		t.timeCol(`m."at"`)+`, m.played_by
		FROM table_deals AS d LEFT JOIN table_moves AS m ON m.table_id = $1 AND m.deal = $2 AND m.idx >= $3
		WHERE d.table_id = $1 AND d.number = $2 ORDER BY m.idx`, tableID, number, from)
	if err != nil {
		return domain.TableDeal{}, nil, translate(err, "deal")
	}
	defer rows.Close()
	var row dealRow
	var moves []domain.TableMove
	found := false
	for rows.Next() {
		var idx, seat *int
		var move, by *string
		var auto *bool
		var at *time.Time
		if err := rows.Scan(&row.Dealer, &row.Seed, &row.Totals, &row.TieBreak, &row.Moves, &row.Score, &row.TimeoutAt,
			timestamp{&row.StartedAt}, optTime{&row.EndedAt}, &idx, &seat, &move, &auto, optTime{&at}, &by); err != nil {
			return domain.TableDeal{}, nil, translate(err, "deal")
		}
		found = true
		if idx == nil { // no move from there on
			continue
		}
		m := domain.TableMove{TableID: tableID, Deal: number, Index: *idx, Seat: *seat, Move: json.RawMessage(*move),
			Auto: *auto, By: domain.MovedBy(*by)}
		if at != nil {
			m.At = at.UTC()
		}
		moves = append(moves, m)
	}
	if err := rows.Err(); err != nil {
		return domain.TableDeal{}, nil, translate(err, "deal")
	}
	if !found {
		return domain.TableDeal{}, nil, translate(sql.ErrNoRows, "deal")
	}
	row.TableID, row.Number = tableID, number
	d, err := row.domain()
	return d, moves, err
}

func (r tableRepo) LastMove(tableID int64, deal int) (domain.TableMove, error) {
	return takeOne(r.t.db.Where("table_id = ? AND deal = ?", tableID, deal).Order("idx DESC"), "move", moveRow.domain)
}

func (r tableRepo) MoveUpTo(tableID, version int64) (domain.TableMove, error) {
	// table_moves_version_idx (table_id, version) answers it.
	return takeOne(r.t.db.Where("table_id = ? AND version > 0 AND version <= ?", tableID, version).Order("version DESC"),
		"move", moveRow.domain)
}

func (r tableRepo) Clocked() ([]domain.Table, error) {
	var rows []tableRow
	err := r.t.db.Where("status = ? AND (turn_seconds > 0 OR match_seconds > 0 OR grace_seconds > 0 OR deadline IS NOT NULL)", string(domain.TablePlaying)).
		Order("id").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "table")
	}
	return r.withSeats(rows)
}
