package tourney

import (
	"fmt"
	"strings"
)

// Kind is the class of a refusal; the service maps it to its own kinds.
type Kind string

// The kinds.
const (
	KindInvalid   Kind = "invalid"   // the command or set-up has bad fields (see Problems)
	KindConflict  Kind = "conflict"  // the state of the tournament forbids it now
	KindForbidden Kind = "forbidden" // the actor may not do it
	KindNotFound  Kind = "not_found" // no such entry, round, table or deal
)

// Error codes, stable: clients switch on them. The package doc lists each
// with its kind.
const (
	CodeInvalidSetup   = "invalid_setup"
	CodeInvalidCommand = "invalid_command"
	CodeBadScore       = "bad_score"
	CodeBadPairings    = "bad_pairings"
	CodeReasonRequired = "reason_required"
	CodeBadEvent       = "bad_event"

	CodeBadTransition    = "bad_transition"
	CodeStaleSheet       = "stale_sheet"
	CodeRoundOpen        = "round_open"
	CodeRoundNotPlaying  = "round_not_playing"
	CodeTableIncomplete  = "table_missing_result"
	CodeNoMoreRounds     = "no_more_rounds"
	CodeNotEnoughEntries = "not_enough_entries"
	CodeAlreadyEntered   = "already_entered"
	CodeDuplicateNumber  = "duplicate_number"
	CodeAlreadyConfirmed = "already_confirmed"
	CodeNothingToConfirm = "nothing_to_confirm"
	CodeTableComplete    = "table_complete"
	CodeTableDecided     = "table_decided"
	CodeUnconfirmedDeals = "unconfirmed_deals"
	CodeLateEntryClosed  = "late_entry_closed"
	CodeUnpairable       = "unpairable"
	CodeKnockoutTied     = "knockout_tied"
	CodeKnockoutLocked   = "knockout_result_locked"
	CodeWithdrawn        = "entry_withdrawn"
	CodeNotLatestRound   = "not_latest_round"
	CodeSeqGap           = "seq_gap"
	CodeOverrideKnockout = "override_knockout"
	CodeRoundHasScores   = "round_has_scores"
	// Phases and groups (docs/PHASES.md).
	CodePhaseNotFinal = "phase_not_final" // seeding a phase before the round before is closed
	CodeGroupTooSmall = "group_too_small" // a group its movement cannot play the phase's rounds in
	CodeBadGroups     = "bad_groups"      // groups given that miss, repeat or invent an entry, or where none are taken
	// CodeOnlineSheet refuses a score entered or confirmed by hand at a
	// tournament played online: the engine writes its sheets.
	CodeOnlineSheet = "online_sheet"

	CodeForbidden   = "forbidden"
	CodeRefereeOnly = "referee_only"
	CodeNotAtTable  = "not_at_table"
	CodeOwnSide     = "own_side"
	CodeNotYours    = "not_your_entry"

	CodeEntryNotFound = "entry_not_found"
	CodeRoundNotFound = "round_not_found"
	CodeTableNotFound = "table_not_found"
	CodeDealNotFound  = "deal_not_found"
	CodePhaseNotFound = "phase_not_found"
	CodeGroupNotFound = "group_not_found"
)

// Problem is one bad field. Field is a path into the command or set-up as
// its JSON spells it (deals[1].ns.pot); Code is stable.
type Problem struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error is every refusal of the package: a Kind the service maps, a stable
// Code, a message for people and, for invalid input, every bad field.
type Error struct {
	Kind     Kind      `json:"kind"`
	Code     string    `json:"code"`
	Message  string    `json:"message"`
	Problems []Problem `json:"problems,omitempty"`
}

func (e *Error) Error() string {
	if len(e.Problems) == 0 {
		return "tourney: " + e.Message
	}
	s := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		s[i] = p.Field + ": " + p.Message
	}
	return "tourney: " + e.Message + ": " + strings.Join(s, "; ")
}

func errf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

func conflict(code, format string, args ...any) *Error {
	return errf(KindConflict, code, format, args...)
}

func forbidden(code, format string, args ...any) *Error {
	return errf(KindForbidden, code, format, args...)
}

func notFound(code, format string, args ...any) *Error {
	return errf(KindNotFound, code, format, args...)
}

// problems collects bad fields.
type problems []Problem

func (ps *problems) add(field, code, format string, args ...any) {
	*ps = append(*ps, Problem{Field: field, Code: code, Message: fmt.Sprintf(format, args...)})
}

// err is nil without problems, else an invalid *Error with code and them.
func (ps problems) err(code, message string) error {
	if len(ps) == 0 {
		return nil
	}
	return &Error{Kind: KindInvalid, Code: code, Message: message, Problems: ps}
}

// Problem codes of fields.
const (
	PRequired     = "required"
	PUnknown      = "unknown_value"
	POutOfRange   = "out_of_range"
	PNotMultiple  = "not_multiple_5"
	PPartsSum     = "parts_sum"
	PTwoClosings  = "two_closings"
	PTimeOutClose = "time_out_closing"
	PDealOrder    = "deal_order"
	PDuplicate    = "duplicate"
	PInvalid      = "invalid"
	PDealCards    = "deal_cards"
	PBadCount     = "count"
	PNotAllowed   = "not_allowed"
	PMissing      = "missing"
)
