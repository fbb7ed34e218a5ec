package tourney

import (
	"fmt"

	"github.com/burraco/burraco/domain/pairing"
)

// Online play (issue 17). A tournament whose Setup.Online is set plays its
// rounds at online tables: when a round starts the service creates one
// online table per table of the round and records them (OpenOnlineTables,
// in the transaction of the start), and each deal that ends at one of them
// is written into the table's sheet by the server (RecordPlayedDeal, in the
// transaction of the move that ended it), confirmed by the engine. Nobody
// enters or confirms a score by hand there (online_sheet); the referee's
// powers stay: rulings, corrections, penalties. Both commands are the
// server's own (Actor.Server): ParseCommand does not read them.

// EventOnlineTablesOpened, EventDealPlayed and EventStandIn are the online
// events.
const (
	EventOnlineTablesOpened = "online_tables_opened"
	EventDealPlayed         = "deal_played"
	EventStandIn            = "stand_in"
)

// OnlineTable links a table of a round to the online table that plays it.
type OnlineTable struct {
	Table       int   `json:"table"`
	OnlineTable int64 `json:"online_table"`
}

// OpenOnlineTables records the online tables of a round just started, one
// per table of the round (the server's, in the start's transaction).
type OpenOnlineTables struct {
	Round  int           `json:"round"`
	Tables []OnlineTable `json:"tables"`
}

// RecordPlayedDeal writes a deal played at an online table into its sheet
// with the engine's parts, confirmed (the server's, in the transaction of
// the move that ended the deal). Deal.Number is the deal's number at the
// online table, which is its number on the sheet; TimeOut marks a deal
// ended by a time-out, the table's last (RULES §10).
type RecordPlayedDeal struct {
	Round       int       `json:"round"`
	Table       int       `json:"table"`
	OnlineTable int64     `json:"online_table"`
	Deal        DealInput `json:"deal"`
}

// RecordRef links a deal of a sheet to the deal record it was played in:
// the online table and the deal's number there.
type RecordRef struct {
	Table int64 `json:"table"`
	Deal  int   `json:"deal"`
}

// RecordForfeit rules an abandonment at a table whose online table was
// forfeited by the side of Seat (a player who left, or stayed away on
// their turn past the grace, under absent: forfeit): RULES §10's
// abandonment by the entry at that seat, the deal in play not scored (the
// server's, in the transaction that forfeited the online table).
type RecordForfeit struct {
	Round       int    `json:"round"`
	Table       int    `json:"table"`
	OnlineTable int64  `json:"online_table"`
	Seat        int    `json:"seat"`
	Reason      string `json:"reason"`
}

// RecordStandIn notes in the audit trail that a referee put a bot in the
// place of the player at Seat of the online table that plays a table of
// the round, with the referee's reason (the server's, in the transaction
// of the replacement; the event's By is the referee). The sheet does not
// change: the deals the bot plays are scored as any other, their records
// say which moves the bot chose.
type RecordStandIn struct {
	Round       int    `json:"round"`
	Table       int    `json:"table"`
	OnlineTable int64  `json:"online_table"`
	Seat        int    `json:"seat"`
	Reason      string `json:"reason"`
}

func (OpenOnlineTables) CommandName() string { return "open_online_tables" }
func (RecordPlayedDeal) CommandName() string { return "record_played_deal" }
func (RecordForfeit) CommandName() string    { return "record_forfeit" }
func (RecordStandIn) CommandName() string    { return "record_stand_in" }

func (c RecordStandIn) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needServer(who, "recording a stand-in"); err != nil {
		return nil, "", err
	}
	return &StandIn{Round: c.Round, Table: c.Table, OnlineTable: c.OnlineTable, Seat: c.Seat}, c.Reason, nil
}

// check: the table is played at the online table named.
func (p *StandIn) check(s *State) error {
	_, t, err := s.sheet(p.Round, p.Table)
	if err != nil {
		return err
	}
	if t.online == 0 || t.online != p.OnlineTable {
		return errf(KindInvalid, CodeBadEvent, "table %d is played at online table %d, not %d", t.Number, t.online, p.OnlineTable)
	}
	if p.Seat < 0 || p.Seat >= s.setup.PlayersPerTable {
		return errf(KindInvalid, CodeBadEvent, "seat %d at a table of %d", p.Seat, s.setup.PlayersPerTable)
	}
	return nil
}

// apply: nothing of the state changes (the event is the audit trail's).
func (p *StandIn) apply(*State, Event) {}

func (c RecordForfeit) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needServer(who, "recording a forfeit"); err != nil {
		return nil, "", err
	}
	_, t, err := s.sheet(c.Round, c.Table)
	if err != nil {
		return nil, "", err
	}
	if t.online == 0 || t.online != c.OnlineTable {
		return nil, "", errf(KindInvalid, CodeInvalidCommand, "table %d is played at online table %d, not %d", t.Number, t.online, c.OnlineTable)
	}
	entry := t.EW
	switch {
	case s.setup.Kind == KindIndividual:
		entry = [4]int64{t.N, t.E, t.S, t.W}[c.Seat%4]
	case c.Seat%2 == 0:
		entry = t.NS
	}
	return &RulingMade{Round: c.Round, Table: c.Table, Kind: RulingAbandonment, Entry: entry}, c.Reason, nil
}

// Payloads of the online events.
type (
	// OnlineTablesOpened: the online table of each table of Round.
	OnlineTablesOpened OpenOnlineTables
	// DealPlayed: a deal of an online table, as the engine scored it.
	DealPlayed RecordPlayedDeal
	// StandIn: a referee put a bot in the place of the player at Seat of
	// OnlineTable (the event's reason is the referee's).
	StandIn struct {
		Round       int   `json:"round"`
		Table       int   `json:"table"`
		OnlineTable int64 `json:"online_table"`
		Seat        int   `json:"seat"`
	}
)

func (*OnlineTablesOpened) kind() string { return EventOnlineTablesOpened }
func (*DealPlayed) kind() string         { return EventDealPlayed }
func (*StandIn) kind() string            { return EventStandIn }

func needServer(who Actor, what string) error {
	if !who.Server {
		return forbidden(CodeForbidden, "%s is the server's: the engine scores an online table", what)
	}
	return nil
}

func (c OpenOnlineTables) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needServer(who, "opening online tables"); err != nil {
		return nil, "", err
	}
	p := OnlineTablesOpened(c)
	p.Tables = append([]OnlineTable(nil), c.Tables...)
	return &p, "", nil
}

func (p *OnlineTablesOpened) check(s *State) error {
	if !s.setup.Online {
		return errf(KindInvalid, CodeBadEvent, "the tournament is played live")
	}
	r, err := s.roundIn(p.Round, "opening online tables", RoundStatusPlaying)
	if err != nil {
		return err
	}
	if len(p.Tables) != len(r.tables) {
		return errf(KindInvalid, CodeBadEvent, "round %d has %d tables, not %d", p.Round, len(r.tables), len(p.Tables))
	}
	for _, x := range p.Tables {
		t, err := r.table(x.Table)
		if err != nil {
			return err
		}
		if t.online != 0 || x.OnlineTable <= 0 {
			return errf(KindInvalid, CodeBadEvent, "table %d: online table %d (already %d)", x.Table, x.OnlineTable, t.online)
		}
	}
	return nil
}

func (p *OnlineTablesOpened) apply(s *State, _ Event) {
	r := s.rounds[p.Round-1]
	for _, x := range p.Tables {
		t, _ := r.table(x.Table)
		t.online = x.OnlineTable
	}
}

func (c RecordPlayedDeal) decide(s *State, who Actor, _ pairing.Rand) (payload, string, error) {
	if err := needServer(who, "recording a played deal"); err != nil {
		return nil, "", err
	}
	p := DealPlayed(c)
	return &p, "", nil
}

// check: the deal is the next of the sheet of the online table named, its
// parts valid, the table not decided (a knockout table: not after the deal
// that decided it).
func (p *DealPlayed) check(s *State) error {
	_, t, err := s.sheet(p.Round, p.Table)
	if err != nil {
		return err
	}
	if t.online == 0 || t.online != p.OnlineTable {
		return errf(KindInvalid, CodeBadEvent, "table %d is played at online table %d, not %d", t.Number, t.online, p.OnlineTable)
	}
	if t.decided != "" {
		return conflict(CodeTableDecided, "table %d was decided by a ruling (%s)", t.Number, t.decided)
	}
	var ps problems
	s.checkDeal(&ps, "deal", p.Deal)
	if p.Deal.Number != len(t.deals)+1 {
		ps.add("deal.number", PDealOrder, "deal %d: the next deal of table %d is %d", p.Deal.Number, t.Number, len(t.deals)+1)
	}
	if lim := s.dealLimit(t); p.Deal.Number > lim {
		ps.add("deal.number", POutOfRange, "deal %d: the table plays %d deals", p.Deal.Number, lim)
	}
	if err := ps.err(CodeBadScore, fmt.Sprintf("the deal played at online table %d does not fit the sheet", p.OnlineTable)); err != nil {
		return err
	}
	return s.checkKnockoutSheet(append(dealTotals(t.deals), [2]int{p.Deal.NS.Total, p.Deal.EW.Total}))
}

// apply: the deal confirmed by the engine (no one entered it); a time-out
// deal is the table's last, as a referee's time-out ruling makes it.
func (p *DealPlayed) apply(s *State, e Event) {
	t, _ := s.rounds[p.Round-1].table(p.Table)
	d := p.Deal
	t.deals = append(t.deals, Deal{Number: d.Number, NS: d.NS, EW: d.EW, TimeOut: d.TimeOut, Status: DealConfirmed,
		EnteredBy: e.By, EnteredAt: e.At, ConfirmedBy: e.By, ConfirmedAt: timePtr(e.At), Engine: true,
		Record: &RecordRef{Table: p.OnlineTable, Deal: d.Number}})
	if d.TimeOut {
		t.decided = RulingTimeOut
	}
	s.markTieBreaks(t)
	t.version = e.Seq
}

// refuseOnline refuses a score by hand at a tournament played online.
func (s *State) refuseOnline(what string) error {
	if s.setup.Online {
		return conflict(CodeOnlineSheet, "%s: the tournament is played online, the engine writes its sheets "+
			"(a referee corrects a deal or rules a table, with a reason)", what)
	}
	return nil
}

// TableSeats is who sits where at table t of round n when it is played
// online: the player profiles by engine seat (4 seats: N, E, S, W, the pair
// NS at seats 0 and 2; 2 seats: NS, EW). A team match's table seats the
// team's pair of that table; an individual table its four players.
func (s *State) TableSeats(n, t int) ([]int64, error) {
	r, err := s.round(n)
	if err != nil {
		return nil, err
	}
	tb, err := r.table(t)
	if err != nil {
		return nil, err
	}
	if s.setup.Kind == KindIndividual {
		one := func(entry int64) int64 {
			if ps := s.pairPlayers(entry, 0); len(ps) > 0 {
				return ps[0]
			}
			return 0
		}
		return []int64{one(tb.N), one(tb.E), one(tb.S), one(tb.W)}, nil
	}
	ns, ew := s.pairPlayers(tb.NS, tb.Pair), s.pairPlayers(tb.EW, tb.Pair)
	k := s.setup.PlayersPerTable / 2
	if len(ns) != k || len(ew) != k {
		return nil, fmt.Errorf("round %d table %d: pairs of %d and %d players at a table of %d", n, t, len(ns), len(ew), 2*k)
	}
	if k == 1 {
		return []int64{ns[0], ew[0]}, nil
	}
	return []int64{ns[0], ew[0], ns[1], ew[1]}, nil
}
