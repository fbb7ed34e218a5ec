package domain_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/engine"
)

// tournamentInput is a valid input: a fibur pairs event at 4-player tables.
func tournamentInput(name string) domain.TournamentInput {
	return domain.TournamentInput{Name: name, Rules: engine.Fibur, PlayersPerTable: new(4), Kind: domain.PairsTournament,
		StartsAt: new(time.Date(2026, 4, 18, 15, 0, 0, 0, time.UTC))}
}

// tournament creates a draft tournament in a club, as by.
func (f *fixture) tournament(by domain.Actor, clubID int64, name string) domain.Tournament {
	f.t.Helper()
	t, err := f.svc.Tournaments.Create(f.t.Context(), by, clubID, tournamentInput(name))
	if err != nil {
		f.t.Fatalf("create tournament %s: %v", name, err)
	}
	return t
}

// advance puts a tournament in a lifecycle status (opening it on the way
// unless it stays a draft or is cancelled as one), and returns it as by sees
// it. The lifecycle actions will do this through the event log; until they
// exist the test writes the status (storetest.SetTournamentStatus).
func (f *fixture) advance(by domain.Actor, t domain.Tournament, status domain.TournamentStatus) domain.Tournament {
	f.t.Helper()
	if status == t.Status {
		return t
	}
	storetest.SetTournamentStatus(f.t, f.db, t.ID, string(status), f.clock.Now())
	t, err := f.svc.Tournaments.Get(f.t.Context(), by, t.ID)
	if err != nil {
		f.t.Fatalf("tournament %d in %s: %v", t.ID, status, err)
	}
	return t
}

// clubRoles is club A with an owner, an admin, a referee and a member, club
// B with its owner, and a site admin.
type clubRoles struct {
	owner, admin, referee, member, otherOwner, root domain.Actor
	a, b                                            domain.Club
}

func newClubRoles(f *fixture) clubRoles {
	var r clubRoles
	r.owner, r.admin, r.referee, r.member = f.user("owner@a.it"), f.user("admin@a.it"), f.user("referee@a.it"), f.user("member@a.it")
	r.otherOwner, r.root = f.user("owner@b.it"), f.siteAdmin()
	r.a, r.b = f.club(r.owner, "Circolo A"), f.club(r.otherOwner, "Circolo B")
	f.member(r.owner, r.a.ID, r.admin, domain.RoleAdmin)
	f.member(r.owner, r.a.ID, r.referee, domain.RoleReferee)
	f.member(r.owner, r.a.ID, r.member, domain.RoleMember)
	return r
}

// fieldsOf lists the fields of an EInvalid error as "field:code".
func fieldsOf(t *testing.T, err error) []string {
	t.Helper()
	wantCode(t, err, domain.EInvalid)
	var out []string
	for _, fe := range err.(*domain.Error).Fields {
		out = append(out, fe.Field+":"+fe.Code)
	}
	return out
}

func TestTournamentCreate(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		r := newClubRoles(f)
		tests := []struct {
			name   string
			actor  domain.Actor
			clubID int64
			want   domain.Code
		}{
			{"OKOwner", r.owner, r.a.ID, ""},
			{"OKAdmin", r.admin, r.a.ID, ""},
			{"OKSiteAdmin", r.root, r.a.ID, ""},
			{"EForbiddenReferee", r.referee, r.a.ID, domain.EForbidden},
			{"EForbiddenMember", r.member, r.a.ID, domain.EForbidden},
			{"EForbiddenOtherClubOwner", r.otherOwner, r.a.ID, domain.EForbidden},
			{"EUnauthenticatedAnonymous", domain.Actor{}, r.a.ID, domain.EUnauthenticated},
			{"ENotFoundClub", r.root, 424242, domain.ENotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				in := tournamentInput(" Torneo del " + tt.name + " ")
				in.StartsAt = new(time.Date(2026, 4, 18, 17, 0, 0, 123456789, time.FixedZone("CEST", 2*3600)))
				got, err := f.svc.Tournaments.Create(ctx, tt.actor, tt.clubID, in)
				wantCode(t, err, tt.want)
				if tt.want != "" {
					return
				}
				want := domain.Tournament{ID: got.ID, ClubID: r.a.ID, ClubName: "Circolo A", Name: "Torneo del " + tt.name,
					Rules: engine.Fibur, Options: defaultOptions(t, engine.Fibur), PlayersPerTable: 4, Kind: domain.PairsTournament,
					DealsPerRound: domain.DefaultDealsPerRound, StartsAt: time.Date(2026, 4, 18, 15, 0, 0, 123456000, time.UTC),
					Status: domain.TournamentDraft, TournamentSetup: defaultSetup, LotsSeed: got.LotsSeed,
					CreatedAt: f.clock.Now().UTC().Truncate(time.Microsecond), UpdatedAt: f.clock.Now().UTC().Truncate(time.Microsecond)}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("created (-want +got):\n%s", diff)
				}
				stored, err := f.svc.Tournaments.Get(ctx, tt.actor, got.ID)
				wantCode(t, err, "")
				if diff := cmp.Diff(got, stored); diff != "" {
					t.Errorf("stored (-returned +stored):\n%s", diff)
				}
			})
		}
	})
}

// defaultSetup is the set-up of a pairs tournament created without one: a
// modified Danish of 4 rounds, RULES §10's built-in VP table and tie-break
// order, a bye worth 14 VP and 355 MP.
var defaultSetup = domain.TournamentSetup{Setup: tourney.Setup{Movement: domain.MovementModifiedDanish, Rounds: 4, MitchellStep: 1,
	TargetScore: 2005, RestVP: 14, RestMP: 355}, Played: domain.PlayedLive}

func defaultOptions(t *testing.T, id engine.RuleSet) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(engine.DefaultOptions(id))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTournamentValidation(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner := f.user("owner@x.it")
		c := f.club(owner, "Circolo")
		t.Run("EInvalidListsEveryField", func(t *testing.T) {
			_, err := f.svc.Tournaments.Create(ctx, owner, c.ID, domain.TournamentInput{
				Name: " ", Description: strings.Repeat("x", domain.MaxDescriptionLength+1), PlayersPerTable: new(3),
				Kind: "solo", DealsPerRound: new(9), Options: json.RawMessage(`{"target":"high"}`)})
			want := []string{"name:required", "description:too_long", "rules:required", "players_per_table:invalid",
				"kind:invalid", "deals_per_round:out_of_range", "starts_at:required"}
			if diff := cmp.Diff(want, fieldsOf(t, err)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
		// Absent and zero are told apart: an absent number takes its
		// default or is required; a zero that was given is checked.
		t.Run("EInvalidZeroIsAValue", func(t *testing.T) {
			in := tournamentInput("T")
			in.PlayersPerTable, in.DealsPerRound, in.StartsAt = new(0), new(0), new(time.Time{})
			_, err := f.svc.Tournaments.Create(ctx, owner, c.ID, in)
			want := []string{"players_per_table:invalid", "deals_per_round:out_of_range", "starts_at:out_of_range"}
			if diff := cmp.Diff(want, fieldsOf(t, err)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
		t.Run("EInvalidAbsentIsRequired", func(t *testing.T) {
			in := tournamentInput("T")
			in.PlayersPerTable, in.StartsAt = nil, nil
			_, err := f.svc.Tournaments.Create(ctx, owner, c.ID, in)
			if diff := cmp.Diff([]string{"players_per_table:required", "starts_at:required"}, fieldsOf(t, err)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
		t.Run("AbsentDealsPerRoundIsTheDefault", func(t *testing.T) {
			in := tournamentInput("Default deals")
			in.DealsPerRound = nil
			got, err := f.svc.Tournaments.Create(ctx, owner, c.ID, in)
			wantCode(t, err, "")
			if got.DealsPerRound != domain.DefaultDealsPerRound {
				t.Errorf("deals per round %d, want %d", got.DealsPerRound, domain.DefaultDealsPerRound)
			}
		})
		// The engine decides what a rule set, a player count and an option
		// are; its message is passed on.
		engineMsg := func(err error) string { return err.(*engine.RuleError).Message }
		_, unknownRules := engine.NewRules("poker", 4)
		_, rowOfFour := engine.NewRules(engine.FiburRow, 4)
		_, unknownKey := engine.ParseOptions(engine.Fibur, []byte(`{"bogus":1}`))
		_, badValue := engine.ParseOptions(engine.Fibur, []byte(`{"direction":"sideways"}`))
		_, foreign := engine.ParseOptions(engine.Fibur, []byte(`{"real_canastra":true}`))
		tests := []struct {
			name    string
			rules   engine.RuleSet
			players int
			options string
			field   string
			message string
		}{
			{"EInvalidUnknownRuleSet", "poker", 4, `{"bogus":1}`, "rules", engineMsg(unknownRules)},
			{"EInvalidFiburRowOfFour", engine.FiburRow, 4, ``, "players_per_table", engineMsg(rowOfFour)},
			{"EInvalidUnknownOption", engine.Fibur, 4, `{"bogus":1}`, "options", engineMsg(unknownKey)},
			{"EInvalidUnknownOptionValue", engine.Fibur, 2, `{"direction":"sideways"}`, "options", engineMsg(badValue)},
			{"EInvalidOptionOfAnotherRuleSet", engine.Fibur, 4, `{"real_canastra":true}`, "options", engineMsg(foreign)},
			{"EInvalidOptionsNotAnObject", engine.Reale, 4, `[1]`, "options", ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				in := tournamentInput("T")
				in.Rules, in.PlayersPerTable, in.Options = tt.rules, new(tt.players), json.RawMessage(tt.options)
				_, err := f.svc.Tournaments.Create(ctx, owner, c.ID, in)
				wantCode(t, err, domain.EInvalid)
				fields := err.(*domain.Error).Fields
				if len(fields) != 1 || fields[0].Field != tt.field || !strings.HasPrefix(fields[0].Message, tt.message) {
					t.Errorf("fields %+v, want one on %s: %q", fields, tt.field, tt.message)
				}
			})
		}
		t.Run("OptionsNormalisedOverTheRuleSetDefaults", func(t *testing.T) {
			in := tournamentInput("Fechado")
			in.Rules, in.PlayersPerTable, in.Options = engine.Fechado, new(2), json.RawMessage(` {"target": 1005, "real_canastra": true} `)
			got, err := f.svc.Tournaments.Create(ctx, owner, c.ID, in)
			wantCode(t, err, "")
			want := engine.DefaultOptions(engine.Fechado)
			want.Target, want.RealCanastra = 1005, true
			var o engine.Options
			if err := json.Unmarshal(got.Options, &o); err != nil {
				t.Fatal(err)
			}
			if o != want {
				t.Errorf("options %s, want %+v", got.Options, want)
			}
		})
	})
}

func TestTournamentVisibility(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		r := newClubRoles(f)
		draftA := f.tournament(r.owner, r.a.ID, "Draft A")
		publicA := f.advance(r.owner, f.tournament(r.owner, r.a.ID, "Public A"), domain.TournamentRegistrationOpen)
		draftB := f.tournament(r.otherOwner, r.b.ID, "Draft B")
		finishedB := f.advance(r.otherOwner, f.tournament(r.otherOwner, r.b.ID, "Finished B"), domain.TournamentFinished)
		// Cancelled: public once it had opened, hidden if cancelled as a draft.
		calledOffA := f.advance(r.owner, f.advance(r.owner, f.tournament(r.owner, r.a.ID, "Called off A"), domain.TournamentRegistrationClosed),
			domain.TournamentCancelled)
		neverOpenedB := f.advance(r.otherOwner, f.tournament(r.otherOwner, r.b.ID, "Never opened B"), domain.TournamentCancelled)
		tests := []struct {
			name  string
			actor domain.Actor
			sees  []int64 // in start order (all start at the same time: by id)
		}{
			{"AnonymousSeesPublicOnly", domain.Actor{}, []int64{publicA.ID, finishedB.ID, calledOffA.ID}},
			{"MemberSeesPublicOnly", r.member, []int64{publicA.ID, finishedB.ID, calledOffA.ID}},
			{"RefereeSeesPublicOnly", r.referee, []int64{publicA.ID, finishedB.ID, calledOffA.ID}},
			{"AdminSeesOwnClubDrafts", r.admin, []int64{draftA.ID, publicA.ID, finishedB.ID, calledOffA.ID}},
			{"OtherClubOwnerSeesOwnDraftsOnly", r.otherOwner, []int64{publicA.ID, draftB.ID, finishedB.ID, calledOffA.ID, neverOpenedB.ID}},
			{"SiteAdminSeesEveryDraft", r.root, []int64{draftA.ID, publicA.ID, draftB.ID, finishedB.ID, calledOffA.ID, neverOpenedB.ID}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				page, err := f.svc.Tournaments.List(ctx, tt.actor, domain.TournamentFilter{})
				wantCode(t, err, "")
				if diff := cmp.Diff(tt.sees, ids(page)); diff != "" || page.Total != len(tt.sees) {
					t.Errorf("listed (-want +got), total %d:\n%s", page.Total, diff)
				}
				for _, d := range []domain.Tournament{draftA, draftB, publicA, finishedB, calledOffA, neverOpenedB} {
					_, err := f.svc.Tournaments.Get(ctx, tt.actor, d.ID)
					if slices.Contains(tt.sees, d.ID) {
						wantCode(t, err, "")
					} else {
						wantCode(t, err, domain.ENotFound)
					}
				}
				drafts, err := f.svc.Tournaments.List(ctx, tt.actor, domain.TournamentFilter{Status: domain.TournamentDraft})
				wantCode(t, err, "")
				for _, d := range drafts.Items {
					if !slices.Contains(tt.sees, d.ID) {
						t.Errorf("status=draft lists hidden draft %d", d.ID)
					}
				}
			})
		}
		t.Run("ENotFoundSameAsMissing", func(t *testing.T) {
			_, hidden := f.svc.Tournaments.Get(ctx, r.member, draftA.ID)
			_, missing := f.svc.Tournaments.Get(ctx, r.member, 424242)
			if hidden.(*domain.Error).Message != missing.(*domain.Error).Message {
				t.Errorf("a hidden draft (%v) differs from a missing tournament (%v)", hidden, missing)
			}
		})
	})
}

func ids(p domain.Page[domain.Tournament]) []int64 {
	var out []int64
	for _, t := range p.Items {
		out = append(out, t.ID)
	}
	return out
}

// TestTournamentStatusNotPatchable: the lifecycle moves only by its
// actions. A PATCH may send the current status back (nothing changes); any
// other status is refused with status:lifecycle_action, listed with the
// other bad fields, and changes nothing.
func TestTournamentStatusNotPatchable(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner := f.user("owner@x.it")
		c := f.club(owner, "Circolo")
		for _, from := range []domain.TournamentStatus{domain.TournamentDraft, domain.TournamentRegistrationOpen, domain.TournamentRunning} {
			tm := f.advance(owner, f.tournament(owner, c.ID, "T "+string(from)), from)
			for _, to := range domain.TournamentStatuses {
				name := fmt.Sprintf("%s→%s", from, to)
				t.Run(name, func(t *testing.T) {
					f.clock.Advance(time.Minute)
					desc := "moved " + name
					_, err := f.svc.Tournaments.Update(ctx, owner, tm.ID, domain.TournamentPatch{Status: &to, Description: &desc})
					stored, _ := f.svc.Tournaments.Get(ctx, owner, tm.ID)
					if to == from {
						wantCode(t, err, "")
						if stored.Description != desc || stored.Status != from {
							t.Errorf("the same status sent back: %+v", stored)
						}
						return
					}
					if diff := cmp.Diff([]string{"status:lifecycle_action"}, fieldsOf(t, err)); diff != "" {
						t.Errorf("fields (-want +got):\n%s", diff)
					}
					if stored.Status != from || stored.Description == desc {
						t.Errorf("a refused status changed the tournament: %+v", stored)
					}
				})
			}
		}
		t.Run("EInvalidUnknownStatusListedWithTheRest", func(t *testing.T) {
			tm := f.tournament(owner, c.ID, "Unknown status")
			over, deals := domain.TournamentStatus("published"), 5
			_, err := f.svc.Tournaments.Update(ctx, owner, tm.ID, domain.TournamentPatch{Status: &over, DealsPerRound: &deals})
			if diff := cmp.Diff([]string{"deals_per_round:out_of_range", "status:invalid"}, fieldsOf(t, err)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
	})
}

func TestTournamentFrozenAfterDraft(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner := f.user("owner@x.it")
		c := f.club(owner, "Circolo")
		draft := f.tournament(owner, c.ID, "Draft")
		t.Run("DraftChangesRulesAndResetsOptions", func(t *testing.T) {
			got, err := f.svc.Tournaments.Update(ctx, owner, draft.ID, domain.TournamentPatch{
				Options: json.RawMessage(`{"target":1005}`)})
			wantCode(t, err, "")
			var o engine.Options
			_ = json.Unmarshal(got.Options, &o)
			if o.Target != 1005 {
				t.Fatalf("options %s", got.Options)
			}
			rules, players := engine.Aberto, 2
			got, err = f.svc.Tournaments.Update(ctx, owner, draft.ID, domain.TournamentPatch{Rules: &rules, PlayersPerTable: &players})
			wantCode(t, err, "")
			if got.Rules != engine.Aberto || got.PlayersPerTable != 2 || !cmp.Equal(got.Options, defaultOptions(t, engine.Aberto)) {
				t.Errorf("after a new rule set: %+v, options %s", got, got.Options)
			}
		})
		t.Run("OKChangeRulesBackInTheDraft", func(t *testing.T) {
			rules, players := engine.Fibur, 4
			got, err := f.svc.Tournaments.Update(ctx, owner, draft.ID, domain.TournamentPatch{Rules: &rules, PlayersPerTable: &players})
			wantCode(t, err, "")
			if got.Rules != engine.Fibur || got.Status != domain.TournamentDraft {
				t.Errorf("%+v", got)
			}
		})
		published := f.advance(owner, draft, domain.TournamentRegistrationOpen)
		reale, two, individual := engine.Reale, 2, domain.IndividualTournament
		name, starts := "Renamed", published.StartsAt.Add(time.Hour)
		tests := []struct {
			name  string
			patch domain.TournamentPatch
			want  domain.Code
		}{
			{"EConflictRules", domain.TournamentPatch{Rules: &reale}, domain.EConflict},
			{"EConflictPlayers", domain.TournamentPatch{PlayersPerTable: &two}, domain.EConflict},
			{"EConflictOptions", domain.TournamentPatch{Options: json.RawMessage(`{"target":3000}`)}, domain.EConflict},
			{"EConflictKind", domain.TournamentPatch{Kind: &individual, Setup: domain.SetupInput{Movement: new(domain.MovementRandom)}}, domain.EConflict},
			{"OKSameOptionsSentBack", domain.TournamentPatch{Options: published.Options, Rules: &published.Rules}, ""},
			{"OKDefaultsSpelledOut", domain.TournamentPatch{Options: json.RawMessage(`{"target":2005}`)}, ""},
			{"OKNameAndStart", domain.TournamentPatch{Name: &name, StartsAt: &starts}, ""},
			{"EInvalidBeforeConflict", domain.TournamentPatch{Rules: &reale, Name: ptr("")}, domain.EInvalid},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := f.svc.Tournaments.Update(ctx, owner, published.ID, tt.patch)
				wantCode(t, err, tt.want)
				stored, _ := f.svc.Tournaments.Get(ctx, owner, published.ID)
				if stored.Rules != engine.Fibur || stored.PlayersPerTable != 4 || !cmp.Equal(stored.Options, published.Options) {
					t.Errorf("the game changed: %+v %s", stored, stored.Options)
				}
			})
		}
	})
}

func TestTournamentUpdateDeleteAuthorisation(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		r := newClubRoles(f)
		public := f.advance(r.owner, f.tournament(r.owner, r.a.ID, "Public"), domain.TournamentRegistrationOpen)
		draft := f.tournament(r.owner, r.a.ID, "Draft")
		tests := []struct {
			name        string
			actor       domain.Actor
			onPublic    domain.Code // an update of the published tournament
			onDraft     domain.Code // an update of the draft
			deleteDraft domain.Code // deleting a draft of its own
		}{
			{"OKOwner", r.owner, "", "", ""},
			{"OKAdmin", r.admin, "", "", ""},
			{"OKSiteAdmin", r.root, "", "", ""},
			{"EForbiddenReferee", r.referee, domain.EForbidden, domain.ENotFound, domain.ENotFound},
			{"EForbiddenMember", r.member, domain.EForbidden, domain.ENotFound, domain.ENotFound},
			{"EForbiddenOtherClubOwner", r.otherOwner, domain.EForbidden, domain.ENotFound, domain.ENotFound},
			{"EUnauthenticatedAnonymous", domain.Actor{}, domain.EUnauthenticated, domain.EUnauthenticated, domain.EUnauthenticated},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				desc := "by " + tt.name
				_, err := f.svc.Tournaments.Update(ctx, tt.actor, public.ID, domain.TournamentPatch{Description: &desc})
				wantCode(t, err, tt.onPublic)
				_, err = f.svc.Tournaments.Update(ctx, tt.actor, draft.ID, domain.TournamentPatch{Description: &desc})
				wantCode(t, err, tt.onDraft)
				victim := f.tournament(r.owner, r.a.ID, "Victim of "+tt.name)
				wantCode(t, f.svc.Tournaments.Delete(ctx, tt.actor, victim.ID), tt.deleteDraft)
				_, err = f.svc.Tournaments.Get(ctx, r.owner, victim.ID)
				if tt.deleteDraft == "" {
					wantCode(t, err, domain.ENotFound)
				} else {
					wantCode(t, err, "")
				}
			})
		}
		t.Run("EConflictDeletePublished", func(t *testing.T) {
			wantCode(t, f.svc.Tournaments.Delete(ctx, r.owner, public.ID), domain.EConflict)
		})
		t.Run("ENotFoundDeleteMissing", func(t *testing.T) {
			wantCode(t, f.svc.Tournaments.Delete(ctx, r.root, 424242), domain.ENotFound)
		})
		t.Run("ENotFoundUpdateMissing", func(t *testing.T) {
			_, err := f.svc.Tournaments.Update(ctx, r.root, 424242, domain.TournamentPatch{Name: ptr("x")})
			wantCode(t, err, domain.ENotFound)
		})
	})
}

func TestTournamentList(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		r := newClubRoles(f)
		start := time.Date(2026, 5, 1, 15, 0, 0, 0, time.UTC)
		add := func(by domain.Actor, clubID int64, name string, days int, status domain.TournamentStatus) int64 {
			in := tournamentInput(name)
			in.StartsAt = new(start.AddDate(0, 0, days))
			tm, err := f.svc.Tournaments.Create(ctx, by, clubID, in)
			wantCode(t, err, "")
			return f.advance(by, tm, status).ID
		}
		late := add(r.owner, r.a.ID, "Torneo di Primavera", 10, domain.TournamentRegistrationOpen)
		early := add(r.owner, r.a.ID, "Coppa 100%", 1, domain.TournamentRunning)
		other := add(r.otherOwner, r.b.ID, "Torneo_B", 5, domain.TournamentRegistrationOpen)
		add(r.owner, r.a.ID, "Bozza", 0, domain.TournamentDraft)
		tests := []struct {
			name  string
			f     domain.TournamentFilter
			total int
			want  []int64
		}{
			{"ByStartTime", domain.TournamentFilter{}, 3, []int64{early, other, late}},
			{"Paged", domain.TournamentFilter{Limit: 1, Offset: 1}, 3, []int64{other}},
			{"PastTheEnd", domain.TournamentFilter{Offset: 5}, 3, nil},
			{"ByClub", domain.TournamentFilter{ClubID: &r.a.ID}, 2, []int64{early, late}},
			{"ByStatus", domain.TournamentFilter{Status: domain.TournamentRegistrationOpen}, 2, []int64{other, late}},
			{"ByClubAndStatus", domain.TournamentFilter{ClubID: &r.b.ID, Status: domain.TournamentRunning}, 0, nil},
			{"QueryCaseInsensitive", domain.TournamentFilter{Query: " TORNEO "}, 2, []int64{other, late}},
			{"PercentIsLiteral", domain.TournamentFilter{Query: "0%"}, 1, []int64{early}},
			{"UnderscoreIsLiteral", domain.TournamentFilter{Query: "o_b"}, 1, []int64{other}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				p, err := f.svc.Tournaments.List(ctx, r.member, tt.f)
				wantCode(t, err, "")
				if p.Total != tt.total {
					t.Errorf("total %d, want %d", p.Total, tt.total)
				}
				if diff := cmp.Diff(tt.want, ids(p)); diff != "" {
					t.Errorf("ids (-want +got):\n%s", diff)
				}
				for _, tm := range p.Items {
					if tm.ClubName == "" || len(tm.Options) == 0 {
						t.Errorf("incomplete list item %+v", tm)
					}
				}
			})
		}
		t.Run("EInvalidListsEveryFilter", func(t *testing.T) {
			_, err := f.svc.Tournaments.List(ctx, r.member, domain.TournamentFilter{ClubID: ptr(int64(0)), Status: "over",
				Query: strings.Repeat("q", domain.MaxQueryLength+1), Limit: 101, Offset: -1})
			want := []string{"club_id:invalid", "status:invalid", "q:too_long", "limit:out_of_range", "offset:out_of_range"}
			if diff := cmp.Diff(want, fieldsOf(t, err)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
	})
}
