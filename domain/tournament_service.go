package domain

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/burraco/burraco/engine"
)

// tournamentService implements TournamentService.
type tournamentService struct {
	st     Storage
	now    func() time.Time
	random io.Reader // lots seeds: crypto/rand unless a test injects one
	stamps *tournamentStamps
}

// errTournamentNotFound is also the answer about a draft the actor may not
// see, so that its existence does not leak.
var errTournamentNotFound = Errorf(ENotFound, "tournament not found")

// Create implements TournamentService: the tournament starts as a draft.
func (s *tournamentService) Create(ctx context.Context, actor Actor, clubID int64, in TournamentInput) (Tournament, error) {
	if actor.Anonymous() {
		return Tournament{}, errLoginRequired
	}
	t := Tournament{ClubID: clubID, Name: strings.TrimSpace(in.Name), Description: strings.TrimSpace(in.Description),
		Rules: in.Rules, PlayersPerTable: valueOr(in.PlayersPerTable, 0), Kind: in.Kind,
		DealsPerRound: valueOr(in.DealsPerRound, DefaultDealsPerRound), StartsAt: valueOr(in.StartsAt, time.Time{}),
		Status: TournamentDraft, TournamentSetup: defaultSetup(in.Kind, valueOr(in.Setup.Movement, defaultMovement(in.Kind)))}
	applySetup(&t.TournamentSetup, in.Setup, t.Kind)
	absent := absentFields{players: in.PlayersPerTable == nil, startsAt: in.StartsAt == nil}
	seed, err := randomUint64(s.random)
	if err != nil {
		return Tournament{}, err
	}
	t.LotsSeed = seed
	err = s.st.InTx(ctx, func(tx Tx) error {
		if _, err := accessFor(tx, actor).clubToManage(clubID, readClub); err != nil {
			return err
		}
		if err := checkTournament(&t, in.Options, in.Setup, absent); err != nil {
			return err
		}
		t.CreatedAt = s.now()
		t.UpdatedAt = t.CreatedAt
		return tx.Tournaments().Create(&t)
	})
	if err != nil {
		return Tournament{}, err
	}
	return t, nil
}

// valueOr is *p, or def when p is nil.
func valueOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// absentFields names the required fields of a new tournament that the
// client left out (and whose zero value in Tournament means nothing).
type absentFields struct{ players, startsAt bool }

// checkTournament validates t, collecting every field error, and sets its
// Options to the complete options object that options (the organiser's
// choices) gives over the rule set's defaults. It normalises StartsAt to
// the stored precision (UTC, microseconds).
func checkTournament(t *Tournament, options json.RawMessage, setup SetupInput, absent absentFields) error {
	var v Validator
	validateTournament(&v, t, options, setup, absent)
	return v.Err()
}

// validateTournament is checkTournament's work: it records every invalid
// field in v.
func validateTournament(v *Validator, t *Tournament, options json.RawMessage, setup SetupInput, absent absentFields) {
	checkText(v, "name", t.Name, true, MaxNameLength)
	checkText(v, "description", t.Description, false, MaxDescriptionLength)
	var game Validator
	checkGame(&game, t, options, absent.players)
	v.fields = append(v.fields, game.fields...)
	switch {
	case t.Kind == "":
		v.Add("kind", "required", "kind is required: pairs, teams or individual")
	case !t.Kind.Valid():
		v.Add("kind", "invalid", "kind must be pairs, teams or individual")
	case t.Kind == IndividualTournament && t.PlayersPerTable == 2 && game.Err() == nil && t.Status == TournamentDraft:
		v.Add("players_per_table", "invalid", "an individual event needs 4 players per table: partners change each round")
	}
	v.Check(t.DealsPerRound >= MinDealsPerRound && t.DealsPerRound <= MaxDealsPerRound, "deals_per_round", "out_of_range",
		fmt.Sprintf("deals_per_round must be %d, %d or %d (RULES §10)", MinDealsPerRound, MinDealsPerRound+1, MaxDealsPerRound))
	switch {
	case absent.startsAt:
		v.Add("starts_at", "required", "starts_at is required")
	case t.StartsAt.Year() < 1970 || t.StartsAt.Year() > 9999:
		v.Add("starts_at", "out_of_range", "starts_at must be between the years 1970 and 9999")
	}
	t.StartsAt = t.StartsAt.UTC().Truncate(time.Microsecond)
	// A frozen set-up cannot be mended, only kept (checkTournamentChange):
	// checking it would lock a tournament stored under older rules (2-deal
	// rounds without a VP table, say) out of a change of its name.
	if t.Status.SetupEditable() {
		validateSetup(v, t, setup)
	}
}

// checkGame validates what decides how the tournament's tables play, with
// the engine's own checks and messages: the rule set, the players per table
// for it, and the options for it, which it normalises. Absent players are
// required, not checked.
func checkGame(v *Validator, t *Tournament, options json.RawMessage, playersAbsent bool) {
	switch {
	case t.Rules == "":
		v.Add("rules", "required", "rules is required: one of "+ruleSetList())
	case !slices.Contains(engine.RuleSets(), t.Rules):
		_, err := engine.NewRules(t.Rules, t.PlayersPerTable)
		v.Add("rules", "invalid", ruleMessage(err)+"; one of "+ruleSetList())
	}
	known := slices.Contains(engine.RuleSets(), t.Rules)
	switch {
	case playersAbsent:
		v.Add("players_per_table", "required", "players_per_table is required: the players per table, 2 or 4")
	case !known:
		// Without a rule set, the players can only be held to the general
		// rule (2 or 4), and the options not at all.
		if _, err := engine.NewRules(engine.Fibur, t.PlayersPerTable); err != nil {
			v.Add("players_per_table", "invalid", ruleMessage(err))
		}
	default:
		if _, err := engine.NewRules(t.Rules, t.PlayersPerTable); err != nil {
			v.Add("players_per_table", "invalid", ruleMessage(err))
		}
	}
	if !known {
		return
	}
	o, err := engine.ParseOptions(t.Rules, options)
	if err == nil {
		t.Options, err = json.Marshal(o)
	}
	if err != nil {
		v.Add("options", "invalid", ruleMessage(err))
	}
}

// Get implements TournamentService.
func (s *tournamentService) Get(ctx context.Context, actor Actor, id int64) (Tournament, error) {
	var t Tournament
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		t, err = visibleTournament(accessFor(tx, actor), id)
		return err
	})
	return t, err
}

// visibleTournament loads a tournament the actor may see. Errors: ENotFound.
func visibleTournament(a *access, id int64) (Tournament, error) {
	t, err := a.tx.Tournaments().Get(id)
	if err != nil {
		return t, err
	}
	t.Options = storedOptions(t.Rules, t.Options)
	if ok, err := a.canSeeTournament(t); err != nil || !ok {
		return Tournament{}, orDenied(err, errTournamentNotFound)
	}
	return t, nil
}

// editableTournament loads and locks a tournament the actor may manage.
// Errors: ENotFound (also a draft the actor may not see), EForbidden.
func editableTournament(a *access, id int64) (Tournament, error) {
	t, err := a.tx.Tournaments().Lock(id)
	if err != nil {
		return Tournament{}, err
	}
	t.Options = storedOptions(t.Rules, t.Options)
	ok, err := a.canManageTournament(t)
	switch {
	case err != nil:
		return Tournament{}, err
	case ok:
		return t, nil
	case !t.Public():
		return Tournament{}, errTournamentNotFound
	}
	return Tournament{}, Errorf(EForbidden, "you need the %s role in the tournament's club", RoleAdmin)
}

// List implements TournamentService: public tournaments, and the drafts of
// the clubs the actor manages.
func (s *tournamentService) List(ctx context.Context, actor Actor, f TournamentFilter) (Page[Tournament], error) {
	f.Query = strings.TrimSpace(f.Query)
	var v Validator
	v.Check(f.ClubID == nil || *f.ClubID > 0, "club_id", "invalid", "club_id must be a positive id")
	v.Check(f.Status == "" || f.Status.Valid(), "status", "invalid", "status must be one of "+statusList())
	checkText(&v, "q", f.Query, false, MaxQueryLength) // named as the query parameter the client sent
	checkPage(&v, &f.Limit, &f.Offset)
	if err := v.Err(); err != nil {
		return Page[Tournament]{}, err
	}
	page := Page[Tournament]{Limit: f.Limit, Offset: f.Offset}
	err := s.st.View(ctx, func(tx Tx) error {
		drafts, err := accessFor(tx, actor).visibleDrafts()
		if err != nil {
			return err
		}
		page.Items, page.Total, err = tx.Tournaments().List(f, drafts)
		for i, t := range page.Items {
			page.Items[i].Options = storedOptions(t.Rules, t.Options)
		}
		return err
	})
	return page, err
}

// Update implements TournamentService.
func (s *tournamentService) Update(ctx context.Context, actor Actor, id int64, p TournamentPatch) (Tournament, error) {
	if actor.Anonymous() {
		return Tournament{}, errLoginRequired
	}
	var t Tournament
	err := s.st.InTx(ctx, func(tx Tx) error {
		old, err := editableTournament(accessFor(tx, actor), id)
		if err != nil {
			return err
		}
		t = old
		if err := checkTournamentPatch(&t, p); err != nil {
			return err
		}
		if err := checkTournamentChange(old, t); err != nil {
			return err
		}
		t.UpdatedAt = s.now()
		return tx.Tournaments().Update(t)
	})
	s.stamps.changed(id)
	if err != nil {
		return Tournament{}, err
	}
	return t, nil
}

// checkTournamentPatch applies p to t and validates the result, listing
// every invalid field (the status among them).
func checkTournamentPatch(t *Tournament, p TournamentPatch) error {
	options := t.Options
	if p.Rules != nil && *p.Rules != t.Rules {
		options = nil // the new rule set's defaults
	}
	if p.Options != nil {
		options = p.Options
	}
	setIf(&t.Name, p.Name, strings.TrimSpace)
	setIf(&t.Description, p.Description, strings.TrimSpace)
	setIf(&t.Rules, p.Rules, nil)
	setIf(&t.PlayersPerTable, p.PlayersPerTable, nil)
	setIf(&t.Kind, p.Kind, nil)
	setIf(&t.DealsPerRound, p.DealsPerRound, nil)
	setIf(&t.StartsAt, p.StartsAt, nil)
	applySetup(&t.TournamentSetup, p.Setup, t.Kind)
	var v Validator
	validateTournament(&v, t, options, p.Setup, absentFields{})
	switch {
	case p.Status == nil || *p.Status == t.Status:
	case !p.Status.Valid():
		v.Add("status", "invalid", "status must be one of "+statusList())
	default:
		v.Add("status", "lifecycle_action", fmt.Sprintf("the status changes only through the tournament's lifecycle actions "+
			"(open and close registration, start, finish, publish results, cancel), not here; it is %s", t.Status))
	}
	return v.Err()
}

// setIf sets *dst to *src, through norm when it is not nil, unless src is
// nil.
func setIf[T any](dst *T, src *T, norm func(T) T) {
	if src == nil {
		return
	}
	*dst = *src
	if norm != nil {
		*dst = norm(*src)
	}
}

// checkTournamentChange checks the change from old to t: the rule set,
// players per table, options, kind and team pairs change only in a draft
// (players enter knowing them), the rest of the set-up only until the
// tournament runs. Errors: EConflict.
func checkTournamentChange(old, t Tournament) error {
	if old.Status != TournamentDraft && (!sameGame(old, t) || old.Kind != t.Kind || old.TeamPairs != t.TeamPairs) {
		return Errorf(EConflict, "rules, players per table, options, kind and team pairs can change only while the tournament is a draft; it is %s",
			old.Status)
	}
	if !old.Status.SetupEditable() && (old.DealsPerRound != t.DealsPerRound || !reflect.DeepEqual(old.TournamentSetup, t.TournamentSetup)) {
		return Errorf(EConflict, "the set-up (deals per round, movement, rounds, VP table, tie-breaks, rest and abandonment scores, ...) "+
			"can change only until the tournament runs; it is %s", old.Status)
	}
	return nil
}

// sameGame reports whether two versions of a tournament play the same way.
// Options are compared as the engine reads them, not as bytes, so that a
// newer engine's added defaults do not count as a change.
func sameGame(a, b Tournament) bool {
	if a.Rules != b.Rules || a.PlayersPerTable != b.PlayersPerTable {
		return false
	}
	oa, errA := engine.ParseOptions(a.Rules, a.Options)
	ob, errB := engine.ParseOptions(b.Rules, b.Options)
	return errA == nil && errB == nil && oa == ob
}

// storedOptions returns the options object stored for rule set id without
// the keys that do not apply to it; every read of a stored tournament goes
// through it. Tournaments stored before options were
// held to their rule sets (RULES §11) hold every key, with the zero or
// default value of those that do not apply; the engine now refuses such a
// key, and reading it back must not turn a stored tournament invalid.
func storedOptions(id engine.RuleSet, raw json.RawMessage) json.RawMessage {
	var all map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &all) != nil || all == nil {
		return raw // the engine says what is wrong with it
	}
	keep := make(map[string]json.RawMessage, len(all))
	for _, k := range engine.OptionKeys(id) {
		if v, ok := all[k]; ok {
			keep[k] = v
		}
	}
	if len(keep) == len(all) {
		return raw
	}
	out, _ := json.Marshal(keep) // raw JSON values read from JSON: cannot fail
	return out
}

// Delete implements TournamentService.
func (s *tournamentService) Delete(ctx context.Context, actor Actor, id int64) error {
	if actor.Anonymous() {
		return errLoginRequired
	}
	return s.st.InTx(ctx, func(tx Tx) error {
		t, err := editableTournament(accessFor(tx, actor), id)
		if err != nil {
			return err
		}
		if t.Status != TournamentDraft {
			return Errorf(EConflict, "only a draft tournament can be deleted; it is %s", t.Status)
		}
		return tx.Tournaments().Delete(id)
	})
}

// randomUint64 draws a secret seed from random.
func randomUint64(random io.Reader) (uint64, error) {
	var b [8]byte
	if _, err := io.ReadFull(random, b[:]); err != nil {
		return 0, fmt.Errorf("random seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}
