package domain_test

import (
	"encoding/json"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// TestStoredOptionsOfEveryRuleSetStayReadable: tournaments stored before
// options were held to their rule sets (RULES §11) hold every option key,
// those that do not apply included. Reading them back must not make the
// tournament invalid: a later change of its name or set-up still works, and
// the rules still count as unchanged.
func TestStoredOptionsOfEveryRuleSetStayReadable(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner := f.user("owner@example.com")
		c := f.club(owner, "Club")
		tm := f.advance(owner, f.tournament(owner, c.ID, "Old"), domain.TournamentRegistrationOpen)

		// What the engine wrote before: every key, with fibur's values.
		old := `{"semi_clean":true,"semi_clean_set":"exactly8","pot_penalty_if_neither":true,` +
			`"closing_discard":"no_wild","direction":"clockwise","target":2005,"vulnerability":false,` +
			`"joker_points":30,"jokers":true,"canastra_bonus":"100/200","round_up_10":false,` +
			`"aberto_sets":"none","real_canastra":false}`
		if _, err := engine.ParseOptions(engine.Fibur, []byte(old)); err == nil {
			t.Fatal("the engine accepts keys of other rule sets: this test no longer tests anything")
		}
		err := f.db.InTx(ctx, func(tx domain.Tx) error {
			stored, err := tx.Tournaments().Get(tm.ID)
			if err != nil {
				return err
			}
			stored.Options = json.RawMessage(old)
			return tx.Tournaments().Update(stored)
		})
		if err != nil {
			t.Fatal(err)
		}

		name, rounds := "Renamed", 6
		got, err := f.svc.Tournaments.Update(ctx, owner, tm.ID, domain.TournamentPatch{Name: &name, Setup: domain.SetupInput{Rounds: &rounds}})
		if err != nil {
			t.Fatalf("update of a tournament with old stored options: %v", err)
		}
		if got.Name != name || got.Rounds != rounds {
			t.Errorf("got %q, %d rounds", got.Name, got.Rounds)
		}
		read, err := f.svc.Tournaments.Get(ctx, owner, tm.ID)
		if err != nil {
			t.Fatal(err)
		}
		var keys map[string]any
		if err := json.Unmarshal(read.Options, &keys); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"canastra_bonus", "round_up_10", "aberto_sets", "real_canastra"} {
			if _, ok := keys[k]; ok {
				t.Errorf("a fibur tournament read back shows %s: %s", k, read.Options)
			}
		}
	})
}
