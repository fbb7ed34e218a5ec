package domain

import (
	"context"
	"strings"
	"time"
)

// clubService implements ClubService.
type clubService struct {
	st  Storage
	now func() time.Time
}

// Create implements ClubService: the creator becomes the club's owner.
func (s *clubService) Create(ctx context.Context, actor Actor, in ClubInput) (Club, error) {
	if actor.Anonymous() {
		return Club{}, errLoginRequired
	}
	c := Club{Name: strings.TrimSpace(in.Name), City: strings.TrimSpace(in.City),
		Description: strings.TrimSpace(in.Description)}
	if err := checkClub(c); err != nil {
		return Club{}, err
	}
	c.CreatedAt = s.now()
	c.UpdatedAt = c.CreatedAt
	err := s.st.InTx(ctx, func(tx Tx) error {
		if err := tx.Clubs().Create(&c); err != nil {
			return err
		}
		owner := Membership{ClubID: c.ID, UserID: actor.UserID, Role: RoleOwner, CreatedAt: c.CreatedAt}
		return tx.Memberships().Create(&owner)
	})
	if err != nil {
		return Club{}, err
	}
	return c, nil
}

func checkClub(c Club) error {
	var v Validator
	checkText(&v, "name", c.Name, true, MaxNameLength)
	checkText(&v, "city", c.City, false, MaxNameLength)
	checkText(&v, "description", c.Description, false, MaxDescriptionLength)
	return v.Err()
}

// Update implements ClubService.
func (s *clubService) Update(ctx context.Context, actor Actor, id int64, p ClubPatch) (Club, error) {
	var c Club
	err := s.st.InTx(ctx, func(tx Tx) error {
		var err error
		if c, err = accessFor(tx, actor).clubToManage(id, readClub); err != nil {
			return err
		}
		applyClubPatch(&c, p)
		if err := checkClub(c); err != nil {
			return err
		}
		c.UpdatedAt = s.now()
		return tx.Clubs().Update(c)
	})
	if err != nil {
		return Club{}, err
	}
	return c, nil
}

func applyClubPatch(c *Club, p ClubPatch) {
	if p.Name != nil {
		c.Name = strings.TrimSpace(*p.Name)
	}
	if p.City != nil {
		c.City = strings.TrimSpace(*p.City)
	}
	if p.Description != nil {
		c.Description = strings.TrimSpace(*p.Description)
	}
}

// Get implements ClubService.
func (s *clubService) Get(ctx context.Context, id int64) (Club, error) {
	var c Club
	err := s.st.ViewOne(ctx, func(tx Tx) error {
		var err error
		c, err = tx.Clubs().Get(id)
		return err
	})
	return c, err
}

// List implements ClubService.
func (s *clubService) List(ctx context.Context, f ClubFilter) (Page[Club], error) {
	f.Query = strings.TrimSpace(f.Query)
	var v Validator
	checkText(&v, "q", f.Query, false, MaxQueryLength) // named as the query parameter the client sent
	checkPage(&v, &f.Limit, &f.Offset)
	if err := v.Err(); err != nil {
		return Page[Club]{}, err
	}
	page := Page[Club]{Limit: f.Limit, Offset: f.Offset}
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		page.Items, page.Total, err = tx.Clubs().List(f)
		return err
	})
	return page, err
}

// AddMember implements ClubService.
func (s *clubService) AddMember(ctx context.Context, actor Actor, clubID, userID int64, role Role) (Membership, error) {
	return s.addMember(ctx, actor, clubID, role, func(tx Tx) (User, error) { return tx.Users().Get(userID) })
}

// AddMemberByEmail implements ClubService.
func (s *clubService) AddMemberByEmail(ctx context.Context, actor Actor, clubID int64, email string, role Role) (Membership, error) {
	email = NormalizeEmail(email)
	return s.addMember(ctx, actor, clubID, role, func(tx Tx) (User, error) {
		u, _, err := tx.Users().ByEmail(email)
		if ErrorCode(err) == ENotFound {
			return User{}, Errorf(ENotFound, "no account is registered with that email")
		}
		return u, err
	})
}

// addMember adds the user that find returns, after the authorisation
// checks, in one transaction.
func (s *clubService) addMember(ctx context.Context, actor Actor, clubID int64, role Role, find func(Tx) (User, error)) (Membership, error) {
	if err := checkRole(role); err != nil {
		return Membership{}, err
	}
	m := Membership{ClubID: clubID, Role: role, CreatedAt: s.now()}
	err := s.st.InTx(ctx, func(tx Tx) error {
		a := accessFor(tx, actor)
		if _, err := a.clubToManage(clubID, lockClub); err != nil {
			return err
		}
		if role == RoleOwner {
			if ok, err := a.canGrantOwner(clubID); err != nil || !ok {
				return orDenied(err, Errorf(EForbidden, "only an owner may grant the owner role"))
			}
		}
		u, err := find(tx)
		if err != nil {
			return err
		}
		m.UserID = u.ID
		return tx.Memberships().Create(&m)
	})
	if err != nil {
		return Membership{}, err
	}
	return m, nil
}

// SetRole implements ClubService. Granting or taking away the owner role
// needs an owner (or site admin); the last owner cannot be demoted
// (EConflict).
func (s *clubService) SetRole(ctx context.Context, actor Actor, clubID, userID int64, role Role) (Membership, error) {
	if err := checkRole(role); err != nil {
		return Membership{}, err
	}
	var m Membership
	err := s.st.InTx(ctx, func(tx Tx) error {
		a := accessFor(tx, actor)
		if _, err := a.clubToManage(clubID, lockClub); err != nil {
			return err
		}
		var err error
		if m, err = tx.Memberships().Get(clubID, userID); err != nil {
			return err
		}
		if role == RoleOwner || m.Role == RoleOwner {
			if ok, err := a.canGrantOwner(clubID); err != nil || !ok {
				return orDenied(err, Errorf(EForbidden, "only an owner may grant or take away the owner role"))
			}
		}
		if m.Role == role {
			return nil
		}
		if err := keepAnOwner(tx, m); err != nil {
			return err
		}
		m.Role = role
		return tx.Memberships().SetRole(clubID, userID, role, s.now())
	})
	if err != nil {
		return Membership{}, err
	}
	return m, nil
}

// RemoveMember implements ClubService.
func (s *clubService) RemoveMember(ctx context.Context, actor Actor, clubID, userID int64) error {
	return s.st.InTx(ctx, func(tx Tx) error {
		a := accessFor(tx, actor)
		self := !actor.Anonymous() && actor.UserID == userID
		need := RoleAdmin
		if self {
			need = "" // any member may leave
		}
		if _, err := a.club(clubID, need, lockClub); err != nil {
			return err
		}
		m, err := tx.Memberships().Get(clubID, userID)
		if err != nil {
			return err
		}
		if m.Role == RoleOwner && !self {
			if ok, err := a.canGrantOwner(clubID); err != nil || !ok {
				return orDenied(err, Errorf(EForbidden, "only an owner may remove an owner"))
			}
		}
		if err := keepAnOwner(tx, m); err != nil {
			return err
		}
		return tx.Memberships().Delete(clubID, userID)
	})
}

// keepAnOwner returns EConflict when m is the club's last owner, about to
// lose the role. The club row is locked, so the count cannot race.
func keepAnOwner(tx Tx, m Membership) error {
	if m.Role != RoleOwner {
		return nil
	}
	n, err := tx.Memberships().CountRole(m.ClubID, RoleOwner)
	if err != nil {
		return err
	}
	if n <= 1 {
		return Errorf(EConflict, "the last owner of a club cannot be removed or demoted")
	}
	return nil
}

// ListMembers implements ClubService.
func (s *clubService) ListMembers(ctx context.Context, actor Actor, clubID int64, f MemberFilter) (Page[Membership], error) {
	var v Validator
	v.Check(f.Role == "" || f.Role.Valid(), "role", "invalid", "role must be member, referee, admin or owner")
	checkPage(&v, &f.Limit, &f.Offset)
	if err := v.Err(); err != nil {
		return Page[Membership]{}, err
	}
	page := Page[Membership]{Limit: f.Limit, Offset: f.Offset}
	err := s.st.View(ctx, func(tx Tx) error {
		a := accessFor(tx, actor)
		if _, err := a.clubToSeeMembers(clubID); err != nil {
			return err
		}
		var err error
		if page.Items, page.Total, err = tx.Memberships().List(clubID, f); err != nil {
			return err
		}
		return a.hideEmails(page.Items)
	})
	return page, err
}

// MyClubs implements ClubService.
func (s *clubService) MyClubs(ctx context.Context, actor Actor, f MyClubsFilter) (Page[Membership], error) {
	if actor.Anonymous() {
		return Page[Membership]{}, Errorf(EUnauthenticated, "log in to see your clubs")
	}
	var v Validator
	checkPage(&v, &f.Limit, &f.Offset)
	if err := v.Err(); err != nil {
		return Page[Membership]{}, err
	}
	page := Page[Membership]{Limit: f.Limit, Offset: f.Offset}
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		page.Items, page.Total, err = tx.Memberships().ListOfUser(actor.UserID, f)
		return err
	})
	return page, err
}

// RoleOf implements ClubService.
func (s *clubService) RoleOf(ctx context.Context, actor Actor, clubID int64) (Role, error) {
	var role Role
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		role, err = accessFor(tx, actor).role(clubID)
		return err
	})
	return role, err
}

func checkRole(role Role) error {
	var v Validator
	v.Check(role.Valid(), "role", "invalid", "role must be member, referee, admin or owner")
	return v.Err()
}
