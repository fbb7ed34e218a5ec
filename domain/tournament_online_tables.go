package domain

import (
	"cmp"
	"fmt"
	"time"

	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/engine"
)

// Rounds of a tournament played online (issue 17). Starting a round opens
// one online table per table of the round, in the transaction that records
// the start: the tables, the start and the record of which online table
// plays which table commit together or not at all, and a retried start is
// refused by the log (the round is already playing), so a round never has
// half its tables nor two of one. Each deal that ends at one of them is
// written into the table's sheet in the transaction of the move that ended
// it (recordPlayedDeal): a sheet never holds a deal the records do not, nor
// misses one they do.

// onlineTables is what a tournament played online needs of the tables to
// open a round's online tables, in the transaction that starts the round.
// It is declared here, on the tournaments' side, and the tables' service
// implements it: tournaments use tables, and the tables tell a tournament
// of its tables' deals only through dealRecorder, which it implements.
type onlineTables interface {
	// inviteCode returns a fresh invite code for a new table.
	inviteCode() (string, error)
	// start deals the first deal at a full table and lets the bots play
	// up to the first human turn.
	start(tx Tx, t *Table) error
	// commitTable stores t, read at version read and changed in tx.
	commitTable(tx Tx, t *Table, read int64) error
}

// onlineRoundStarted opens the online tables of round n, which e (the
// round's start, applied to f.state) just started: it creates them, records
// them (the event it returns, applied to f.state), and leaves them to be
// started once both events are in the log (startOnlineTables).
func (s *tournamentPlayService) onlineRoundStarted(tx Tx, t Tournament, f *forked, n int, by int64) ([]Table, tourney.Event, error) {
	r, err := f.state.Round(n)
	if err != nil {
		return nil, tourney.Event{}, err
	}
	var tables []Table
	cmd := tourney.OpenOnlineTables{Round: n}
	for _, tv := range r.Tables {
		tb, err := s.onlineTable(tx, t, f.state, n, tv.Number, by)
		if err != nil {
			return nil, tourney.Event{}, err
		}
		if err := tx.Tables().Create(&tb); err != nil {
			return nil, tourney.Event{}, err
		}
		tables = append(tables, tb)
		cmd.Tables = append(cmd.Tables, tourney.OnlineTable{Table: tv.Number, OnlineTable: tb.ID})
	}
	e, err := f.state.Decide(cmd, tourney.Actor{UserID: by, Server: true}, s.now(), nil)
	if err != nil {
		return nil, tourney.Event{}, fromTourney(err)
	}
	if err := f.state.Apply(e); err != nil {
		return nil, tourney.Event{}, fmt.Errorf("tournament %d: applying its online tables: %w", t.ID, err)
	}
	return tables, e, nil
}

// onlineTable is the online table of table number of round n, seated as
// the draw says (see tourney.State.TableSeats): a player with a login sits
// as that user, one without plays by the bot. It plays the tournament's
// rule set, options and deals per round (a knockout: to the target score,
// with tie-break deals while tied), under the tournament's online settings
// (onlineClocks). by, who started the round, is its creator.
func (s *tournamentPlayService) onlineTable(tx Tx, t Tournament, st *tourney.State, n, number int, by int64) (Table, error) {
	players, err := st.TableSeats(n, number)
	if err != nil {
		return Table{}, err
	}
	match := MatchFormat{Deals: t.DealsPerRound}
	if tv, err := st.Table(n, number); err == nil && tv.Sheet.PlannedDeals > 0 {
		match.Deals = tv.Sheet.PlannedDeals // a phase's own deals per round (docs/PHASES.md)
	}
	if t.Movement == MovementKnockout {
		match = MatchFormat{Target: t.TargetScore}
	}
	now := s.now()
	club := t.ClubID
	tb := Table{CreatorID: by, ClubID: &club, Rules: t.Rules, Options: t.Options, Players: t.PlayersPerTable,
		Match: match, Private: true, Status: TableOpen, Version: 1, ClockUsed: []int64{},
		Tournament: &TableTournament{ID: t.ID, Round: n, Table: number}, CreatedAt: now, UpdatedAt: now}
	onlineClocks(&tb, *t.Online)
	if tb.InviteCode, err = s.tables.inviteCode(); err != nil {
		return Table{}, err
	}
	for i, p := range players {
		seat := Seat{Seat: i, JoinedAt: &now, Bot: true}
		if pl, err := tx.Players().Get(p); err == nil && pl.UserID != nil && tb.SeatOf(*pl.UserID) < 0 {
			seat.UserID, seat.Bot = pl.UserID, false
		} else if err != nil && ErrorCode(err) != ENotFound {
			return Table{}, err
		}
		tb.Seats = append(tb.Seats, seat)
	}
	return tb, nil
}

// onlineClocks passes a tournament's online settings to one of its tables,
// opened at the round's start: the per-turn limit; what the grace period's
// end does to an absent player (a bot stands in until they are back, or
// their side forfeits); and the round's time limit as the table's
// deadline, at which the RULES §10 time-out is called (the table's tick).
func onlineClocks(tb *Table, o OnlineSettings) {
	tb.TurnSeconds = o.TurnSeconds
	tb.AbsentPolicy, tb.GraceSeconds = o.Absent, o.GraceSeconds
	tb.ReconnectSeconds, tb.ClaimPolicy = cmp.Or(o.ReconnectSeconds, DefaultReconnectSeconds), cmp.Or(o.Claim, DefaultOnlineClaim)
	if o.RoundSeconds > 0 {
		d := tb.CreatedAt.Add(time.Duration(o.RoundSeconds) * time.Second)
		tb.Deadline = &d
	}
}

// startOnlineTables deals the first deal at each table of a round just
// opened; the bots play up to the first human turn, a table of bots its
// whole match (its deals written into the sheets as they end).
func (s *tournamentPlayService) startOnlineTables(tx Tx, tables []Table) error {
	for i := range tables {
		tb := &tables[i]
		read := tb.Version
		if err := s.tables.start(tx, tb); err != nil {
			return fmt.Errorf("online table %d: %w", tb.ID, err)
		}
		if err := s.tables.commitTable(tx, tb, read); err != nil {
			return err
		}
	}
	return nil
}

// recordPlayedDeal writes the deal that just ended at an online table of a
// tournament into the table's sheet: the engine's parts, confirmed, linked
// to the deal's record. It runs in the transaction of the move that ended
// the deal, after the tournament's row is locked (tables, then their
// tournament: the order every writer keeps). closed reports a table the
// tournament no longer plays (a referee's ruling decided it, a withdrawal
// forfeited it, its deals are complete): the deal is not written, and the
// online table ends rather than refuse its players' moves for ever.
//
// The state with the deal is for the caller to publish once the
// transaction has committed (committed: see publishing), so that the next
// deal's fork starts from it rather than from the state of the round's
// start. It implements dealRecorder.
func (s *tournamentPlayService) recordPlayedDeal(tx Tx, tb *Table, d TableDeal) (closed bool, committed func(), err error) {
	link := tb.Tournament
	closed, f, err := s.serverCommand(tx, link.ID, 0, tourney.RecordPlayedDeal{Round: link.Round, Table: link.Table, OnlineTable: tb.ID,
		Deal: dealInputOf(d)})
	return closed, s.publishing(link.ID, f), err
}

// publishing is what makes f, the state of tournament id forked by a
// server command, the tournament's shared state once the command's
// transaction has committed (skipped when the shared one is newer); nil
// when there is none.
func (s *tournamentPlayService) publishing(id int64, f *forked) func() {
	if f == nil {
		return nil
	}
	return func() { s.states.cell(id).publish(f) }
}

// recordForfeit rules the abandonment of the entry at seat on the sheet of
// the online table it forfeited, in the forfeit's transaction. A table the
// tournament already decided stays as it was. It implements dealRecorder.
func (s *tournamentPlayService) recordForfeit(tx Tx, tb *Table, seat int, result TableResult) error {
	link := tb.Tournament
	cmd := tourney.RecordForfeit{Round: link.Round, Table: link.Table, OnlineTable: tb.ID, Seat: seat,
		Reason: fmt.Sprintf("online table %d: seat %d's side forfeited (%s)", tb.ID, seat, result)}
	_, _, err := s.serverCommand(tx, link.ID, 0, cmd)
	return err
}

// recordStandIn notes in the audit trail of the tournament that plays tb
// that its referee, by, put a bot in the place of the player at seat, with
// their reason, in the replacement's transaction. A table the tournament
// already decided takes no note. The state after it is for the caller to
// publish once committed (committed). It implements dealRecorder.
func (s *tournamentPlayService) recordStandIn(tx Tx, tb *Table, seat int, by int64, reason string) (committed func(), err error) {
	link := tb.Tournament
	cmd := tourney.RecordStandIn{Round: link.Round, Table: link.Table, OnlineTable: tb.ID, Seat: seat,
		Reason: fmt.Sprintf("online table %d: a bot stands in for seat %d: %s", tb.ID, seat, reason)}
	_, f, err := s.serverCommand(tx, link.ID, by, cmd)
	return s.publishing(link.ID, f), err
}

// serverCommand decides and appends a command of the server (an online
// table's) to tournament id, locked in tx, and returns the state after it
// (to publish only once tx has committed). by is the user the event names
// (a referee's act the server records), 0 for the server's own. closed
// reports a conflict (the tournament no longer takes it): nothing is
// appended.
func (s *tournamentPlayService) serverCommand(tx Tx, id, by int64, cmd tourney.Command) (closed bool, f *forked, err error) {
	t, err := tx.Tournaments().Lock(id)
	if err != nil {
		return false, nil, err
	}
	t.Options = storedOptions(t.Rules, t.Options)
	if f, err = s.states.cell(t.ID).fork(tx, t); err != nil {
		return false, nil, err
	}
	e, err := f.state.Decide(cmd, tourney.Actor{UserID: by, Server: true}, s.now(), nil)
	if err != nil {
		if err = fromTourney(err); ErrorKind(err) == KindConflict {
			return true, nil, nil
		}
		return false, nil, err
	}
	if err := f.state.Apply(e); err != nil {
		return false, nil, fmt.Errorf("tournament %d: applying the server's %s: %w", t.ID, cmd.CommandName(), err)
	}
	rec := TournamentEventRecord{Seq: e.Seq, At: e.At, By: e.By, Kind: e.Kind, Data: e.Data, Reason: e.Reason}
	return false, f, tx.TournamentEvents().Append(t.ID, t.Version, []TournamentEventRecord{rec}, TournamentMirror{})
}

// dealInputOf is a played deal as a sheet holds it: the engine's score of
// NS (team 0) and EW (team 1), hand and pot as amounts taken off.
func dealInputOf(d TableDeal) tourney.DealInput {
	parts := func(sc engine.Score) tourney.Parts {
		return tourney.Parts{Cards: sc.Cards, Burraco: sc.Bonus, Closing: sc.Closing, Hand: -sc.Hand, Pot: -sc.Pot, Total: sc.Total}
	}
	in := tourney.DealInput{Number: d.Number, TimeOut: d.TimeOutAt != nil}
	if len(d.Score) == 2 {
		in.NS, in.EW = parts(d.Score[0]), parts(d.Score[1])
	}
	return in
}
