package domain

import (
	"cmp"
	"fmt"
)

// Played says where a tournament's rounds are played (issue 17).
type Played string

// Where a tournament is played.
const (
	PlayedLive   Played = "live"   // at real tables, on score sheets entered by hand
	PlayedOnline Played = "online" // at online tables, scored by the engine
)

// OnlineSettings is how an online tournament's tables play. Every table a
// round creates takes them (onlineTableOf).
type OnlineSettings struct {
	// TurnSeconds is the per-turn limit (tempo di mossa); 0: none.
	TurnSeconds int `json:"turn_seconds"`
	// RoundSeconds is the round's time limit: when it runs out the RULES
	// §10 time-out is called at every unfinished table; 0: none.
	RoundSeconds int `json:"round_seconds"`
	// Absent is what happens to a player away on their turn for
	// GraceSeconds (the tables' policy): AbsentBot, a bot stands in until
	// they come back; AbsentForfeit, their side forfeits the table (RULES
	// §10 abandonment).
	Absent       AbsentPolicy `json:"absent"`
	GraceSeconds int          `json:"grace_seconds"`
	// ReconnectSeconds and Claim are the tables' reconnect window and
	// claim policy (issue 29): a claim there is a bot standing in (bot, the
	// default), the gone side's forfeit on the sheet (win), or none. No
	// draw: a sheet takes a forfeit, not an agreed draw. Settings stored
	// before them read 0 and "": the defaults.
	ReconnectSeconds int         `json:"reconnect_seconds,omitempty"`
	Claim            ClaimPolicy `json:"claim,omitempty"`
	// StaffWatch lets the tournament's referees and directors watch its
	// tables live.
	StaffWatch bool `json:"staff_watch"`
}

// Limits of the online settings.
const (
	MinTurnSeconds     = 10
	MaxTurnSeconds     = 3600
	MinRoundSeconds    = 60
	MaxRoundSeconds    = 24 * 3600
	DefaultOnlineGrace = 120
	DefaultOnlineClaim = ClaimBot
)

// DefaultOnlineSettings are the settings of an online tournament when none
// are given: no clocks, a bot stands in after two minutes away, the staff
// may watch.
func DefaultOnlineSettings() OnlineSettings {
	return OnlineSettings{Absent: AbsentBot, GraceSeconds: DefaultOnlineGrace, StaffWatch: true,
		ReconnectSeconds: DefaultReconnectSeconds, Claim: DefaultOnlineClaim}
}

// PlayedOnline reports whether the tournament is played online.
func (s TournamentSetup) PlayedOnline() bool { return s.Played == PlayedOnline }

// applyOnline sets where the tournament is played and the online settings
// given (absent ones defaulted); a tournament played online without
// settings gets the defaults. Settings given to a live tournament are kept
// for when it is played online.
func applyOnline(s *TournamentSetup, in SetupInput) {
	setIf(&s.Played, in.Played, nil)
	if s.Played == "" {
		s.Played = PlayedLive
	}
	if in.Online != nil {
		o := *in.Online
		if o.Absent == "" {
			o.Absent = AbsentBot
		}
		if o.GraceSeconds == 0 {
			o.GraceSeconds = DefaultOnlineGrace
		}
		o.ReconnectSeconds = cmp.Or(o.ReconnectSeconds, DefaultReconnectSeconds)
		o.Claim = cmp.Or(o.Claim, DefaultOnlineClaim)
		s.Online = &o
	}
	if s.Online == nil && s.Played == PlayedOnline {
		o := DefaultOnlineSettings()
		s.Online = &o
	}
}

// checkOnline records every invalid field of where the tournament is
// played: played itself and each online setting (codes: invalid,
// out_of_range).
func checkOnline(v *Validator, s *TournamentSetup) {
	v.Check(s.Played == PlayedLive || s.Played == PlayedOnline, "played", "invalid", "played must be live or online")
	o := s.Online
	if o == nil {
		return
	}
	v.Check(o.TurnSeconds == 0 || o.TurnSeconds >= MinTurnSeconds && o.TurnSeconds <= MaxTurnSeconds,
		"online.turn_seconds", "out_of_range", fmt.Sprintf("turn_seconds must be 0 (no limit) or %d to %d", MinTurnSeconds, MaxTurnSeconds))
	v.Check(o.RoundSeconds == 0 || o.RoundSeconds >= MinRoundSeconds && o.RoundSeconds <= MaxRoundSeconds,
		"online.round_seconds", "out_of_range", fmt.Sprintf("round_seconds must be 0 (no limit) or %d to %d", MinRoundSeconds, MaxRoundSeconds))
	v.Check(o.Absent == AbsentBot || o.Absent == AbsentForfeit, "online.absent", "invalid", "absent must be bot or forfeit")
	v.Check(o.GraceSeconds >= MinGraceSeconds && o.GraceSeconds <= MaxClockSeconds, "online.grace_seconds", "out_of_range",
		fmt.Sprintf("grace_seconds must be %d to %d", MinGraceSeconds, MaxClockSeconds))
	v.Check(o.ReconnectSeconds == 0 || o.ReconnectSeconds >= MinReconnectSeconds && o.ReconnectSeconds <= MaxClockSeconds, "online.reconnect_seconds",
		"out_of_range", fmt.Sprintf("reconnect_seconds must be 0 (the default, %d) or %d to %d", DefaultReconnectSeconds, MinReconnectSeconds, MaxClockSeconds))
	v.Check(o.Claim == "" || o.Claim == ClaimWin || o.Claim == ClaimBot || o.Claim == ClaimNone, "online.claim", "invalid",
		"claim must be win, bot or none (a sheet takes no claimed draw)")
}
