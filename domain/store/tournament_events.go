package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/burraco/burraco/domain"
)

// tournamentEventRepo implements domain.TournamentEventRepo.
type tournamentEventRepo struct{ t *tx }

type tournamentEventRow struct {
	TournamentID int64 `gorm:"primaryKey"`
	Seq          int64 `gorm:"primaryKey"`
	At           time.Time
	ByUserID     *int64 // NULL: the server itself
	Kind         string
	Data         string // JSON (JSONB on PostgreSQL)
	Reason       string
}

func (tournamentEventRow) TableName() string { return "tournament_events" }

// errSeqConflict is the EVersionConflict of an append that lost the race;
// current is the tournament's version now, when known.
func errSeqConflict(err error, current *int64) error {
	return &domain.Error{Code: domain.EVersionConflict, Message: "the tournament changed since it was read; read it again and retry",
		Current: current, Err: err}
}

func (r tournamentEventRepo) Append(tournamentID, expectSeq int64, events []domain.TournamentEventRecord, m domain.TournamentMirror) error {
	rows, err := eventRows(tournamentID, expectSeq, events)
	if err != nil {
		return err
	}
	last := rows[len(rows)-1]
	// The conditional UPDATE first: it takes the row's lock, so that a
	// second writer waits here and then finds the version moved. Plain
	// SQL (see rawsql.go): every command of a tournament appends.
	var args sqlArgs
	set := "version = " + args.add(last.Seq) + ", updated_at = " + args.add(last.At)
	if m.Status != "" {
		set += ", status = " + args.add(string(m.Status)) + ", cancel_reason = " + args.add(m.CancelReason)
		if m.Status != domain.TournamentDraft && m.Status != domain.TournamentCancelled {
			set += ", opened_at = COALESCE(opened_at, " + args.add(last.At) + ")"
		}
	}
	n, err := r.t.exec("UPDATE tournaments SET "+set+" WHERE id = "+args.add(tournamentID)+" AND version = "+args.add(expectSeq), args...)
	if err != nil {
		return translate(err, "tournament")
	}
	if n == 0 {
		v, err := r.Version(tournamentID)
		if err != nil {
			return err
		}
		return errSeqConflict(nil, &v)
	}
	args = args[:0]
	values := make([]string, len(rows))
	for i, e := range rows {
		values[i] = "(" + args.add(e.TournamentID) + ", " + args.add(e.Seq) + ", " + args.add(e.At) + ", " + args.add(e.ByUserID) +
			", " + args.add(e.Kind) + ", " + args.add(e.Data) + ", " + args.add(e.Reason) + ")"
	}
	if _, err := r.t.exec("INSERT INTO tournament_events (tournament_id, seq, at, by_user_id, kind, data, reason) VALUES "+
		strings.Join(values, ", "), args...); err != nil {
		if kind, _ := classify(err); kind == uniqueViolation {
			return errSeqConflict(err, nil) // the transaction is spent: the version cannot be read
		}
		return translate(err, "tournament event")
	}
	if err := r.addPlayers(tournamentID, m.Players); err != nil {
		return err
	}
	return r.t.announceTournament(tournamentID)
}

// eventRows checks that events follow expectSeq one by one and returns
// them as rows.
func eventRows(tournamentID, expectSeq int64, events []domain.TournamentEventRecord) ([]tournamentEventRow, error) {
	if len(events) == 0 {
		return nil, errors.New("store: no tournament events to append")
	}
	rows := make([]tournamentEventRow, len(events))
	for i, e := range events {
		if want := expectSeq + int64(i) + 1; e.Seq != want {
			return nil, fmt.Errorf("store: tournament %d: event %d has seq %d, want %d", tournamentID, i, e.Seq, want)
		}
		data := string(e.Data)
		if len(e.Data) == 0 {
			data = "{}"
		}
		rows[i] = tournamentEventRow{TournamentID: tournamentID, Seq: e.Seq, At: utc(e.At), Kind: e.Kind, Data: data, Reason: e.Reason}
		if e.By != 0 {
			by := e.By
			rows[i].ByUserID = &by
		}
	}
	return rows, nil
}

// After implements domain.TournamentEventRepo in raw SQL: every command
// and read of a state behind the log catches up with it.
func (r tournamentEventRepo) After(tournamentID, afterSeq int64) ([]domain.TournamentEventRecord, error) {
	at := "at"
	if r.t.dialect == SQLite {
		at = "CAST(at AS TEXT)" // parsed by timestamp (see timeCols)
	}
	rows, err := r.t.query("SELECT seq, "+at+", by_user_id, kind, data, reason FROM tournament_events "+
		"WHERE tournament_id = $1 AND seq > $2 ORDER BY seq", tournamentID, afterSeq)
	if err != nil {
		return nil, translate(err, "tournament event")
	}
	defer rows.Close()
	out := []domain.TournamentEventRecord{} // none: empty, not nil
	for rows.Next() {
		var e domain.TournamentEventRecord
		var by sql.NullInt64
		var data []byte
		if err := rows.Scan(&e.Seq, timestamp{&e.At}, &by, &e.Kind, &data, &e.Reason); err != nil {
			return nil, translate(err, "tournament event")
		}
		e.At, e.By, e.Data = e.At.UTC(), by.Int64, data
		out = append(out, e)
	}
	return out, translate(rows.Err(), "tournament event")
}

func (r tournamentEventRepo) Version(tournamentID int64) (int64, error) {
	var v struct{ Version int64 }
	err := r.t.db.Model(&tournamentRow{}).Select("version").Where("id = ?", tournamentID).Take(&v).Error
	return v.Version, translate(err, "tournament")
}
