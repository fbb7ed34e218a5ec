package api

import (
	"encoding/json"
	"time"

	"github.com/burraco/burraco/domain"
)

// MatchFormat says when a table's match ends (RULES §10).
type MatchFormat struct {
	// A fixed number of deals (0: play to the target).
	Deals int `json:"deals,omitempty" minimum:"0" maximum:"50" example:"0"`
	// The target score; with deals 0 and no target, the options' target.
	Target int `json:"target,omitempty" minimum:"0" maximum:"1000000" example:"2005"`
	// Fixed deals: a tie is broken by tie-break deals (to a target they always are).
	RequireWinner bool `json:"require_winner,omitempty" example:"false"`
} // @name MatchFormat

// TableCreateRequest creates an online table.
type TableCreateRequest struct {
	Rules string `json:"rules" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	// Options that differ from the rule set's defaults.
	Options *TableOptionsInput `json:"options,omitempty"`
	// 4 (two pairs) or 2; fibur-row is played by 2.
	Players int `json:"players" enums:"2,4" example:"4"`
	// Absent: a match to the options' target.
	Match *MatchFormat `json:"match,omitempty"`
	// Only the club's members may sit.
	ClubID *int64 `json:"club_id,omitempty" example:"1"`
	// Not listed in the lobby; reachable with its invite code.
	Private bool `json:"private,omitempty" example:"false"`
	// Start as soon as the last seat is taken.
	AutoStart bool `json:"auto_start,omitempty" example:"false"`
	// Seconds per turn (tempo di mossa), 0 or 5..3600.
	TurnSeconds int `json:"turn_seconds,omitempty" minimum:"0" maximum:"3600" example:"0"`
	// Seconds per player for the whole match (tempo di sfida), 0 or 60..86400.
	MatchSeconds int `json:"match_seconds,omitempty" minimum:"0" maximum:"86400" example:"0"`
	// A time bank per player, with a turn clock: 0 (none) or 10..86400 seconds. A turn's overrun of turn_seconds
	// is drawn from the player's bank, and the unused part of a turn's turn_seconds goes back into it, never above
	// bank_seconds; the turn times out when the bank is empty.
	BankSeconds int `json:"bank_seconds,omitempty" minimum:"0" maximum:"86400" example:"0"`
	// Seconds a player on turn may make no move before their team forfeits the match (abandonment):
	// absent means 300, 0 turns it off, else 30..86400. A shorter turn clock plays the turn for them instead.
	GraceSeconds *int `json:"grace_seconds,omitempty" minimum:"0" maximum:"86400" example:"300"`
	// What the end of grace_seconds does to a player on turn who made no move: forfeit (their team loses the
	// match) or bot (a bot plays their turns until they come back, and they take the seat back at their next
	// turn). Absent means forfeit.
	AbsentPolicy string `json:"absent_policy,omitempty" enums:"forfeit,bot" example:"bot"`
	// The reconnect window: seconds a seated player may be gone (no poll, no event stream, no move) before the
	// others may claim the match (POST …/claim). Absent means 120; else 10..86400.
	ReconnectSeconds *int `json:"reconnect_seconds,omitempty" minimum:"10" maximum:"86400" example:"120"`
	// What a claim after the reconnect window gives: win (the gone player's team loses; a draw may be claimed
	// instead), draw, bot (a bot stands in for the gone player, as absent_policy bot) or none (no claims). Absent
	// means win.
	ClaimPolicy string `json:"claim_policy,omitempty" enums:"win,draw,bot,none" example:"win"`
	// The match's time limit (a tournament round's), in the future: once it passes, the server calls the
	// referee's time-out (RULES §10) and the match ends with that deal, the team ahead winning (equal: a draw).
	Deadline *time.Time `json:"deadline,omitempty" format:"date-time"`
	// The match moves its players' ratings (GET /api/v1/ratings): no bot may sit (rated_with_bots), and it rates
	// only if it ends with a result and no bot ever stood in for anyone. Absent means false (a friendly match).
	Rated bool `json:"rated,omitempty" example:"false"`
	// The creator's seat; absent means seat 0.
	Seat *int `json:"seat,omitempty" minimum:"0" maximum:"3" example:"0"`
	// The creator only watches (takes no seat).
	Spectate bool `json:"spectate,omitempty" example:"false"`
} // @name TableCreateRequest

func (req TableCreateRequest) input() domain.TableInput {
	in := domain.TableInput{Rules: domain.RuleSet(req.Rules), Options: req.Options.raw(), Players: req.Players,
		ClubID: req.ClubID, Private: req.Private, AutoStart: req.AutoStart, TurnSeconds: req.TurnSeconds,
		MatchSeconds: req.MatchSeconds, BankSeconds: req.BankSeconds, GraceSeconds: req.GraceSeconds, Seat: req.Seat, Spectate: req.Spectate,
		AbsentPolicy: domain.AbsentPolicy(req.AbsentPolicy), Deadline: req.Deadline,
		ReconnectSeconds: req.ReconnectSeconds, ClaimPolicy: domain.ClaimPolicy(req.ClaimPolicy)}
	in.Rated = req.Rated
	if req.Match != nil {
		in.Match = domain.MatchFormat{Deals: req.Match.Deals, Target: req.Match.Target, RequireWinner: req.Match.RequireWinner}
	}
	return in
}

// SeatRequest chooses a seat; absent means the first free one.
type SeatRequest struct {
	Seat *int `json:"seat,omitempty" minimum:"0" maximum:"3" example:"1"`
	// The invite code of a private table.
	Invite string `json:"invite,omitempty" example:"5f0c6a1e9b2d4c7f8a3e1b0d2c4f6a8e"`
} // @name SeatRequest

// StandInRequest is a referee's replacement of a seat's player by a bot.
type StandInRequest struct {
	// The seat, from 0.
	Seat *int `json:"seat" minimum:"0" maximum:"3" example:"1"`
	// Why: kept on the seat while the bot stands in.
	Reason string `json:"reason" maxLength:"500" example:"lost connection, table 4"`
} // @name StandInRequest

// TableSeat is one seat of a table.
type TableSeat struct {
	Seat   int    `json:"seat" example:"0"`
	UserID *int64 `json:"user_id,omitempty" example:"7"`
	// The user's name, "bot" for the built-in bot, empty when free.
	Name string `json:"name" example:"Sara"`
	Bot  bool   `json:"bot" example:"false"`
	// Set while a bot plays this user's turns: absent (no move within the grace period, absent_policy bot) or
	// referee (a referee replaced the player, with stand_in_reason).
	StandIn       string `json:"stand_in,omitempty" enums:"absent,referee" example:"absent"`
	StandInReason string `json:"stand_in_reason,omitempty" example:"lost connection, table 4"`
	// The player is back: they take the seat back at their next turn.
	Returning bool `json:"returning,omitempty" example:"false"`
} // @name TableSeat

// Table is an online table.
type Table struct {
	ID int64 `json:"id" example:"1"`
	// The user who created it; 0 for a tournament's online table, which belongs to the tournament.
	CreatorID int64        `json:"creator_id" example:"7"`
	ClubID    *int64       `json:"club_id,omitempty" example:"1"`
	Rules     string       `json:"rules" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	Options   TableOptions `json:"options"`
	Players   int          `json:"players" enums:"2,4" example:"4"`
	Match     MatchFormat  `json:"match"`
	Private   bool         `json:"private" example:"false"`
	// Shown only to the creator and the seated players: share it to invite.
	InviteCode   string `json:"invite_code,omitempty" example:"5f0c6a1e9b2d4c7f8a3e1b0d2c4f6a8e"`
	AutoStart    bool   `json:"auto_start" example:"false"`
	TurnSeconds  int    `json:"turn_seconds" example:"0"`
	MatchSeconds int    `json:"match_seconds" example:"0"`
	// Each player's time bank at the start (0: none): see TableCreateRequest.
	BankSeconds int `json:"bank_seconds,omitempty" example:"60"`
	// Seconds a player on turn may make no move before their team forfeits (0: never).
	GraceSeconds int `json:"grace_seconds" example:"300"`
	// What the end of grace_seconds does: forfeit, or a bot stands in.
	AbsentPolicy string `json:"absent_policy" enums:"forfeit,bot" example:"forfeit"`
	// Seconds a seated player may be gone before the others may claim the match.
	ReconnectSeconds int `json:"reconnect_seconds" example:"120"`
	// What a claim after the reconnect window gives: win (or a draw, if claimed), draw, bot (a bot stands in) or none.
	ClaimPolicy string `json:"claim_policy" enums:"win,draw,bot,none" example:"win"`
	// The match's time limit, when it has one.
	Deadline *time.Time `json:"deadline,omitempty" format:"date-time"`
	// The deadline passed: the time-out was called, and the match ends with the deal it was called in.
	DeadlinePassed bool `json:"deadline_passed,omitempty" example:"false"`
	// open (seats being filled) → playing → finished; or open → cancelled (closed before the start, see cancelled).
	Status    string `json:"status" enums:"open,playing,finished,cancelled" example:"open"`
	FreeSeats int    `json:"free_seats" example:"3"`
	// Grows with every change clients can see.
	Version int64 `json:"version" example:"1"`
	// The current (or last) deal, from 1; 0 before the start.
	DealNumber int `json:"deal_number" example:"0"`
	// The winning team (0: seats 0 and 2; 1: seats 1 and 3) once finished.
	Winner *int `json:"winner,omitempty" example:"0"`
	Draw   bool `json:"draw" example:"false"`
	// The seat whose match clock ran out, when that decided the match.
	LostOnTime *int `json:"lost_on_time,omitempty" example:"1"`
	// How the finished match was decided: played (over its deals), lost_on_time (a match clock ran out),
	// abandoned (a player left it, or made no move within grace_seconds: their team lost), claimed (a player was
	// gone past reconnect_seconds and the others claimed it: a win, see winner, or a draw) or aborted (ended
	// before any player's move, someone being gone: no winner, no draw, no result).
	Result string `json:"result,omitempty" enums:"played,lost_on_time,abandoned,claimed,aborted" example:"played"`
	// The seat that abandoned the match, for result abandoned; the gone seat claimed against, for result claimed.
	AbandonedBy *int `json:"abandoned_by,omitempty" example:"2"`
	// Why a cancelled table was: its creator cancelled it, its last player left it (empty), or it was not started
	// within the server's open-table TTL (expired); finished_at is when.
	Cancelled string      `json:"cancelled,omitempty" enums:"creator,empty,expired" example:"creator"`
	Seats     []TableSeat `json:"seats"`
	// A table a round of a tournament played online opened: which table of which round it plays (its deals are written into that sheet).
	Tournament *TableTournament `json:"tournament,omitempty"`
	CreatedAt  time.Time        `json:"created_at" format:"date-time"`
	UpdatedAt  time.Time        `json:"updated_at" format:"date-time"`
	StartedAt  *time.Time       `json:"started_at,omitempty" format:"date-time"`
	FinishedAt *time.Time       `json:"finished_at,omitempty" format:"date-time"`
	// The match moves its players' ratings.
	Rated bool `json:"rated" example:"false"`
	// Once the match is over and a player asked to play again: who asked, and the new table once everyone agreed.
	Rematch *TableRematch `json:"rematch,omitempty"`
} // @name Table

// TableRematch is the rematch of a finished table (POST /api/v1/tables/{id}/rematch).
type TableRematch struct {
	// The seats whose players asked for the rematch (a bot always agrees).
	Wishes []int `json:"wishes" example:"0,1"`
	// The table the rematch is played at, once every player agreed.
	TableID *int64 `json:"table_id,omitempty" example:"42"`
} // @name TableRematch

// TableTournament names the tournament table an online table plays.
type TableTournament struct {
	ID    int64 `json:"id" example:"3"`
	Round int   `json:"round" example:"2"`
	Table int   `json:"table" example:"4"`
} // @name TableTournament

func tableOut(t domain.Table) Table {
	out := Table{ID: t.ID, CreatorID: t.CreatorID, ClubID: t.ClubID, Rules: string(t.Rules), Options: tableOptions(t.Options),
		Players: t.Players,
		Match:   MatchFormat{Deals: t.Match.Deals, Target: t.Match.Target, RequireWinner: t.Match.RequireWinner},
		Private: t.Private, InviteCode: t.InviteCode, AutoStart: t.AutoStart, TurnSeconds: t.TurnSeconds,
		MatchSeconds: t.MatchSeconds, BankSeconds: t.BankSeconds, GraceSeconds: t.GraceSeconds, Status: string(t.Status), FreeSeats: t.FreeSeats,
		Version: t.Version, DealNumber: t.DealNumber, Winner: t.Winner, Draw: t.Draw, LostOnTime: t.LostOnTime,
		Result: string(t.Result), AbandonedBy: t.AbandonedBy, Cancelled: string(t.Cancelled), CreatedAt: t.CreatedAt,
		AbsentPolicy: string(t.AbsentPolicy), ReconnectSeconds: t.ReconnectSeconds, ClaimPolicy: string(t.ClaimPolicy),
		Deadline: t.Deadline, DeadlinePassed: t.DeadlinePassed,
		UpdatedAt: t.UpdatedAt, StartedAt: t.StartedAt, FinishedAt: t.FinishedAt}
	if tt := t.Tournament; tt != nil {
		out.Tournament = &TableTournament{ID: tt.ID, Round: tt.Round, Table: tt.Table}
	}
	out.Rated = t.Rated
	if len(t.RematchWishes) > 0 || t.RematchID != nil {
		out.Rematch = &TableRematch{Wishes: append([]int{}, t.RematchWishes...), TableID: t.RematchID}
	}
	out.Seats = mapSlice(t.Seats, func(s domain.Seat) TableSeat {
		name := s.UserName
		if s.Bot {
			name = "bot"
		}
		return TableSeat{Seat: s.Seat, UserID: s.UserID, Name: name, Bot: s.Bot, StandIn: string(s.StandIn),
			StandInReason: s.StandInReason, Returning: s.Returning}
	})
	return out
}

// TableList is one page of the lobby.
type TableList struct {
	Items  []Table `json:"items"`
	Total  int     `json:"total" example:"1"`
	Limit  int     `json:"limit" example:"20"`
	Offset int     `json:"offset" example:"0"`
} // @name TableList

// MoveNotation is a move in the engine's JSON notation (as in the
// conformance cases): {"move":"attach","meld":0,"cards":["5H"]}.
type MoveNotation struct {
	Move string `json:"move" enums:"draw,pickup,meld,attach,discard,redraw" example:"discard"`
	// discard: the card.
	Card *string `json:"card,omitempty" example:"KS"`
	// attach: the index of the team's meld; fechado pickup: the cards laid with the top card.
	Meld json.RawMessage `json:"meld,omitempty" swaggertype:"object"`
	// fechado pickup: attach the top card to this meld.
	Attach *int `json:"attach,omitempty" example:"0"`
	// meld and attach: the cards.
	Cards []string `json:"cards,omitempty" example:"5H,6H,7H"`
	// meld (several at once) and pickup: each meld's cards.
	Melds [][]string `json:"melds,omitempty"`
	// The card a wild stands for, when ambiguous.
	WildAs *string `json:"wild_as,omitempty" example:"8H"`
	// fibur-row: the card comes from the row.
	Row bool `json:"row,omitempty" example:"false"`
} // @name MoveNotation

// MoveRequest plays a move: the move's notation and the version the
// client saw (or send If-Match with the state's ETag instead).
type MoveRequest struct {
	MoveNotation
	Version int64 `json:"version,omitempty" example:"12"`
} // @name MoveRequest

// LastMove is the last move played in the current deal.
type LastMove struct {
	Seat int          `json:"seat" example:"2"`
	Move MoveNotation `json:"move"`
	// Played by the server: a bot seat or a time-out.
	Auto bool `json:"auto" example:"false"`
	// Who chose the move: the seat's player, a bot (a bot's seat, or a bot standing in for the player) or
	// the turn clock (a time-out).
	By string    `json:"by" enums:"player,bot,clock" example:"player"`
	At time.Time `json:"at" format:"date-time"`
} // @name LastMove

// TeamScore is one team's score of a deal (RULES §7a).
type TeamScore struct {
	Cards   int `json:"cards" example:"230"`
	Bonus   int `json:"bonus" example:"200"`
	Closing int `json:"closing" example:"100"`
	Hand    int `json:"hand" example:"0"`
	Pot     int `json:"pot" example:"0"`
	Total   int `json:"total" example:"530"`
} // @name TeamScore

// TableDeal is one deal of a table.
type TableDeal struct {
	Number   int  `json:"number" example:"1"`
	Dealer   int  `json:"dealer" example:"3"`
	TieBreak bool `json:"tie_break" example:"false"`
	// Per team, once the deal has ended.
	Score     []TeamScore `json:"score,omitempty"`
	StartedAt time.Time   `json:"started_at" format:"date-time"`
	EndedAt   *time.Time  `json:"ended_at,omitempty" format:"date-time"`
} // @name TableDeal

func tableDealOut(d domain.DealScore) TableDeal {
	out := TableDeal{Number: d.Number, Dealer: d.Dealer, TieBreak: d.TieBreak, StartedAt: d.StartedAt, EndedAt: d.EndedAt}
	if d.Score != nil {
		out.Score = teamScoresOut(d.Score)
	}
	return out
}

// TableDealList lists a table's deals.
type TableDealList struct {
	Items []TableDeal `json:"items"`
} // @name TableDealList

// MeldView is a meld on the table.
type MeldView struct {
	Cards []string `json:"cards" example:"5H,6H,7H"`
	Kind  string   `json:"kind" enums:"sequence,set" example:"sequence"`
	// Index of the wild in cards, -1 when clean.
	Wild    int    `json:"wild" example:"-1"`
	Burraco string `json:"burraco,omitempty" enums:"clean,semi_clean,dirty"`
	Bonus   int    `json:"bonus,omitempty" example:"0"`
} // @name MeldView

// LegalSummary says what the seat on turn may do now.
type LegalSummary struct {
	CanDraw    bool `json:"can_draw"`
	CanPickup  bool `json:"can_pickup"`
	CanMeld    bool `json:"can_meld"`
	CanAttach  bool `json:"can_attach"`
	CanDiscard bool `json:"can_discard"`
	CanClose   bool `json:"can_close"`
	CanRedraw  bool `json:"can_redraw"`
	// Points the team's first melds must reach together (0: none).
	MeldMinimum int `json:"meld_minimum,omitempty"`
} // @name LegalSummary

// DealView is the running deal as one seat sees it (the engine's View):
// the seat's own hand and everything public. A spectator (seat -1) sees no
// hand.
type DealView struct {
	Rules   string       `json:"rules" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	Options TableOptions `json:"options"`
	Players int          `json:"players" example:"4"`
	Seat    int          `json:"seat" example:"0"`
	Team    int          `json:"team" example:"0"`
	Dealer  int          `json:"dealer" example:"3"`
	Turn    int          `json:"turn" example:"0"`
	Phase   string       `json:"phase" enums:"take,play,over" example:"take"`
	// The seat's own hand ([] when empty); absent for a spectator.
	Hand      []string `json:"hand,omitzero" validate:"optional" example:"AS,5H,JK"`
	HandSizes []int    `json:"hand_sizes" example:"11,11,11,11"`
	// fibur-row: each seat's face-up row, next card first.
	Rows  [][]string   `json:"rows,omitempty"`
	Melds [][]MeldView `json:"melds"`
	// The discard pile, bottom first (fechado: only pile_top).
	Pile        []string `json:"pile,omitempty"`
	PileTop     *string  `json:"pile_top,omitempty"`
	PileSize    int      `json:"pile_size" example:"1"`
	StockSize   int      `json:"stock_size" example:"39"`
	PotsLeft    int      `json:"pots_left" example:"2"`
	PotTaken    []bool   `json:"pot_taken"`
	PotUnplayed []bool   `json:"pot_unplayed"`
	// The match totals per team when this deal started (the finished deals' sum): what the deal's
	// scoring builds on.
	StartTotals []int `json:"start_totals" example:"530,240"`
	// Deprecated: start_totals under its old name, until the next release: still sent, but optional, so that a
	// client does not come to depend on it.
	Totals    []int `json:"totals" validate:"optional" example:"530,240"`
	FirstTurn bool  `json:"first_turn"`
	LastTurn  bool  `json:"last_turn"`
	// After a referee's time-out: the deal ends after the turn of seat until; turns_left counts the turns still to play.
	LastRound *LastRound `json:"last_round,omitempty"`
	Over      bool       `json:"over"`
	// How the deal ended: closed, stock (exhausted), referee (ended by the server: a match clock ran out or a player
	// left), timeout (the last round after a referee's time-out was played).
	End    string       `json:"end,omitempty" enums:"closed,stock,referee,timeout"`
	Closer *int         `json:"closer,omitempty"`
	Score  []TeamScore  `json:"score,omitempty"`
	Legal  LegalSummary `json:"legal"`
} // @name DealView

// LastRound is the last round of turns after a referee's time-out (RULES §10).
type LastRound struct {
	// The seat whose turn (its discard) ends the deal.
	Until int `json:"until" example:"2"`
	// The turns still to play, the one in progress included.
	TurnsLeft int `json:"turns_left" example:"3"`
} // @name LastRound

// TableState is a table as the caller sees it, for polling: send its ETag
// back in If-None-Match, or poll with ?since=version&wait=seconds.
type TableState struct {
	Table   Table `json:"table"`
	Version int64 `json:"version" example:"12"`
	// The caller's seat, -1 for a spectator.
	Seat int `json:"seat" example:"0"`
	// The current deal; absent before the start.
	Deal     *TableDeal `json:"deal,omitempty"`
	View     *DealView  `json:"view,omitempty"`
	LastMove *LastMove  `json:"last_move,omitempty"`
	// The finished deals with their scores.
	Deals []TableDeal `json:"deals"`
	// The match totals per team over the finished deals: the match so far.
	MatchTotals []int `json:"match_totals" example:"530,240"`
	// Deprecated: match_totals under its old name, until the next release: still sent, but optional, so that a
	// client does not come to depend on it.
	Totals []int `json:"totals" validate:"optional" example:"530,240"`
	// Seconds left in the current turn, when the table has a turn clock.
	TurnSecondsLeft *float64 `json:"turn_seconds_left,omitempty" example:"42.5"`
	// Seconds left per seat in the match, when the table has a match clock.
	MatchSecondsLeft []float64 `json:"match_seconds_left,omitempty"`
	// Seconds left per seat in its time bank, when the table has one (the seat on turn's less its turn's overrun
	// of turn_seconds).
	BankSecondsLeft []float64 `json:"bank_seconds_left,omitempty"`
	// Each seated player's presence when this state was answered (absent at a finished or cancelled table, and
	// when the server has not this table in memory). It changes without a new version: the ETag and since do not
	// cover it (a 304 does not say it is unchanged), so read it from each 200, or poll without since.
	Presence []SeatPresence `json:"presence,omitempty"`
} // @name TableState

// SeatPresence is whether a seated player is at the table: present while
// they hold a long poll or event stream open on it, or ended one (polled,
// moved, claimed or aborted) less than 10 seconds ago; gone otherwise. Each server process
// knows the requests it serves: with several processes, send a table's
// requests to one of them.
type SeatPresence struct {
	Seat  int    `json:"seat" example:"1"`
	State string `json:"state" enums:"present,gone" example:"gone"`
	// present: since when without a break; gone: when last seen (or when the server began to count, or the player
	// sat, if later).
	Since time.Time `json:"since" format:"date-time"`
	// gone, at a playing table: when the reconnect window ends (since plus reconnect_seconds, from the match's
	// start at the earliest): the others may claim from then.
	WindowEnds *time.Time `json:"window_ends,omitempty" format:"date-time"`
} // @name SeatPresence

// TableClaimRequest claims a match whose opponent is gone past the window.
type TableClaimRequest struct {
	// win, draw or bot; absent: what the table's claim_policy gives.
	Result string `json:"result,omitempty" enums:"win,draw,bot" example:"win"`
} // @name TableClaimRequest

func presenceOut(ps []domain.SeatPresence) []SeatPresence {
	return mapSlice(ps, func(p domain.SeatPresence) SeatPresence {
		out := SeatPresence{Seat: p.Seat, State: "gone", Since: p.Since.UTC(), WindowEnds: p.WindowEnds}
		if p.Present {
			out.State = "present"
		}
		if out.WindowEnds != nil {
			end := out.WindowEnds.UTC()
			out.WindowEnds = &end
		}
		return out
	})
}

func tableStateOut(s domain.TableState) TableState {
	out := tableStateRestOut(s)
	out.Table = tableOut(s.Table)
	return out
}

// tableStateRestOut is tableStateOut without its table (encodeState
// takes the table's encoding from those kept).
func tableStateRestOut(s domain.TableState) TableState {
	out := TableState{Version: s.Table.Version, Seat: s.Seat, MatchTotals: s.Totals,
		Deals: mapSlice(s.Deals, tableDealOut), TurnSecondsLeft: s.TurnLeft, MatchSecondsLeft: s.MatchLeft, BankSecondsLeft: s.BankLeft}
	if out.MatchTotals == nil {
		out.MatchTotals = []int{}
	}
	out.Totals = out.MatchTotals
	if len(s.Presence) > 0 {
		out.Presence = presenceOut(s.Presence)
	}
	if s.Deal != nil {
		d := tableDealOut(*s.Deal)
		out.Deal = &d
	}
	if s.View != nil {
		v := dealViewOut(s.View)
		out.View = &v
	}
	if s.LastMove != nil {
		out.LastMove = lastMoveOut(s.LastMove)
	}
	return out
}

// RecordMove is one move of a deal record: the seat, the move's notation,
// when it was played and whether the server played it.
type RecordMove struct {
	Seat int `json:"seat" example:"0"`
	MoveNotation
	At time.Time `json:"at" format:"date-time"`
	// Played by the server: a bot seat or a time-out (as a PlayedMove's auto).
	Auto bool `json:"auto" example:"false"`
	// Who chose the move: the seat's player, a bot (a bot's seat, or a bot standing in for the player) or
	// the turn clock (a time-out).
	By string `json:"by" enums:"player,bot,clock" example:"player"`
} // @name RecordMove

// DealtCards is a deal's cards as dealt (engine.DealtCards), in card
// notation: the deal's position before its first move.
type DealtCards struct {
	// Per seat, in the order received.
	Hands [][]string `json:"hands"`
	// fibur-row: each seat's face-up row, next card first.
	Rows [][]string `json:"rows,omitempty"`
	// The discard pile, bottom first: the card turned up in the Italian games, empty in the Brazilian.
	Discard []string `json:"discard" example:"7H"`
	// The pots (pozzetti), the one taken first first.
	Pots [][]string `json:"pots"`
	// The stock (tallone), top first: the next card drawn first.
	Stock []string `json:"stock" example:"QS,4D,JK"`
} // @name DealtCards

// DealRecord is a finished deal's record: the engine.Record JSON that
// `burraco replay` reads (which ignores at and auto).
type DealRecord struct {
	Rules   string       `json:"rules" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	Options TableOptions `json:"options"`
	Players int          `json:"players" example:"4"`
	Dealer  int          `json:"dealer" example:"3"`
	// The shuffle's seed, a uint64 in decimal.
	Seed string `json:"seed" example:"18446744073709551615"`
	// The cards the seed dealt: with them a client rebuilds the deal without the server's engine. Absent from
	// records written before they were kept; `burraco replay` refuses cards that are not what the seed deals.
	Cards  *DealtCards  `json:"cards,omitempty"`
	Totals []int        `json:"totals,omitempty"`
	Moves  []RecordMove `json:"moves"`
	// The referee's time-out was called after this many moves (0: before the first); absent when not called.
	TimeoutAt *int `json:"timeout_at,omitempty" example:"57"`
	// The deal was ended by the server (a match clock ran out, or a player left), not played out.
	EndedByReferee bool `json:"ended_by_referee,omitempty" example:"false"`
} // @name DealRecord

func dealRecordOut(r domain.DealRecord) DealRecord {
	out := convertJSON[DealRecord](r.Record)
	for i := range out.Moves {
		out.Moves[i].By = string(domain.ByPlayer) // by and auto are required: a move the server played says so below
		if i < len(r.Times) {
			out.Moves[i].At, out.Moves[i].Auto = r.Times[i], r.Auto[i]
			if r.By[i] != "" {
				out.Moves[i].By = string(r.By[i])
			}
		}
	}
	return out
}

// convertJSON converts v to T through its JSON form: for the engine's
// values, whose JSON the api's documented types mirror.
func convertJSON[T any](v any) T {
	var out T
	b, err := json.Marshal(v)
	if err == nil {
		_ = json.Unmarshal(b, &out)
	}
	return out
}
