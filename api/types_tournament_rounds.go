package api

import (
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/pairing"
	"github.com/burraco/burraco/domain/tourney"
)

// TournamentSide is one side of a table: NS or EW.
type TournamentSide struct {
	// The entries on the side: the pair or team (one), or in an individual event the two players' entries (N then S, or E then W).
	Entries []TournamentEntryRef `json:"entries"`
	// The players who sit there (a team's pair playing this table).
	Players []TournamentPlayer `json:"players"`
} // @name TournamentSide

// TournamentParts is one side's score of a deal, RULES §7a; every amount
// a multiple of 5.
type TournamentParts struct {
	// Points of the cards melded.
	Cards int `json:"cards" example:"345"`
	// Burraco bonuses.
	Burraco int `json:"burraco" example:"300"`
	// 100 for closing, else 0.
	Closing int `json:"closing" example:"100"`
	// Points of the cards left in hand, as a positive amount taken off.
	Hand int `json:"hand" example:"0"`
	// The pot penalty (100 when the pot was not taken), as a positive amount taken off.
	Pot int `json:"pot" example:"0"`
	// cards + burraco + closing − hand − pot (rounded up to a multiple of 10 under round_up_10).
	Total int `json:"total" example:"745"`
} // @name TournamentParts

func partsOut(p tourney.Parts) TournamentParts {
	return TournamentParts{Cards: p.Cards, Burraco: p.Burraco, Closing: p.Closing, Hand: p.Hand, Pot: p.Pot, Total: p.Total}
}

func (p TournamentParts) parts() tourney.Parts {
	return tourney.Parts{Cards: p.Cards, Burraco: p.Burraco, Closing: p.Closing, Hand: p.Hand, Pot: p.Pot, Total: p.Total}
}

// TournamentDeal is one deal of a score sheet as it stands.
type TournamentDeal struct {
	// From 1.
	Number int             `json:"number" example:"1"`
	NS     TournamentParts `json:"ns"`
	EW     TournamentParts `json:"ew"`
	// Ended by the referee's time-out (no closing).
	TimeOut bool `json:"time_out" example:"false"`
	// A knockout's tie-break deal (played while tied at or past the target).
	TieBreak bool `json:"tie_break" example:"false"`
	// entered (by a player, waiting for an opponent or the staff) or confirmed.
	Status string `json:"status" enums:"entered,confirmed" example:"confirmed"`
	// The user who entered it.
	EnteredBy int64 `json:"entered_by" example:"7"`
	// The side whose player entered it (ns or ew); absent when the staff did.
	EnteredSide string    `json:"entered_side,omitempty" enums:"ns,ew" example:"ns"`
	EnteredAt   time.Time `json:"entered_at" format:"date-time"`
	// The user who confirmed it.
	ConfirmedBy int64      `json:"confirmed_by,omitempty" example:"9"`
	ConfirmedAt *time.Time `json:"confirmed_at,omitempty" format:"date-time"`
	// How many times the referee corrected it (the audit trail has each before and after).
	Corrections int `json:"corrections" example:"0"`
	// Played at an online table and written by the server with the engine's score: confirmed by the engine (entered_by and confirmed_by 0), no one entered it.
	Engine bool `json:"engine" example:"false"`
	// The deal record it was played in (engine deals): GET /api/v1/tables/{table}/deals/{deal}/record.
	Record *TournamentDealRecord `json:"record,omitempty"`
} // @name TournamentDeal

// TournamentDealRecord names the record of a deal played online.
type TournamentDealRecord struct {
	Table int64 `json:"table" example:"31"`
	Deal  int   `json:"deal" example:"2"`
} // @name TournamentDealRecord

func dealOut(d tourney.Deal) TournamentDeal {
	out := TournamentDeal{Number: d.Number, NS: partsOut(d.NS), EW: partsOut(d.EW), TimeOut: d.TimeOut, TieBreak: d.TieBreak,
		Status: d.Status, EnteredBy: d.EnteredBy, EnteredSide: d.EnteredSide, EnteredAt: d.EnteredAt,
		ConfirmedBy: d.ConfirmedBy, ConfirmedAt: d.ConfirmedAt, Corrections: d.Corrections, Engine: d.Engine}
	if d.Record != nil {
		out.Record = &TournamentDealRecord{Table: d.Record.Table, Deal: d.Record.Deal}
	}
	return out
}

// TournamentRuling is a referee's ruling at a table.
type TournamentRuling struct {
	// The audit trail's event that recorded it.
	Seq int64     `json:"seq" example:"57"`
	At  time.Time `json:"at" format:"date-time"`
	// The user who gave it.
	By   int64  `json:"by" example:"9"`
	Kind string `json:"kind" enums:"time_out,abandonment,bye,late_arrival,withdrawal" example:"late_arrival"`
	// The entry the ruling is about (abandonment, bye, late arrival, withdrawal).
	Entry *TournamentEntryRef `json:"entry,omitempty"`
	// Late arrival: the deals the table plays.
	Deals  int    `json:"deals,omitempty" example:"2"`
	Reason string `json:"reason,omitempty" example:"arrived 20 minutes late"`
} // @name TournamentRuling

// TournamentResult is a table's result as it stands.
type TournamentResult struct {
	// The sides' MP over the deals on the sheet (entered and confirmed).
	MPNS int `json:"mp_ns" example:"1520"`
	MPEW int `json:"mp_ew" example:"1105"`
	// Their VP by the event's table (teams: the team match's; knockout: 1 to the winner once decided).
	VPNS  int `json:"vp_ns" example:"13"`
	VPEW  int `json:"vp_ew" example:"7"`
	Deals int `json:"deals" example:"3"`
	// Every deal played, the target reached (knockout), or a ruling decided it.
	Complete bool `json:"complete" example:"true"`
	// Complete with every deal confirmed: what closing the round needs.
	Final bool `json:"final" example:"true"`
	// The ruling that decided the table, if one did.
	DecidedBy string `json:"decided_by,omitempty" enums:"time_out,abandonment,bye,withdrawal" example:"abandonment"`
	// The entry that left (abandonment, withdrawal) or did not turn up (bye).
	Left   *TournamentEntryRef `json:"left,omitempty"`
	Absent *TournamentEntryRef `json:"absent,omitempty"`
	// Knockout: the entry that goes on.
	Winner *TournamentEntryRef `json:"winner,omitempty"`
} // @name TournamentResult

// TournamentTable is a table of a round: who sits where, its score sheet,
// rulings and result. Its ETag carries the sheet's version, which every
// score command sends back (If-Match, or version in the body).
type TournamentTable struct {
	Round  int `json:"round" example:"2"`
	Number int `json:"number" example:"4"`
	// A phase with groups (docs/PHASES.md): the table's group. Table numbers continue across the groups of a round.
	Group string `json:"group,omitempty" example:"B"`
	// Team events: the team match this table belongs to, and which of the teams' pairs sit here.
	Match int `json:"match,omitempty" example:"1"`
	Pair  int `json:"pair,omitempty" example:"2"`
	// A tournament played online, once the round started: the online table that plays it (GET /api/v1/tables/{tableID}); its deals are written into this sheet by the server.
	OnlineTable int64           `json:"online_table,omitempty" example:"31"`
	NS          *TournamentSide `json:"ns,omitempty"`
	EW          *TournamentSide `json:"ew,omitempty"`
	// The sheet's version: the audit event that last touched it.
	Version int64 `json:"version" example:"48"`
	// Deals the table plays (0: a knockout table, played to the target).
	PlannedDeals int                `json:"planned_deals" example:"3"`
	Deals        []TournamentDeal   `json:"deals"`
	Rulings      []TournamentRuling `json:"rulings"`
	Result       TournamentResult   `json:"result"`
} // @name TournamentTable

// TournamentMatch is a team match: team A (NS) against team B (EW) over
// its tables.
type TournamentMatch struct {
	Match  int                 `json:"match" example:"1"`
	A      *TournamentEntryRef `json:"a,omitempty"`
	B      *TournamentEntryRef `json:"b,omitempty"`
	MPA    int                 `json:"mp_a" example:"2950"`
	MPB    int                 `json:"mp_b" example:"2400"`
	VPA    int                 `json:"vp_a" example:"13"`
	VPB    int                 `json:"vp_b" example:"7"`
	Left   *TournamentEntryRef `json:"left,omitempty"`
	Absent *TournamentEntryRef `json:"absent,omitempty"`
} // @name TournamentMatch

// TournamentBracketSlot is a slot of a knockout round's bracket.
type TournamentBracketSlot struct {
	// From 1, in bracket order: slots 1 and 2 meet, then 3 and 4, ...
	Slot int `json:"slot" example:"1"`
	// The entry in the slot; absent for an empty slot (its opponent goes on).
	Entry *TournamentEntryRef `json:"entry,omitempty"`
} // @name TournamentBracketSlot

// TournamentRound is a round: its status, tables, byes, team matches and
// (knockout) bracket.
type TournamentRound struct {
	Number int `json:"number" example:"2"`
	// A tournament in phases: the round's phase, from 1 (docs/PHASES.md); absent otherwise.
	Phase int `json:"phase,omitempty" example:"1"`
	// pairings_published → playing → closed.
	Status string            `json:"status" enums:"pairings_published,playing,closed" example:"playing"`
	Tables []TournamentTable `json:"tables"`
	// Entries sitting out, scoring the rest score.
	Byes []TournamentEntryRef `json:"byes"`
	// Team events: the team matches.
	Matches []TournamentMatch `json:"matches,omitempty"`
	// Knockout: the bracket's slots in order.
	Bracket []TournamentBracketSlot `json:"bracket,omitempty"`
	// The rule that drew it: mitchell, round_robin, danish (pure: by standings, rematches allowed), modified_danish (RULES §10: no rematch of the previous round, older ones allowed), modified_danish_last_round (the last round of a modified Danish: pure Danish, rematches included), modified_danish_avoid_repeats (the event's avoid_repeat_opponents: no earlier opponent while possible), random, knockout, individual, manual (set by the referee). Absent for rounds drawn before the rule was recorded.
	Rule string `json:"rule,omitempty" enums:"mitchell,round_robin,danish,modified_danish,modified_danish_last_round,modified_danish_avoid_repeats,random,knockout,individual,manual" example:"modified_danish"`
	// How many times it was drawn (a correction may draw a Danish round again).
	Draws int `json:"draws" example:"1"`
	// Drawn again after its pairings were published: a score correction of an earlier round changed the standings it was drawn on. Pairings seen before redrawn_at are void.
	Redrawn bool `json:"redrawn" example:"false"`
	// When it was last drawn again.
	RedrawnAt *time.Time `json:"redrawn_at,omitempty" format:"date-time"`
	// Why: the correction that caused it, and the referee's reason for it.
	RedrawReason *TournamentRedrawReason `json:"redraw_reason,omitempty"`
	// Set by the referee by hand.
	Overridden bool `json:"overridden" example:"false"`
	// How many times it was reopened after closing.
	Reopened int `json:"reopened" example:"0"`
	// When play of the round started (POST …/start); absent before. What tells a table late before any deal is in.
	StartedAt *time.Time `json:"started_at,omitempty" format:"date-time"`
	// The tournament's version this was read at.
	Version int64 `json:"version" example:"48"`
} // @name TournamentRound

// TournamentRedrawReason is why a round was drawn again: the score
// correction of a table of an earlier round, with the referee's reason.
type TournamentRedrawReason struct {
	// The corrected table.
	Round int `json:"round" example:"2"`
	Table int `json:"table" example:"4"`
	// The reason the referee gave for the correction.
	Reason string `json:"reason" example:"EW's burraco was counted twice"`
} // @name TournamentRedrawReason

// TournamentRoundList is the rounds drawn, oldest first.
type TournamentRoundList struct {
	Items []TournamentRound `json:"items"`
	// The latest round drawn (0 before the first) and the rounds planned.
	CurrentRound  int   `json:"current_round" example:"2"`
	PlannedRounds int   `json:"planned_rounds" example:"4"`
	Version       int64 `json:"version" example:"48"`
} // @name TournamentRoundList

// side is one side of a table: a pair or team's entry (teams: pair
// number pair's players), or two players' entries of an individual event.
func (v playView) side(pairEntry int64, pair int, a, b int64) *TournamentSide {
	out := &TournamentSide{Entries: []TournamentEntryRef{}, Players: []TournamentPlayer{}}
	for _, id := range []int64{pairEntry, a, b} {
		if id == 0 {
			continue
		}
		out.Entries = append(out.Entries, *v.ref(id))
		if e, ok := v.entry(id); ok {
			out.Players = append(out.Players, v.players(v.seated(e, pair))...)
		}
	}
	if len(out.Entries) == 0 {
		return nil
	}
	return out
}

// seated is the players of entry e who sit at a table: a team's pair
// number pair, else all of them.
func (v playView) seated(e tourney.Entry, pair int) []int64 {
	t := v.read.Tournament
	if t.Kind != domain.TeamsTournament || pair < 1 {
		return e.Players
	}
	k := t.PlayersPerTable / 2
	lo, hi := (pair-1)*k, pair*k
	if hi > len(e.Players) {
		return nil
	}
	return e.Players[lo:hi]
}

func (v playView) tableOut(round int, t tourney.TableView) TournamentTable {
	res := t.Result
	return TournamentTable{Round: round, Number: t.Number, Group: t.Group, Match: t.Match, Pair: t.Pair, OnlineTable: t.OnlineTable,
		NS: v.side(t.NS, t.Pair, t.N, t.S), EW: v.side(t.EW, t.Pair, t.E, t.W),
		Version: t.Sheet.Version, PlannedDeals: t.Sheet.PlannedDeals, Deals: mapSlice(t.Sheet.Deals, dealOut),
		Rulings: mapSlice(t.Rulings, v.rulingOut),
		Result: TournamentResult{MPNS: res.MPNS, MPEW: res.MPEW, VPNS: res.VPNS, VPEW: res.VPEW, Deals: res.Deals,
			Complete: res.Complete, Final: res.Final, DecidedBy: res.DecidedBy, Left: v.ref(res.Left),
			Absent: v.ref(res.Absent), Winner: v.ref(res.Winner)}}
}

func (v playView) rulingOut(r tourney.RulingRecord) TournamentRuling {
	return TournamentRuling{Seq: r.Seq, At: r.At, By: r.By, Kind: r.Kind, Entry: v.ref(r.Entry), Deals: r.Deals, Reason: r.Reason}
}

func (v playView) roundOut(r tourney.RoundView) TournamentRound {
	out := TournamentRound{Number: r.Number, Phase: r.Phase, Status: r.Status, Byes: v.refs(r.Byes), Draws: r.Draws,
		Overridden: r.Overridden, Reopened: r.Reopened, Version: v.snap.Seq, Rule: r.Rule,
		Tables: mapSlice(r.Tables, func(t tourney.TableView) TournamentTable { return v.tableOut(r.Number, t) }), StartedAt: r.StartedAt}
	if rd := r.Redraw; rd != nil {
		out.Redrawn, out.RedrawnAt = true, &rd.At
		out.RedrawReason = &TournamentRedrawReason{Round: rd.Round, Table: rd.Table, Reason: rd.Reason}
	}
	for _, m := range r.Matches {
		out.Matches = append(out.Matches, TournamentMatch{Match: m.Match, A: v.ref(m.A), B: v.ref(m.B), MPA: m.MPA, MPB: m.MPB,
			VPA: m.VPA, VPB: m.VPB, Left: v.ref(m.Left), Absent: v.ref(m.Absent)})
	}
	for i, id := range r.Bracket {
		out.Bracket = append(out.Bracket, TournamentBracketSlot{Slot: i + 1, Entry: v.ref(id)})
	}
	return out
}

// rounds lists the rounds drawn; latest keeps only the last of them.
func (v playView) rounds(latest bool) TournamentRoundList {
	rs := v.snap.Rounds
	if latest && len(rs) > 1 {
		rs = rs[len(rs)-1:]
	}
	return TournamentRoundList{Items: mapSlice(rs, v.roundOut), CurrentRound: v.snap.CurrentRound,
		PlannedRounds: v.snap.PlannedRounds, Version: v.snap.Seq}
}

// TournamentDrawRequest draws the next round. The body may be left out.
type TournamentDrawRequest struct {
	// The round to draw; absent means the next one. Naming it makes a retry without an Idempotency-Key harmless: it is refused instead of drawing the round after.
	Round int `json:"round,omitempty" minimum:"1" example:"3"`
	// The first round of a phase whose groups are made by hand (docs/PHASES.md): the groups, A first, as lists of entry numbers (as on the table cards). Every entry still in exactly once; refused (422 bad_groups) on any other draw.
	Groups [][]int `json:"groups,omitempty"`
} // @name TournamentDrawRequest

// TournamentPairingTable is a table set by hand: NS against EW (pairs and
// teams), or N and S against E and W (individual events).
type TournamentPairingTable struct {
	Number int   `json:"number" example:"1"`
	NS     int64 `json:"ns,omitempty" example:"3"`
	EW     int64 `json:"ew,omitempty" example:"8"`
	N      int64 `json:"n,omitempty" example:"3"`
	S      int64 `json:"s,omitempty" example:"8"`
	E      int64 `json:"e,omitempty" example:"5"`
	W      int64 `json:"w,omitempty" example:"1"`
} // @name TournamentPairingTable

// TournamentPairingsRequest sets a round's pairings by hand (referees and
// directors, with a reason): the next round instead of a draw, or the
// current one while its pairings are published and no score is in.
// Validated: every entry once, no forbidden pair, byes only as an odd field
// needs. Not for a knockout.
type TournamentPairingsRequest struct {
	// Pairs and teams: ns and ew; individual events: n, s, e and w (entry ids).
	Tables []TournamentPairingTable `json:"tables"`
	// The entries sitting out.
	Byes   []int64 `json:"byes,omitempty" example:"11"`
	Reason string  `json:"reason" example:"pair 4 and 9 are family"`
	// The first round of a phase with groups (docs/PHASES.md): the groups, A first, as lists of entry numbers, replacing those the phase would make; absent: the phase's own (hand groups must be given). Refused (422 bad_groups) in any other round.
	Groups [][]int `json:"groups,omitempty"`
} // @name TournamentPairingsRequest

func (req TournamentPairingsRequest) command(round int, individual bool) tourney.OverridePairings {
	c := tourney.OverridePairings{Round: round, Byes: req.Byes, Reason: req.Reason, Groups: req.Groups}
	for _, t := range req.Tables {
		if individual {
			c.Foursomes = append(c.Foursomes, pairing.Foursome{Number: t.Number, N: t.N, S: t.S, E: t.E, W: t.W})
		} else {
			c.Tables = append(c.Tables, pairing.Table{Number: t.Number, NS: t.NS, EW: t.EW})
		}
	}
	return c
}

// TournamentReasonRequest gives the reason of a referee's action.
type TournamentReasonRequest struct {
	Reason string `json:"reason" example:"table 3's result was entered on the wrong sheet"`
} // @name TournamentReasonRequest
