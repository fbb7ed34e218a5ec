package domain_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
)

func TestPlayerCreate(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner, admin, member, outsider := f.user("owner@x.it"), f.user("admin@x.it"), f.user("member@x.it"), f.user("out@x.it")
		root := f.siteAdmin()
		c := f.club(owner, "Circolo")
		other := f.club(outsider, "Altro")
		f.member(owner, c.ID, admin, domain.RoleAdmin)
		f.member(owner, c.ID, member, domain.RoleMember)
		tests := []struct {
			name  string
			actor domain.Actor
			in    domain.PlayerInput
			want  domain.Code
		}{
			{"OKOwnProfile", member, domain.PlayerInput{Name: "Mara", UserID: &member.UserID}, ""},
			{"OKOwnProfileInOwnClub", admin, domain.PlayerInput{Name: "Adi", UserID: &admin.UserID, ClubID: &c.ID}, ""},
			{"OKClubAdminUnlinked", admin, domain.PlayerInput{Name: "Guest", ClubID: &c.ID, FederationID: ptr(" FIBUR-1 ")}, ""},
			{"OKSiteAdminLinksUser", root, domain.PlayerInput{Name: "Olga", UserID: &owner.UserID}, ""},
			{"OKSiteAdminNoClub", root, domain.PlayerInput{Name: "Free"}, ""},
			{"EConflictFederationID", root, domain.PlayerInput{Name: "Dup", FederationID: ptr("FIBUR-1")}, domain.EConflict},
			{"EConflictSecondProfile", member, domain.PlayerInput{Name: "Mara 2", UserID: &member.UserID}, domain.EConflict},
			{"EForbiddenLinkOtherUser", admin, domain.PlayerInput{Name: "X", UserID: &outsider.UserID, ClubID: &c.ID}, domain.EForbidden},
			{"EForbiddenMemberUnlinked", member, domain.PlayerInput{Name: "X", ClubID: &c.ID}, domain.EForbidden},
			{"EForbiddenUnlinkedNoClub", admin, domain.PlayerInput{Name: "X"}, domain.EForbidden},
			{"EForbiddenOwnProfileForeignClub", member, domain.PlayerInput{Name: "X", UserID: &member.UserID, ClubID: &other.ID}, domain.EForbidden},
			{"ENotFoundClub", root, domain.PlayerInput{Name: "X", ClubID: ptr(int64(99999))}, domain.ENotFound},
			{"ENotFoundUser", root, domain.PlayerInput{Name: "X", UserID: ptr(int64(99999))}, domain.ENotFound},
			{"EInvalid", admin, domain.PlayerInput{Name: "", FederationID: ptr("no spaces!"), ClubID: &c.ID}, domain.EInvalid},
			{"EUnauthenticated", domain.Actor{}, domain.PlayerInput{Name: "X"}, domain.EUnauthenticated},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				p, err := f.svc.Players.Create(ctx, tt.actor, tt.in)
				wantCode(t, err, tt.want)
				if tt.want != "" {
					return
				}
				got, err := f.svc.Players.Get(ctx, p.ID)
				wantCode(t, err, "")
				if diff := cmp.Diff(p, got); diff != "" {
					t.Errorf("stored player (-want +got):\n%s", diff)
				}
			})
		}
		t.Run("EInvalidReportsEveryField", func(t *testing.T) {
			_, err := f.svc.Players.Create(ctx, root, domain.PlayerInput{Name: "", FederationID: ptr("no spaces!")})
			wantCode(t, err, domain.EInvalid)
			if n := len(err.(*domain.Error).Fields); n != 2 {
				t.Errorf("%d field errors, want 2: %+v", n, err.(*domain.Error).Fields)
			}
		})
		t.Run("FederationIDTrimmedAndEmptyIsNil", func(t *testing.T) {
			p, err := f.svc.Players.Create(ctx, root, domain.PlayerInput{Name: "Blank", FederationID: ptr("  ")})
			wantCode(t, err, "")
			if p.FederationID != nil {
				t.Errorf("federation id %q, want nil", *p.FederationID)
			}
		})
	})
}

func TestPlayerUpdateDelete(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner, admin, self, outsider := f.user("owner@x.it"), f.user("admin@x.it"), f.user("self@x.it"), f.user("out@x.it")
		root := f.siteAdmin()
		c := f.club(owner, "Circolo")
		other := f.club(outsider, "Altro")
		f.member(owner, c.ID, admin, domain.RoleAdmin)
		f.member(owner, c.ID, self, domain.RoleMember)
		guest, err := f.svc.Players.Create(ctx, admin, domain.PlayerInput{Name: "Guest", ClubID: &c.ID})
		wantCode(t, err, "")
		mine, err := f.svc.Players.Create(ctx, self, domain.PlayerInput{Name: "Me", UserID: &self.UserID})
		wantCode(t, err, "")
		tests := []struct {
			name  string
			actor domain.Actor
			id    int64
			patch domain.PlayerPatch
			want  domain.Code
		}{
			{"OKClubAdmin", admin, guest.ID, domain.PlayerPatch{Name: ptr("Guest Star")}, ""},
			{"OKOwnProfile", self, mine.ID, domain.PlayerPatch{FederationID: ptr("F-9")}, ""},
			{"OKOwnProfileJoinsOwnClub", self, mine.ID, domain.PlayerPatch{ClubID: &c.ID}, ""},
			{"OKSiteAdmin", root, guest.ID, domain.PlayerPatch{FederationID: ptr("F-10")}, ""},
			{"EForbiddenOutsider", outsider, guest.ID, domain.PlayerPatch{Name: ptr("Hijack")}, domain.EForbidden},
			{"EForbiddenAdminMovesToForeignClub", admin, guest.ID, domain.PlayerPatch{ClubID: &other.ID}, domain.EForbidden},
			{"EConflictFederationID", root, guest.ID, domain.PlayerPatch{FederationID: ptr("F-9")}, domain.EConflict},
			{"EInvalidSetAndClear", root, guest.ID, domain.PlayerPatch{ClubID: &c.ID, ClearClub: true}, domain.EInvalid},
			{"EInvalidName", root, guest.ID, domain.PlayerPatch{Name: ptr("")}, domain.EInvalid},
			{"ENotFound", root, 99999, domain.PlayerPatch{Name: ptr("x")}, domain.ENotFound},
			{"OKSiteAdminMovesAnywhere", root, guest.ID, domain.PlayerPatch{ClubID: &other.ID}, ""},
			{"OKClearClub", root, guest.ID, domain.PlayerPatch{ClearClub: true, FederationID: ptr("")}, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				p, err := f.svc.Players.Update(ctx, tt.actor, tt.id, tt.patch)
				wantCode(t, err, tt.want)
				if tt.want != "" {
					return
				}
				got, _ := f.svc.Players.Get(ctx, tt.id)
				if diff := cmp.Diff(p, got); diff != "" {
					t.Errorf("stored player (-returned +stored):\n%s", diff)
				}
			})
		}
		t.Run("ClearedFields", func(t *testing.T) {
			p, _ := f.svc.Players.Get(ctx, guest.ID)
			if p.ClubID != nil || p.FederationID != nil || p.Name != "Guest Star" {
				t.Errorf("player %+v", p)
			}
		})
		t.Run("Delete", func(t *testing.T) {
			wantCode(t, f.svc.Players.Delete(ctx, outsider, mine.ID), domain.EForbidden)
			wantCode(t, f.svc.Players.Delete(ctx, domain.Actor{}, mine.ID), domain.EUnauthenticated)
			wantCode(t, f.svc.Players.Delete(ctx, admin, mine.ID), "") // mine is in admin's club now
			wantCode(t, f.svc.Players.Delete(ctx, root, mine.ID), domain.ENotFound)
			_, err := f.svc.Players.Get(ctx, mine.ID)
			wantCode(t, err, domain.ENotFound)
		})
	})
}

func TestPlayerList(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		root := f.siteAdmin()
		c := f.club(root, "Circolo")
		for _, in := range []domain.PlayerInput{
			{Name: "Anna Rossi", ClubID: &c.ID, FederationID: ptr("F-1")},
			{Name: "anna bianchi"},
			{Name: "Marco 50%", ClubID: &c.ID},
			{Name: "Luca_Verdi", FederationID: ptr("ANNA")},
		} {
			if _, err := f.svc.Players.Create(ctx, root, in); err != nil {
				t.Fatal(err)
			}
		}
		names := func(p domain.Page[domain.Player]) []string {
			var out []string
			for _, x := range p.Items {
				out = append(out, x.Name)
			}
			return out
		}
		tests := []struct {
			name  string
			f     domain.PlayerFilter
			total int
			want  []string
		}{
			{"All", domain.PlayerFilter{}, 4, []string{"Anna Rossi", "Luca_Verdi", "Marco 50%", "anna bianchi"}},
			{"Paged", domain.PlayerFilter{Limit: 1, Offset: 1}, 4, []string{"Luca_Verdi"}},
			{"PageOfTheLast", domain.PlayerFilter{Limit: 2, Offset: 3}, 4, []string{"anna bianchi"}},
			{"PagePastTheEndStillCounts", domain.PlayerFilter{Limit: 2, Offset: 10}, 4, nil},
			{"FilteredPagePastTheEndStillCounts", domain.PlayerFilter{ClubID: &c.ID, Query: "anna", Offset: 5}, 1, nil},
			{"NoneMatch", domain.PlayerFilter{Query: "nobody"}, 0, nil},
			{"NameOrExactFederationID", domain.PlayerFilter{Query: "ANNA"}, 3, []string{"Anna Rossi", "Luca_Verdi", "anna bianchi"}},
			{"FederationID", domain.PlayerFilter{Query: "F-1"}, 1, []string{"Anna Rossi"}},
			{"LiteralPercent", domain.PlayerFilter{Query: "0%"}, 1, []string{"Marco 50%"}},
			{"LiteralUnderscore", domain.PlayerFilter{Query: "_"}, 1, []string{"Luca_Verdi"}},
			{"Club", domain.PlayerFilter{ClubID: &c.ID}, 2, []string{"Anna Rossi", "Marco 50%"}},
			{"ClubAndQuery", domain.PlayerFilter{ClubID: &c.ID, Query: "anna"}, 1, []string{"Anna Rossi"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				p, err := f.svc.Players.List(ctx, tt.f)
				wantCode(t, err, "")
				if p.Total != tt.total {
					t.Errorf("total %d, want %d", p.Total, tt.total)
				}
				if diff := cmp.Diff(tt.want, names(p)); diff != "" {
					t.Errorf("names (-want +got):\n%s", diff)
				}
			})
		}
		t.Run("RowsKeepTheirOwnFields", func(t *testing.T) {
			p, err := f.svc.Players.List(ctx, domain.PlayerFilter{})
			wantCode(t, err, "")
			var got []string
			for _, x := range p.Items {
				fed, club := "-", "-"
				if x.FederationID != nil {
					fed = *x.FederationID
				}
				if x.ClubID != nil {
					club = fmt.Sprint(*x.ClubID == c.ID)
				}
				got = append(got, x.Name+" "+fed+" "+club)
				if x.CreatedAt.IsZero() || x.CreatedAt.Location() != time.UTC {
					t.Errorf("%s: created_at %v, want a UTC time", x.Name, x.CreatedAt)
				}
			}
			want := []string{"Anna Rossi F-1 true", "Luca_Verdi ANNA -", "Marco 50% - true", "anna bianchi - -"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
		t.Run("EInvalidLimit", func(t *testing.T) {
			_, err := f.svc.Players.List(ctx, domain.PlayerFilter{Limit: 1000})
			wantCode(t, err, domain.EInvalid)
		})
	})
}

// TestPlayerProfileAfterLeavingClub checks that the admins of a club lose
// their rights over a user's own profile once that user has left the club,
// even though the profile still names the club.
func TestPlayerProfileAfterLeavingClub(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner, admin, self := f.user("owner@x.it"), f.user("admin@x.it"), f.user("self@x.it")
		c := f.club(owner, "Circolo")
		f.member(owner, c.ID, admin, domain.RoleAdmin)
		f.member(owner, c.ID, self, domain.RoleMember)
		mine, err := f.svc.Players.Create(ctx, self, domain.PlayerInput{Name: "Me", UserID: &self.UserID, ClubID: &c.ID})
		wantCode(t, err, "")
		_, err = f.svc.Players.Update(ctx, admin, mine.ID, domain.PlayerPatch{Name: ptr("Me, by the admin")})
		wantCode(t, err, "") // a member's profile: the club's admins may edit it
		wantCode(t, f.svc.Clubs.RemoveMember(ctx, self, c.ID, self.UserID), "")
		_, err = f.svc.Players.Update(ctx, admin, mine.ID, domain.PlayerPatch{Name: ptr("Taken over")})
		wantCode(t, err, domain.EForbidden)
		wantCode(t, f.svc.Players.Delete(ctx, admin, mine.ID), domain.EForbidden)
		_, err = f.svc.Players.Update(ctx, self, mine.ID, domain.PlayerPatch{ClearClub: true})
		wantCode(t, err, "")
	})
}
