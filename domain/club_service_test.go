package domain_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
)

func TestClubCreate(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner := f.user("owner@example.org")
		t.Run("CreatorIsOwner", func(t *testing.T) {
			c, err := f.svc.Clubs.Create(ctx, owner, domain.ClubInput{Name: " Circolo del Burraco ", City: "Milano"})
			wantCode(t, err, "")
			if c.Name != "Circolo del Burraco" || c.ID == 0 {
				t.Errorf("club = %+v", c)
			}
			role, err := f.svc.Clubs.RoleOf(ctx, owner, c.ID)
			wantCode(t, err, "")
			if role != domain.RoleOwner {
				t.Errorf("role = %q, want owner", role)
			}
			got, err := f.svc.Clubs.Get(ctx, c.ID)
			wantCode(t, err, "")
			if diff := cmp.Diff(c, got); diff != "" {
				t.Errorf("stored club (-want +got):\n%s", diff)
			}
		})
		t.Run("EUnauthenticatedAnonymous", func(t *testing.T) {
			_, err := f.svc.Clubs.Create(ctx, domain.Actor{}, domain.ClubInput{Name: "X"})
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("EInvalidEveryField", func(t *testing.T) {
			_, err := f.svc.Clubs.Create(ctx, owner, domain.ClubInput{Name: "", City: string(make([]byte, 101)), Description: "ok"})
			wantCode(t, err, domain.EInvalid)
			if n := len(err.(*domain.Error).Fields); n != 2 {
				t.Errorf("%d field errors, want 2: %v", n, err)
			}
		})
		t.Run("ENotFoundGet", func(t *testing.T) {
			_, err := f.svc.Clubs.Get(ctx, 424242)
			wantCode(t, err, domain.ENotFound)
		})
	})
}

func TestClubUpdate(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner, admin, member := f.user("owner@x.it"), f.user("admin@x.it"), f.user("member@x.it")
		otherOwner := f.user("other@x.it")
		root := f.siteAdmin()
		c := f.club(owner, "Circolo")
		f.club(otherOwner, "Altro")
		f.member(owner, c.ID, admin, domain.RoleAdmin)
		f.member(owner, c.ID, member, domain.RoleMember)
		tests := []struct {
			name  string
			actor domain.Actor
			want  domain.Code
		}{
			{"OKOwner", owner, ""},
			{"OKAdmin", admin, ""},
			{"OKSiteAdmin", root, ""},
			{"EForbiddenMember", member, domain.EForbidden},
			{"EForbiddenOtherClubOwner", otherOwner, domain.EForbidden},
			{"EUnauthenticatedAnonymous", domain.Actor{}, domain.EUnauthenticated},
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				f.clock.Advance(time.Second)
				city := fmt.Sprintf("Città %d", i)
				got, err := f.svc.Clubs.Update(ctx, tt.actor, c.ID, domain.ClubPatch{City: &city})
				wantCode(t, err, tt.want)
				if tt.want != "" {
					return
				}
				stored, _ := f.svc.Clubs.Get(ctx, c.ID)
				if stored.City != city || stored.Name != "Circolo" || !stored.UpdatedAt.After(c.UpdatedAt) {
					t.Errorf("stored %+v", stored)
				}
				if diff := cmp.Diff(stored, got); diff != "" {
					t.Errorf("returned club (-stored +returned):\n%s", diff)
				}
			})
		}
		t.Run("EInvalidEmptyName", func(t *testing.T) {
			_, err := f.svc.Clubs.Update(ctx, owner, c.ID, domain.ClubPatch{Name: ptr(" ")})
			wantCode(t, err, domain.EInvalid)
		})
		t.Run("ENotFoundClub", func(t *testing.T) {
			_, err := f.svc.Clubs.Update(ctx, root, 999999, domain.ClubPatch{Name: ptr("x")})
			wantCode(t, err, domain.ENotFound)
		})
	})
}

func TestClubMembers(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner, admin, member, outsider := f.user("owner@x.it"), f.user("admin@x.it"), f.user("member@x.it"), f.user("out@x.it")
		root := f.siteAdmin()
		c := f.club(owner, "Circolo")
		t.Run("AddMember", func(t *testing.T) {
			m, err := f.svc.Clubs.AddMember(ctx, owner, c.ID, admin.UserID, domain.RoleAdmin)
			wantCode(t, err, "")
			if m.UserEmail != "admin@x.it" || m.Role != domain.RoleAdmin {
				t.Errorf("membership %+v", m)
			}
			_, err = f.svc.Clubs.AddMember(ctx, admin, c.ID, member.UserID, domain.RoleMember)
			wantCode(t, err, "")
		})
		addTests := []struct {
			name   string
			actor  domain.Actor
			userID int64
			role   domain.Role
			want   domain.Code
		}{
			{"EConflictAlreadyMember", owner, member.UserID, domain.RoleMember, domain.EConflict},
			{"EForbiddenMemberAdds", member, outsider.UserID, domain.RoleMember, domain.EForbidden},
			{"EForbiddenAdminGrantsOwner", admin, outsider.UserID, domain.RoleOwner, domain.EForbidden},
			{"ENotFoundUser", owner, 777777, domain.RoleMember, domain.ENotFound},
			{"EInvalidRole", owner, outsider.UserID, "king", domain.EInvalid},
			{"EUnauthenticated", domain.Actor{}, outsider.UserID, domain.RoleMember, domain.EUnauthenticated},
		}
		for _, tt := range addTests {
			t.Run("AddMember/"+tt.name, func(t *testing.T) {
				_, err := f.svc.Clubs.AddMember(ctx, tt.actor, c.ID, tt.userID, tt.role)
				wantCode(t, err, tt.want)
			})
		}
		byEmail := []struct {
			name  string
			actor domain.Actor
			email string
			role  domain.Role
			want  domain.Code
		}{
			{"ENotFoundNoAccount", owner, "nobody@x.it", domain.RoleMember, domain.ENotFound},
			{"EForbiddenMemberAdds", member, "out@x.it", domain.RoleMember, domain.EForbidden},
			{"EForbiddenAdminGrantsOwner", admin, "out@x.it", domain.RoleOwner, domain.EForbidden},
			{"EInvalidRole", owner, "out@x.it", "king", domain.EInvalid},
			{"EConflictAlreadyMember", owner, "member@x.it", domain.RoleMember, domain.EConflict},
			{"AddedWithEmailAsTyped", admin, "  OUT@x.IT ", domain.RoleReferee, ""},
		}
		for _, tt := range byEmail {
			t.Run("AddMemberByEmail/"+tt.name, func(t *testing.T) {
				m, err := f.svc.Clubs.AddMemberByEmail(ctx, tt.actor, c.ID, tt.email, tt.role)
				wantCode(t, err, tt.want)
				if err == nil && (m.UserID != outsider.UserID || m.Role != tt.role || m.UserEmail != "out@x.it") {
					t.Errorf("membership %+v, want user %d as %s", m, outsider.UserID, tt.role)
				}
			})
		}
		if err := f.svc.Clubs.RemoveMember(ctx, owner, c.ID, outsider.UserID); err != nil {
			t.Fatal(err) // the tests below expect the outsider outside the club
		}
		t.Run("MyClubs", func(t *testing.T) {
			ms, err := f.svc.Clubs.MyClubs(ctx, admin, domain.MyClubsFilter{})
			wantCode(t, err, "")
			if ms.Total != 1 || ms.Limit != domain.DefaultLimit || len(ms.Items) != 1 || ms.Items[0].ClubID != c.ID ||
				ms.Items[0].ClubName != "Circolo" || ms.Items[0].Role != domain.RoleAdmin {
				t.Errorf("admin's clubs: %+v", ms)
			}
			ms, err = f.svc.Clubs.MyClubs(ctx, outsider, domain.MyClubsFilter{})
			wantCode(t, err, "")
			if ms.Total != 0 || len(ms.Items) != 0 {
				t.Errorf("outsider's clubs: %+v", ms)
			}
			ms, err = f.svc.Clubs.MyClubs(ctx, admin, domain.MyClubsFilter{Limit: 1, Offset: 1})
			wantCode(t, err, "")
			if ms.Total != 1 || len(ms.Items) != 0 || ms.Offset != 1 {
				t.Errorf("admin's clubs past the end: %+v", ms)
			}
			_, err = f.svc.Clubs.MyClubs(ctx, admin, domain.MyClubsFilter{Limit: domain.MaxLimit + 1})
			wantCode(t, err, domain.EInvalid)
			_, err = f.svc.Clubs.MyClubs(ctx, domain.Actor{}, domain.MyClubsFilter{})
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("AddMember/ENotFoundClub", func(t *testing.T) {
			_, err := f.svc.Clubs.AddMember(ctx, root, 777777, outsider.UserID, domain.RoleMember)
			wantCode(t, err, domain.ENotFound)
		})
		t.Run("SetRole", func(t *testing.T) {
			_, err := f.svc.Clubs.SetRole(ctx, admin, c.ID, member.UserID, domain.RoleReferee)
			wantCode(t, err, "")
			_, err = f.svc.Clubs.SetRole(ctx, member, c.ID, member.UserID, domain.RoleAdmin)
			wantCode(t, err, domain.EForbidden)
			_, err = f.svc.Clubs.SetRole(ctx, admin, c.ID, owner.UserID, domain.RoleMember)
			wantCode(t, err, domain.EForbidden)
			_, err = f.svc.Clubs.SetRole(ctx, owner, c.ID, outsider.UserID, domain.RoleMember)
			wantCode(t, err, domain.ENotFound)
			role, _ := f.svc.Clubs.RoleOf(ctx, member, c.ID)
			if role != domain.RoleReferee {
				t.Errorf("role %q, want referee", role)
			}
		})
		t.Run("LastOwnerProtected", func(t *testing.T) {
			_, err := f.svc.Clubs.SetRole(ctx, owner, c.ID, owner.UserID, domain.RoleAdmin)
			wantCode(t, err, domain.EConflict)
			wantCode(t, f.svc.Clubs.RemoveMember(ctx, owner, c.ID, owner.UserID), domain.EConflict)
			wantCode(t, f.svc.Clubs.RemoveMember(ctx, root, c.ID, owner.UserID), domain.EConflict)
			// With a second owner, the first may step down.
			_, err = f.svc.Clubs.SetRole(ctx, owner, c.ID, admin.UserID, domain.RoleOwner)
			wantCode(t, err, "")
			_, err = f.svc.Clubs.SetRole(ctx, owner, c.ID, owner.UserID, domain.RoleAdmin)
			wantCode(t, err, "")
			_, err = f.svc.Clubs.SetRole(ctx, owner, c.ID, admin.UserID, domain.RoleAdmin)
			wantCode(t, err, domain.EForbidden) // no longer an owner
			_, err = f.svc.Clubs.SetRole(ctx, root, c.ID, owner.UserID, domain.RoleOwner)
			wantCode(t, err, "") // site admin may grant it
		})
		t.Run("ListMembers", func(t *testing.T) {
			page, err := f.svc.Clubs.ListMembers(ctx, member, c.ID, domain.MemberFilter{})
			wantCode(t, err, "")
			if page.Total != 3 || len(page.Items) != 3 || page.Limit != domain.DefaultLimit {
				t.Errorf("page %+v", page)
			}
			page, err = f.svc.Clubs.ListMembers(ctx, root, c.ID, domain.MemberFilter{Role: domain.RoleOwner, Limit: 1})
			wantCode(t, err, "")
			if page.Total != 2 || len(page.Items) != 1 || page.Items[0].Role != domain.RoleOwner {
				t.Errorf("owners page %+v", page)
			}
			_, err = f.svc.Clubs.ListMembers(ctx, outsider, c.ID, domain.MemberFilter{})
			wantCode(t, err, domain.EForbidden)
			_, err = f.svc.Clubs.ListMembers(ctx, domain.Actor{}, c.ID, domain.MemberFilter{})
			wantCode(t, err, domain.EUnauthenticated)
			_, err = f.svc.Clubs.ListMembers(ctx, member, c.ID, domain.MemberFilter{Role: "x", Limit: 101})
			wantCode(t, err, domain.EInvalid)
		})
		t.Run("RemoveMember", func(t *testing.T) {
			wantCode(t, f.svc.Clubs.RemoveMember(ctx, outsider, c.ID, member.UserID), domain.EForbidden)
			wantCode(t, f.svc.Clubs.RemoveMember(ctx, member, c.ID, member.UserID), "") // leaves
			wantCode(t, f.svc.Clubs.RemoveMember(ctx, owner, c.ID, member.UserID), domain.ENotFound)
			// admin is an owner now: only an owner may remove them.
			f.member(root, c.ID, outsider, domain.RoleAdmin)
			wantCode(t, f.svc.Clubs.RemoveMember(ctx, outsider, c.ID, admin.UserID), domain.EForbidden)
			wantCode(t, f.svc.Clubs.RemoveMember(ctx, owner, c.ID, admin.UserID), "")
			role, err := f.svc.Clubs.RoleOf(ctx, admin, c.ID)
			wantCode(t, err, "")
			if role != "" {
				t.Errorf("role after removal %q", role)
			}
		})
	})
}

func TestClubList(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner := f.user("owner@x.it")
		for _, n := range []string{"Burraco Roma", "Circolo 100%", "Circolo_Torino", "CIRCOLO Napoli", "Bridge Club"} {
			f.club(owner, n)
		}
		names := func(p domain.Page[domain.Club]) []string {
			var out []string
			for _, c := range p.Items {
				out = append(out, c.Name)
			}
			return out
		}
		tests := []struct {
			name  string
			f     domain.ClubFilter
			total int
			want  []string
		}{
			{"AllFirstPage", domain.ClubFilter{Limit: 2}, 5, []string{"Bridge Club", "Burraco Roma"}},
			{"SecondPage", domain.ClubFilter{Limit: 2, Offset: 2}, 5, []string{"CIRCOLO Napoli", "Circolo 100%"}},
			{"PastTheEnd", domain.ClubFilter{Offset: 10}, 5, nil},
			{"CaseInsensitive", domain.ClubFilter{Query: "circolo"}, 3, []string{"CIRCOLO Napoli", "Circolo 100%", "Circolo_Torino"}},
			{"PercentIsLiteral", domain.ClubFilter{Query: "0%"}, 1, []string{"Circolo 100%"}},
			{"UnderscoreIsLiteral", domain.ClubFilter{Query: "o_t"}, 1, []string{"Circolo_Torino"}},
			{"MatchesCity", domain.ClubFilter{Query: "ROMA"}, 5, []string{"Bridge Club", "Burraco Roma", "CIRCOLO Napoli", "Circolo 100%", "Circolo_Torino"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				p, err := f.svc.Clubs.List(ctx, tt.f)
				wantCode(t, err, "")
				if p.Total != tt.total {
					t.Errorf("total %d, want %d", p.Total, tt.total)
				}
				if diff := cmp.Diff(tt.want, names(p)); diff != "" {
					t.Errorf("names (-want +got):\n%s", diff)
				}
			})
		}
		for _, bad := range []domain.ClubFilter{{Limit: -1}, {Limit: 101}, {Offset: -1}} {
			t.Run(fmt.Sprintf("EInvalid%+v", bad), func(t *testing.T) {
				_, err := f.svc.Clubs.List(ctx, bad)
				wantCode(t, err, domain.EInvalid)
			})
		}
	})
}
