package domain_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
)

// TestTournamentRefereesAssignment: the club's admins assign and take off
// referees, who must hold the referee role (or higher) in the club;
// assigning twice changes nothing; anyone who sees the tournament lists
// them.
func TestTournamentRefereesAssignment(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		r := newClubRoles(f)
		public := f.advance(r.owner, f.tournament(r.owner, r.a.ID, "Public"), domain.TournamentRegistrationOpen)
		draft := f.tournament(r.owner, r.a.ID, "Draft")
		outsider := f.user("outsider@x.it")
		t.Run("WhoMayBeAssigned", func(t *testing.T) {
			tests := []struct {
				name string
				user domain.Actor
				want domain.Code
			}{
				{"OKReferee", r.referee, ""},
				{"OKAdmin", r.admin, ""},
				{"OKOwner", r.owner, ""},
				{"ENotARefereeMember", r.member, domain.ENotAReferee},
				{"ENotARefereeOutsider", outsider, domain.ENotAReferee},
				{"ENotARefereeOtherClubOwner", r.otherOwner, domain.ENotAReferee},
				{"ENotARefereeNoSuchUser", domain.Actor{UserID: 424242}, domain.ENotAReferee},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					_, err := f.svc.Tournaments.AssignReferee(ctx, r.admin, public.ID, tt.user.UserID)
					wantCode(t, err, tt.want)
				})
			}
		})
		t.Run("WhoMayAssign", func(t *testing.T) {
			tests := []struct {
				name            string
				actor           domain.Actor
				onPublic, draft domain.Code
			}{
				{"OKOwner", r.owner, "", ""},
				{"OKSiteAdmin", r.root, "", ""},
				{"EForbiddenReferee", r.referee, domain.EForbidden, domain.ENotFound},
				{"EForbiddenMember", r.member, domain.EForbidden, domain.ENotFound},
				{"EForbiddenOtherClubOwner", r.otherOwner, domain.EForbidden, domain.ENotFound},
				{"EUnauthenticatedAnonymous", domain.Actor{}, domain.EUnauthenticated, domain.EUnauthenticated},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					_, err := f.svc.Tournaments.AssignReferee(ctx, tt.actor, public.ID, r.referee.UserID)
					wantCode(t, err, tt.onPublic)
					_, err = f.svc.Tournaments.AssignReferee(ctx, tt.actor, draft.ID, r.referee.UserID)
					wantCode(t, err, tt.draft)
					wantCode(t, f.svc.Tournaments.UnassignReferee(ctx, tt.actor, draft.ID, r.referee.UserID), tt.draft)
				})
			}
		})
		t.Run("ListedByName", func(t *testing.T) {
			refs, err := f.svc.Tournaments.Referees(ctx, domain.Actor{}, public.ID)
			wantCode(t, err, "")
			var got []string
			for _, ref := range refs {
				got = append(got, ref.UserName+":"+string(ref.Role))
				if ref.TournamentID != public.ID || !ref.AssignedAt.Equal(f.clock.Now().Truncate(time.Microsecond)) {
					t.Errorf("referee %+v", ref)
				}
			}
			if diff := cmp.Diff([]string{"admin@a.it:admin", "owner@a.it:owner", "referee@a.it:referee"}, got); diff != "" {
				t.Errorf("referees (-want +got):\n%s", diff)
			}
			_, err = f.svc.Tournaments.Referees(ctx, r.member, draft.ID)
			wantCode(t, err, domain.ENotFound)
		})
		t.Run("UnassignTwiceIsNoError", func(t *testing.T) {
			for range 2 {
				wantCode(t, f.svc.Tournaments.UnassignReferee(ctx, r.admin, public.ID, r.owner.UserID), "")
			}
			refs, _ := f.svc.Tournaments.Referees(ctx, r.admin, public.ID)
			if len(refs) != 2 {
				t.Errorf("%d referees left, want 2", len(refs))
			}
		})
	})
}

// TestCanRefereeTournament: the club's admins and owners, site admins, and
// the assigned referees while they hold the referee role in the club.
func TestCanRefereeTournament(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		r := newClubRoles(f)
		tm := f.advance(r.owner, f.tournament(r.owner, r.a.ID, "Torneo"), domain.TournamentRunning)
		assigned, demoted, gone := f.user("assigned@a.it"), f.user("demoted@a.it"), f.user("gone@a.it")
		for _, u := range []domain.Actor{assigned, demoted, gone} {
			f.member(r.owner, r.a.ID, u, domain.RoleReferee)
			_, err := f.svc.Tournaments.AssignReferee(ctx, r.admin, tm.ID, u.UserID)
			wantCode(t, err, "")
		}
		_, err := f.svc.Clubs.SetRole(ctx, r.owner, r.a.ID, demoted.UserID, domain.RoleMember)
		wantCode(t, err, "")
		wantCode(t, f.svc.Clubs.RemoveMember(ctx, r.owner, r.a.ID, gone.UserID), "")
		tests := []struct {
			name  string
			actor domain.Actor
			want  bool
		}{
			{"Owner", r.owner, true},
			{"Admin", r.admin, true},
			{"SiteAdmin", r.root, true},
			{"AssignedReferee", assigned, true},
			{"UnassignedRefereeMayNot", r.referee, false},
			{"AssignedButDemotedMayNot", demoted, false},
			{"AssignedButLeftTheClubMayNot", gone, false},
			{"MemberMayNot", r.member, false},
			{"OtherClubOwnerMayNot", r.otherOwner, false},
			{"AnonymousMayNot", domain.Actor{}, false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var got bool
				err := f.db.View(ctx, func(tx domain.Tx) (err error) { got, err = domain.CanRefereeTournament(tx, tt.actor, tm); return err })
				wantCode(t, err, "")
				if got != tt.want {
					t.Errorf("may referee: %v, want %v", got, tt.want)
				}
			})
		}
	})
}
