// Package tourney is the pure, event-sourced heart of a live tournament
// (RULES §10): a running tournament is an append-only log of events, and
// its state is the fold of that log.
//
// The service loads a tournament's events, replays them (Replay), decides a
// command against the state (Decide: the event to append, or an *Error),
// appends the event in the same transaction and folds it in (Apply). The
// audit trail is the log (DecodeEvent reads any event's payload); a
// correction recomputes everything after it by construction; the
// tournament's version is the last event's Seq. Decide never changes the
// state and Apply accepts every event Decide made; Apply also re-checks
// what it folds in, so a log that does not fit the set-up is refused, never
// half applied.
//
// The package imports the standard library and domain/vp, domain/pairing and
// domain/standings only. It does no I/O and reads no clock: time and the
// random source come in as arguments, and every draw is recorded in its
// event, so a replay never draws again.
//
// # Lifecycle
//
//	draft → registration_open ⇄ registration_closed → running → finished → results_published
//	any status before finished → cancelled (with a reason)
//
// Rounds, while running: pairings_published (DrawRound or OverridePairings)
// → playing (StartRound) → closed (CloseRound, when every table is final:
// its deals all on the sheet and confirmed, or decided by a ruling);
// ReopenRound takes the latest round back to playing. The next round is
// drawn only when the one before is closed; Finish needs every round
// closed.
//
// # Who may do what
//
// Directors (the club's admins and owners, site admins) open and close
// registration, cancel, and publish results; they may also do everything a
// referee does. Referees and directors (the staff) start the tournament,
// manage entries, draw, override, start, close and reopen rounds, enter
// (confirmed at once), confirm and correct scores, rule and penalise. A
// player enters themself while registration is open, checks in and
// withdraws their own entry before the start, and enters and confirms the
// scores of their own table only: what one side enters, a player of the
// other side or the staff confirms.
//
// # Score sheets
//
// A table's sheet holds its deals: both sides' Parts, each a multiple of 5,
// with Total = Cards + Burraco + Closing − Hand − Pot (Hand and Pot are
// positive amounts taken off; under the Brazilian round_up_10 the total is
// the sum rounded up to 10). At most one side closes; a time-out deal has
// no closing. Plausible ranges, per side and deal, by rule set:
//
//	rule set            cards, hand   burraco (in 50s)  closing  pot
//	fibur, fibur-row    0..1080       0..3000           0|100    0|100
//	reale               0..960        0..7000           0|100    0|100
//	aberto, fechado     0..1080       0..5000           0|100    0|100
//
// and both sides' cards and hand together at most the pack (1080, reale
// 960). Every bad field is listed (Problems, with paths like
// deals[1].ns.pot). Each sheet has a version, the seq of the last event
// that touched it (its draw, an entry, a confirmation, a correction, a
// ruling); score commands carry the version the client saw and a different
// one is refused (stale_sheet) — tables do not share versions, so two
// referees at two tables never conflict.
//
// Provisional standings count every deal on a sheet, entered or confirmed,
// as soon as it is entered; a table's VP are converted from the MP it has
// so far; Standings.Unsettled names the entries whose rows count such a
// table (unconfirmed deals, or deals still to play). They are final when the
// tournament is finished and every round closed. A table an entry left
// (abandonment, withdrawal) shows the capped VP on its sheet too, so every
// view of it agrees with the standings.
//
// # Movements and kinds
//
// Each drawn round records the rule that drew it (RoundView.Rule: Rule*).
// A modified Danish follows RULES §10: no rematch of the previous round,
// older ones allowed, the last round pure Danish; the set-up's
// AvoidRepeatOpponents avoids every earlier opponent while it can.
// Mitchell and round robin are fixed at the start (the order of the
// entries, and the forbidden pairs then known): a withdrawn entry's
// opponents get byes, and they take no late entries. Danish, modified
// Danish and the random draw pair the entries still in, by the standings
// (the first Danish round by seed, then entry number). A knockout seeds a
// bracket (pairing.SeedBracket) and plays to the set-up's target: a table
// is decided when a side has reached it at the end of a deal with the
// totals different; deals played while tied at or past it are tie-break
// deals. A knockout table won scores 1 VP, a bye 1 VP, so the standings
// rank by rounds won. Teams field TeamPairs pairs per match, pair k of each
// team at the match's k-th table; the match's MP are summed and converted
// by the organiser's team table (vp.ConvertTeam). Individual events draw
// partners and tables each round (pairing.Individual); each player scores
// their partnership's result, as a line against the opponent across.
//
// # Phases and groups
//
// A set-up with Phases (phases.go, docs/PHASES.md) plays each phase by
// its own movement, rounds, deals and VP table. Drawing a phase's first
// round seeds it (RoundDrawn.Groups): the entries still in, by the overall
// standings so far, split into groups (serpentine, blocks, club, or the
// director's hand); each group is drawn on its own, table numbers running
// on from the group before. A phase's overall standings count the VP
// carried from the phase before (CarryVP); PhaseStandings reads any phase
// and group. Without phases there is one phase, and nothing of this shows.
//
// # Corrections
//
// CorrectScore replaces a deal and recomputes results and standings. In a
// Danish (pure or modified), the latest round, when drawn on the old
// results and not yet started, is drawn again (RedrawnRounds, with the new
// draw in the event); rounds after the corrected one that are being played
// or closed keep their pairings (KeptRounds); both lists are always in the
// event, empty when there are none. A redrawn round shows it in its view
// (RoundView.Redraw: when, which correction, the reason). In a knockout, a correction
// that changes a winner redraws the next round if only published, and is
// refused once it is played.
//
// # Errors
//
// Every refusal is an *Error with a Kind, a stable Code and, for bad input,
// Problems (Field, Code, Message):
//
//	code                   kind       when
//	invalid_setup          invalid    New: the set-up's problems (also a Mitchell step sharing a factor with the tables, at Start)
//	invalid_command        invalid    a command's fields (entry, ruling, penalty, forbidden pairs), or a body ParseCommand cannot read
//	bad_score              invalid    a score's fields: every bad part of every deal
//	bad_pairings           invalid    an override's problems (pairing.ValidateRound codes)
//	reason_required        invalid    a correction, override, reopening, penalty or cancellation without a reason
//	bad_event              invalid    Apply: an event of an unknown kind or unreadable data
//	bad_transition         conflict   the tournament's status forbids the command
//	stale_sheet            conflict   the sheet's version is not the one the client saw
//	round_open             conflict   drawing or finishing while a round is not closed
//	round_not_playing      conflict   a round command in the wrong round status
//	table_missing_result   conflict   closing a round with a table not final
//	no_more_rounds         conflict   drawing past the planned rounds, or past a knockout's final
//	not_enough_entries     conflict   starting with too few entries
//	already_entered        conflict   a player already in another entry
//	duplicate_number       conflict   an entry number already taken
//	already_confirmed      conflict   entering or confirming a confirmed deal (the referee corrects it)
//	nothing_to_confirm     conflict   no deal waiting for confirmation
//	table_complete         conflict   a deal after the table's last, or a time-out at a finished table
//	table_decided          conflict   scoring or ruling at a table a ruling or withdrawal decided
//	unconfirmed_deals      conflict   a time-out or abandonment while deals wait for confirmation
//	late_entry_closed      conflict   an entry after the late-entry round, or in a fixed schedule
//	unpairable             conflict   the movement cannot pair the field (forbidden pairs, rematches)
//	knockout_tied          conflict   a knockout table left without a winner (time-out while tied, correction in a closed round)
//	knockout_result_locked conflict   a correction changing a winner whose next round is played
//	entry_withdrawn        conflict   checking in or withdrawing a withdrawn entry
//	not_latest_round       conflict   reopening a round that has a round after it
//	seq_gap                conflict   Apply: an event that does not follow the last
//	override_knockout      conflict   overriding a knockout round
//	round_has_scores       conflict   replacing pairings of a round being played; a no-show at a table that played
//	online_sheet           conflict   a score entered or confirmed by hand at a tournament played online
//	phase_not_final        conflict   drawing a phase's first round (its seeding) before the round before is closed
//	group_too_small        conflict   a phase's group its movement cannot play the phase's rounds in
//	bad_groups             invalid    groups given that miss, repeat or invent an entry, of the wrong count, or where none are taken
//	forbidden              forbidden  a director's command by someone else
//	referee_only           forbidden  a staff command by a player
//	not_at_table           forbidden  a player scoring a table they do not sit at
//	own_side               forbidden  a player confirming their own side's entry; a referee correcting, ruling or penalising a match he plays
//	not_your_entry         forbidden  a player entering, checking in or withdrawing an entry not theirs
//	entry_not_found        not_found  no such entry
//	round_not_found        not_found  no such round
//	table_not_found        not_found  no such table in the round
//	deal_not_found         not_found  no such deal on the sheet
//	phase_not_found        not_found  no such phase
//	group_not_found        not_found  no such group in the phase (or the phase not seeded)
package tourney
