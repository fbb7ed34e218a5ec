package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/tourney"
)

// TournamentLifecycleRequest moves a tournament along its lifecycle:
// draft → registration_open → registration_closed (check-in) → running →
// finished → results_published; cancelled from any status before finished.
type TournamentLifecycleRequest struct {
	// open_registration (directors; from draft, or from registration_closed to reopen it), close_registration (directors),
	// start (referees and directors; from registration_closed), finish (referees and directors; every round closed),
	// publish_results (directors; from finished), cancel (directors, with a reason; before finished).
	Action string `json:"action" enums:"open_registration,close_registration,start,finish,publish_results,cancel" example:"open_registration"`
	// Required to cancel.
	Reason string `json:"reason,omitempty" example:"the hall is not available"`
} // @name TournamentLifecycleRequest

// command is the lifecycle command of the action; false for an unknown one.
func (req TournamentLifecycleRequest) command() (tourney.Command, bool) {
	switch req.Action {
	case "open_registration":
		return tourney.OpenRegistration{}, true
	case "close_registration":
		return tourney.CloseRegistration{}, true
	case "start":
		return tourney.Start{}, true
	case "finish":
		return tourney.Finish{}, true
	case "publish_results":
		return tourney.PublishResults{}, true
	case "cancel":
		return tourney.Cancel{Reason: req.Reason}, true
	}
	return nil, false
}

// TournamentProgressRound is a round's number and status in a tournament's progress. It is named apart from TournamentRound: generators (oapi-codegen) name that schema's inline status enum TournamentRoundStatus.
type TournamentProgressRound struct {
	Number int    `json:"number" example:"1"`
	Status string `json:"status" enums:"pairings_published,playing,closed" example:"closed"`
} // @name TournamentProgressRound

// TournamentProgress is where a tournament is in its life.
type TournamentProgress struct {
	ID     int64  `json:"id" example:"12"`
	Status string `json:"status" enums:"draft,registration_open,registration_closed,running,finished,results_published,cancelled" example:"running"`
	// Why it was cancelled.
	CancelReason string `json:"cancel_reason,omitempty" example:"the hall is not available"`
	// Entries not withdrawn.
	Entries       int                       `json:"entries" example:"16"`
	CurrentRound  int                       `json:"current_round" example:"0"`
	PlannedRounds int                       `json:"planned_rounds" example:"4"`
	Rounds        []TournamentProgressRound `json:"rounds"`
	// The tournament's version: the audit trail's last event.
	Version int64 `json:"version" example:"17"`
} // @name TournamentProgress

func (v playView) progress() TournamentProgress {
	out := TournamentProgress{ID: v.read.Tournament.ID, Status: v.snap.Status, CancelReason: v.snap.CancelReason,
		CurrentRound: v.snap.CurrentRound, PlannedRounds: v.snap.PlannedRounds, Version: v.snap.Seq,
		Rounds: mapSlice(v.snap.Rounds, func(r tourney.RoundView) TournamentProgressRound {
			return TournamentProgressRound{Number: r.Number, Status: r.Status}
		})}
	for _, e := range v.snap.Entries {
		if !e.Withdrawn {
			out.Entries++
		}
	}
	return out
}

// TournamentPenaltyRequest takes VP and/or MP from an entry, with a reason
// (referees and directors, while the tournament runs or is finished).
type TournamentPenaltyRequest struct {
	// The round it is for; absent or 0: a penalty of the event.
	Round int   `json:"round,omitempty" minimum:"0" example:"2"`
	Entry int64 `json:"entry" example:"5"`
	// VP taken off (a positive amount).
	VP int `json:"vp,omitempty" minimum:"0" example:"1"`
	// MP taken off (a positive multiple of 5).
	MP     int    `json:"mp,omitempty" minimum:"0" example:"0"`
	Reason string `json:"reason" example:"slow play"`
} // @name TournamentPenaltyRequest

// TournamentPenalty is a penalty given.
type TournamentPenalty struct {
	Round  int                `json:"round,omitempty" example:"2"`
	Entry  TournamentEntryRef `json:"entry"`
	VP     int                `json:"vp" example:"1"`
	MP     int                `json:"mp" example:"0"`
	Reason string             `json:"reason" example:"slow play"`
} // @name TournamentPenalty

// TournamentPenaltyList is every penalty given, in order.
type TournamentPenaltyList struct {
	Items   []TournamentPenalty `json:"items"`
	Version int64               `json:"version" example:"80"`
} // @name TournamentPenaltyList

func (v playView) penaltyOut(p standings.Penalty) TournamentPenalty {
	return TournamentPenalty{Round: p.Round, Entry: *v.ref(p.Entry), VP: p.VP, MP: p.MP, Reason: p.Reason}
}

// TournamentForbiddenRequest sets the pairs of entries the referee keeps
// apart; it replaces the list. A Mitchell or round robin keeps the list it
// started with (its schedule is fixed at the start).
type TournamentForbiddenRequest struct {
	// Pairs of entry ids: a set, [a,b] is [b,a] and a repeat is dropped.
	Pairs  [][]int64 `json:"pairs"`
	Reason string    `json:"reason,omitempty" example:"same family"`
} // @name TournamentForbiddenRequest

// command is the SetForbidden of the request; a pair that is not two ids
// is invalid_input, every such pair listed.
func (req TournamentForbiddenRequest) command() (tourney.SetForbidden, error) {
	v := domain.Validator{}
	if len(req.Pairs) > tourney.MaxForbiddenPairs { // before listing each bad pair
		v.Add("pairs", "count", fmt.Sprintf("at most %d pairs", tourney.MaxForbiddenPairs))
		return tourney.SetForbidden{}, v.Err()
	}
	c := tourney.SetForbidden{Pairs: make([][2]int64, 0, len(req.Pairs)), Reason: req.Reason}
	for i, p := range req.Pairs {
		if len(p) != 2 {
			v.Add(fmt.Sprintf("pairs[%d]", i), "count", "a pair is two entry ids")
			continue
		}
		c.Pairs = append(c.Pairs, [2]int64{p[0], p[1]})
	}
	return c, v.Err()
}

// TournamentForbidden is the pairs of entries kept apart.
type TournamentForbidden struct {
	Pairs   [][]TournamentEntryRef `json:"pairs"`
	Version int64                  `json:"version" example:"9"`
} // @name TournamentForbidden

func (v playView) forbidden() TournamentForbidden {
	return TournamentForbidden{Version: v.snap.Seq, Pairs: mapSlice(v.snap.Forbidden, func(p [2]int64) []TournamentEntryRef {
		return []TournamentEntryRef{*v.ref(p[0]), *v.ref(p[1])}
	})}
}

// TournamentStanding is one entry's place in the standings.
type TournamentStanding struct {
	// Shared by entries tied on every criterion.
	Rank    int                `json:"rank" example:"1"`
	Entry   TournamentEntryRef `json:"entry"`
	Players []TournamentPlayer `json:"players"`
	// Victory points, after VP penalties.
	VP int `json:"vp" example:"52"`
	// A tournament in phases, in a phase's overall standings: the VP carried into the phase (included in vp).
	CarriedVP int `json:"carried_vp,omitempty" example:"26"`
	MPFor     int `json:"mp_for" example:"5210"`
	MPAgainst int `json:"mp_against" example:"4105"`
	// After MP penalties.
	MPDifference int `json:"mp_difference" example:"1105"`
	PenaltyVP    int `json:"penalty_vp" example:"0"`
	PenaltyMP    int `json:"penalty_mp" example:"0"`
	// Rounds the entry scored: played at a table, and byes (byes says how many of them were byes).
	Played      int `json:"played" example:"4"`
	Byes        int `json:"byes" example:"0"`
	OpponentsVP int `json:"opponents_vp" example:"170"`
	// The entry's lot in the recorded draw (1 is best), shown once the tournament is finished.
	Lot int `json:"lot,omitempty" example:"3"`
	// The criterion that put this entry ahead of the next one; absent when tied with it, or last. lots is shown only once the tournament is finished: before, rows apart by lots alone show no ahead_by and share their rank.
	AheadBy string `json:"ahead_by,omitempty" enums:"vp,mp_difference,mp_for,head_to_head,opponents_vp,lots" example:"mp_difference"`
	// The row counts a table that is not final: deals entered and not yet confirmed, or a table with deals still to play. Its VP and MP may still change.
	Provisional bool `json:"provisional" example:"false"`
} // @name TournamentStanding

// TournamentStandings are the standings as they stand: what a hall screen
// polls (ETag from the tournament's version).
type TournamentStandings struct {
	TournamentID int64  `json:"tournament_id" example:"12"`
	Status       string `json:"status" enums:"draft,registration_open,registration_closed,running,finished,results_published,cancelled" example:"running"`
	// Until the tournament is finished with every table final.
	Provisional bool `json:"provisional" example:"true"`
	// Some rows count a table that is not final (unconfirmed deals, or deals still to play): those rows have provisional true.
	ProvisionalRows bool `json:"provisional_rows" example:"false"`
	// The latest round with a result counted.
	AfterRound int `json:"after_round" example:"3"`
	// The tie-break order.
	TieBreaks []string `json:"tie_breaks" example:"vp,mp_difference,head_to_head,opponents_vp,lots"`
	// The seed of the draw of lots (a decimal string), shown once the tournament is finished so that anyone can check the lots.
	LotsSeed string               `json:"lots_seed,omitempty" example:"8410553702451230011"`
	Rows     []TournamentStanding `json:"rows"`
	Version  int64                `json:"version" example:"96"`
} // @name TournamentStandings

// lotsHidden is the snapshot with the draw of lots kept secret (before the
// finish): a row ahead of the next by lots alone shows no ahead_by and
// shares its rank, as rows tied on every criterion do. The shared snapshot
// is not changed: a copy is made only when a row was ahead by lots.
func lotsHidden(snap *tourney.Snapshot) *tourney.Snapshot {
	rows := snap.Standings.Rows
	if !slices.ContainsFunc(rows, func(r standings.Row) bool { return r.AheadBy == standings.ByLots }) {
		return snap
	}
	c := *snap
	c.Standings.Rows = slices.Clone(rows)
	for i := range c.Standings.Rows {
		r := &c.Standings.Rows[i]
		if r.AheadBy == standings.ByLots {
			r.AheadBy = ""
		}
		if i > 0 && c.Standings.Rows[i-1].AheadBy == "" {
			r.Rank = c.Standings.Rows[i-1].Rank
		}
	}
	return &c
}

// finished reports whether the tournament is past play: the lots may be
// shown.
func (v playView) finished() bool {
	return v.snap.Status == tourney.StatusFinished || v.snap.Status == tourney.StatusResultsPublished
}

func (v playView) standingOut(r standings.Row) TournamentStanding {
	out := TournamentStanding{Rank: r.Rank, Entry: *v.ref(r.Entry), VP: r.VP, CarriedVP: r.CarriedVP, MPFor: r.MPFor, MPAgainst: r.MPAgainst,
		MPDifference: r.MPDiff, PenaltyVP: r.PenaltyVP, PenaltyMP: r.PenaltyMP, Played: r.Played, Byes: r.Byes,
		OpponentsVP: r.OpponentsVP, AheadBy: string(r.AheadBy), Players: []TournamentPlayer{},
		Provisional: v.unsettled(r.Entry)}
	if e, ok := v.entry(r.Entry); ok {
		out.Players = v.players(e.Players)
	}
	if v.finished() {
		out.Lot = r.Lot
	}
	return out
}

// unsettled reports whether the entry's row counts a table not final.
func (v playView) unsettled(entry int64) bool {
	_, ok := slices.BinarySearch(v.snap.Standings.Unsettled, entry) // ascending
	return ok
}

func (v playView) standings() TournamentStandings {
	st := v.snap.Standings
	out := TournamentStandings{TournamentID: v.read.Tournament.ID, Status: v.snap.Status, Provisional: st.Provisional,
		AfterRound: st.AfterRound, Version: v.snap.Seq, Rows: mapSlice(st.Rows, v.standingOut), ProvisionalRows: len(st.Unsettled) > 0,
		TieBreaks: mapSlice(st.TieBreaks, func(c standings.Criterion) string { return string(c) })}
	if v.finished() {
		out.LotsSeed = strconv.FormatUint(st.LotsSeed, 10)
	}
	return out
}

// TournamentHistoryLine is one round of an entry as the standings count it.
type TournamentHistoryLine struct {
	Round int `json:"round" example:"1"`
	// The table it played at and its side there; absent for a bye.
	Table int    `json:"table,omitempty" example:"4"`
	Side  string `json:"side,omitempty" enums:"ns,ew" example:"ns"`
	// The opponent; absent for a bye.
	Opponent  *TournamentEntryRef `json:"opponent,omitempty"`
	MPFor     int                 `json:"mp_for" example:"1520"`
	MPAgainst int                 `json:"mp_against" example:"1105"`
	VPFor     int                 `json:"vp_for" example:"13"`
	VPAgainst int                 `json:"vp_against" example:"7"`
	Bye       bool                `json:"bye" example:"false"`
	// This entry abandoned the table (its VP capped).
	Left bool `json:"left" example:"false"`
	// The opponent abandoned the table.
	Deserted bool `json:"deserted" example:"false"`
} // @name TournamentHistoryLine

// TournamentEntryHistory is an entry's place and rounds.
type TournamentEntryHistory struct {
	Entry TournamentEntry `json:"entry"`
	// Its row of the standings; absent for an entry that never played.
	Standing  *TournamentStanding     `json:"standing,omitempty"`
	Lines     []TournamentHistoryLine `json:"lines"`
	Penalties []TournamentPenalty     `json:"penalties"`
	Version   int64                   `json:"version" example:"96"`
} // @name TournamentEntryHistory

func (v playView) history(entry int64) (TournamentEntryHistory, bool) {
	e, ok := v.entry(entry)
	if !ok {
		return TournamentEntryHistory{}, false
	}
	out := TournamentEntryHistory{Entry: v.entryOut(e), Version: v.snap.Seq, Lines: []TournamentHistoryLine{},
		Penalties: []TournamentPenalty{}}
	for _, r := range v.snap.Standings.Rows {
		if r.Entry != entry {
			continue
		}
		row := v.standingOut(r)
		out.Standing = &row
		for _, l := range r.Lines {
			table, side := v.seatOf(l.Round, entry)
			out.Lines = append(out.Lines, TournamentHistoryLine{Round: l.Round, Table: table, Side: side,
				Opponent: v.ref(l.Opponent), MPFor: l.MPFor, MPAgainst: l.MPAgainst, VPFor: l.VPFor,
				VPAgainst: l.VPAgainst, Bye: l.Bye, Left: l.Left, Deserted: l.Deserted})
		}
	}
	for _, p := range v.snap.Penalties {
		if p.Entry == entry {
			out.Penalties = append(out.Penalties, v.penaltyOut(p))
		}
	}
	return out, true
}

// seatOf is the table and side of an entry in round n (0, "" when it sat
// at none).
func (v playView) seatOf(n int, entry int64) (int, string) {
	if n < 1 || n > len(v.snap.Rounds) {
		return 0, ""
	}
	for _, t := range v.snap.Rounds[n-1].Tables {
		switch entry {
		case t.NS, t.N, t.S:
			return t.Number, "ns"
		case t.EW, t.E, t.W:
			return t.Number, "ew"
		}
	}
	return 0, ""
}

// TournamentAuditEvent is one event of a tournament's log: who did what,
// when and why.
type TournamentAuditEvent struct {
	// From 1 with no gaps; the tournament's version is the last one.
	Seq int64     `json:"seq" example:"57"`
	At  time.Time `json:"at" format:"date-time"`
	// The user who gave the command.
	By   int64  `json:"by" example:"9"`
	Kind string `json:"kind" enums:"registration_opened,registration_closed,started,entry_added,entry_updated,checked_in,withdrawn,round_drawn,pairings_overridden,round_started,score_entered,score_confirmed,score_corrected,ruling,penalty,round_closed,round_reopened,finished,results_published,cancelled,forbidden_set,online_tables_opened,deal_played,stand_in" example:"score_corrected"`
	// The event's data, by kind: e.g. score_corrected has round, table, deal (after), before (the deal as it was), redrawn_rounds and kept_rounds.
	Data   map[string]any `json:"data"`
	Reason string         `json:"reason,omitempty" example:"EW's burraco was counted twice"`
} // @name TournamentAuditEvent

// TournamentAuditList is a page of the audit trail, oldest first.
type TournamentAuditList struct {
	Items []TournamentAuditEvent `json:"items"`
	// Pass as after for the next page; absent when this page is the last.
	NextAfter int64 `json:"next_after,omitempty" example:"100"`
} // @name TournamentAuditList

func auditEventOut(e tourney.Event) TournamentAuditEvent {
	data := eventData(e.Data)
	if e.Kind == tourney.EventScoreCorrected {
		// Corrections logged before the lists were always written left
		// them out: a client reads an empty list, never an absent one.
		for _, k := range []string{"redrawn_rounds", "kept_rounds"} {
			if data[k] == nil {
				data[k] = []any{}
			}
		}
	}
	return TournamentAuditEvent{Seq: e.Seq, At: e.At, By: e.By, Kind: e.Kind, Data: data, Reason: e.Reason}
}

// eventData is an event's data as an object, its numbers kept as they are
// written (json.Number), {} when it has none.
func eventData(raw json.RawMessage) map[string]any {
	out := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&out) // the log holds the JSON the tourney package wrote: an object, or nothing
	return out
}
