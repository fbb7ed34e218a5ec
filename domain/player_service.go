package domain

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// playerService implements PlayerService.
type playerService struct {
	st   Storage
	now  func() time.Time
	kept *keptReads // the pages of the list
	// random draws the claim codes of profiles without an account.
	random io.Reader
}

// Create implements PlayerService. A user may create their own profile
// (UserID = self), in a club only if they are a member of it; a club's
// admins may create unlinked profiles in their club; a site admin anything.
func (s *playerService) Create(ctx context.Context, actor Actor, in PlayerInput) (Player, error) {
	if actor.Anonymous() {
		return Player{}, errLoginRequired
	}
	p := Player{Name: strings.TrimSpace(in.Name), FederationID: trimPtr(in.FederationID),
		ClubID: in.ClubID, UserID: in.UserID, Region: strings.TrimSpace(in.Region)}
	if err := checkPlayer(p); err != nil {
		return Player{}, err
	}
	p.CreatedAt = s.now()
	p.UpdatedAt = p.CreatedAt
	err := s.st.InTx(ctx, func(tx Tx) error {
		if err := accessFor(tx, actor).mayCreatePlayer(p); err != nil {
			return err
		}
		if err := tx.Players().Create(&p); err != nil {
			return err
		}
		return giveClaimCode(tx, s.random, p)
	})
	if err != nil {
		return Player{}, err
	}
	return p, nil
}

func checkPlayer(p Player) error {
	var v Validator
	checkText(&v, "name", p.Name, true, MaxNameLength)
	checkText(&v, "region", p.Region, false, MaxRegionLength)
	if p.FederationID != nil {
		checkFederationID(&v, "federation_id", *p.FederationID)
	}
	v.Check(p.ClubID == nil || *p.ClubID > 0, "club_id", "invalid", "club_id must be a positive id")
	v.Check(p.UserID == nil || *p.UserID > 0, "user_id", "invalid", "user_id must be a positive id")
	return v.Err()
}

// Update implements PlayerService. The player's own user, the admins of its
// club and site admins may edit it; moving it to another club is checked as
// in Create.
func (s *playerService) Update(ctx context.Context, actor Actor, id int64, patch PlayerPatch) (Player, error) {
	if actor.Anonymous() {
		return Player{}, errLoginRequired
	}
	var v Validator
	v.Check(!patch.ClearClub || patch.ClubID == nil, "club_id", "invalid", "a club cannot be set and cleared at once")
	if patch.Categories != nil {
		checkCategories(&v, "categories", *patch.Categories) // as given: errors name the client's indexes
	}
	if err := v.Err(); err != nil {
		return Player{}, err
	}
	var p Player
	err := s.st.InTx(ctx, func(tx Tx) error {
		a := accessFor(tx, actor)
		var err error
		if p, err = editablePlayer(a, id); err != nil {
			return err
		}
		if patch.Categories != nil {
			if err := a.mayCategorise(p); err != nil {
				return err
			}
		}
		old := p.ClubID
		applyPlayerPatch(&p, patch)
		if err := checkPlayer(p); err != nil {
			return err
		}
		if p.ClubID != nil && (old == nil || *old != *p.ClubID) && !actor.SiteAdmin {
			if err := a.mayPlacePlayer(*p.ClubID, a.ownsPlayer(p)); err != nil {
				return err
			}
		}
		p.UpdatedAt = s.now()
		return tx.Players().Update(p)
	})
	if err != nil {
		return Player{}, err
	}
	return p, nil
}

func applyPlayerPatch(p *Player, patch PlayerPatch) {
	if patch.Name != nil {
		p.Name = strings.TrimSpace(*patch.Name)
	}
	if patch.FederationID != nil {
		p.FederationID = trimPtr(patch.FederationID) // "" clears it
	}
	if patch.ClubID != nil {
		p.ClubID = patch.ClubID
	}
	if patch.ClearClub {
		p.ClubID = nil
	}
	if patch.Categories != nil {
		p.Categories = normalCategories(*patch.Categories)
	}
	if patch.Region != nil {
		p.Region = strings.TrimSpace(*patch.Region)
	}
}

// MaxRegionLength bounds a player's region.
const MaxRegionLength = 60

// Delete implements PlayerService, with the same rights as Update.
func (s *playerService) Delete(ctx context.Context, actor Actor, id int64) error {
	if actor.Anonymous() {
		return errLoginRequired
	}
	return s.st.InTx(ctx, func(tx Tx) error {
		if _, err := editablePlayer(accessFor(tx, actor), id); err != nil {
			return err
		}
		return tx.Players().Delete(id, s.now())
	})
}

// editablePlayer loads a player the actor may edit. Errors: ENotFound,
// EForbidden.
func editablePlayer(a *access, id int64) (Player, error) {
	p, err := a.tx.Players().Get(id)
	if err != nil {
		return Player{}, err
	}
	if ok, err := a.canEditPlayer(p); err != nil || !ok {
		return Player{}, orDenied(err, Errorf(EForbidden, "you may not edit this player"))
	}
	return p, nil
}

// Get implements PlayerService.
func (s *playerService) Get(ctx context.Context, id int64) (Player, error) {
	p, _, err := kept(s.kept, "player\x00"+strconv.FormatInt(id, 10), playerListRecords, func() (Player, error) {
		var p Player
		err := s.st.ViewOne(ctx, func(tx Tx) error {
			var err error
			p, err = tx.Players().Get(id)
			return err
		})
		return p, err
	})
	return p, err
}

// List implements PlayerService.
func (s *playerService) List(ctx context.Context, f PlayerFilter) (Page[Player], error) {
	f.Query = strings.TrimSpace(f.Query)
	var v Validator
	checkText(&v, "q", f.Query, false, MaxQueryLength) // named as the query parameter the client sent
	checkPage(&v, &f.Limit, &f.Offset)
	if err := v.Err(); err != nil {
		return Page[Player]{}, err
	}
	key := "players\x00" + f.Query + "\x00" + optID(f.ClubID) + "\x00" + strconv.Itoa(f.Limit) + "\x00" + strconv.Itoa(f.Offset)
	page, stamp, err := kept(s.kept, key, playerListRecords, func() (Page[Player], error) {
		page := Page[Player]{Limit: f.Limit, Offset: f.Offset}
		err := s.st.ViewOne(ctx, func(tx Tx) error { // the store reads a page and its total in one statement
			var err error
			page.Items, page.Total, err = tx.Players().List(f)
			return err
		})
		return page, err
	})
	page.Stamp = stamp
	return page, err
}

// playerListRecords is what the player list and a player's profile read.
var playerListRecords = []string{"players"}

// optID is an optional id as a key's part ("" when absent).
func optID(id *int64) string {
	if id == nil {
		return ""
	}
	return strconv.FormatInt(*id, 10)
}

// MaxCategories is the most category tags a player has.
const MaxCategories = 10

// categorySlug is a category tag: a short lowercase slug (ladies, over65,
// newcomer), what prize lists name.
var categorySlug = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,23}$`)

// normalCategories is tags sorted without repeats (nil for none): the
// order a client gave carries no meaning.
func normalCategories(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	out := slices.Clone(tags)
	slices.Sort(out)
	return slices.Compact(out)
}

// checkCategories records in v every tag that is not a slug, and too many.
func checkCategories(v *Validator, field string, tags []string) {
	v.Check(len(tags) <= MaxCategories, field, "too_many", fmt.Sprintf("at most %d categories", MaxCategories))
	for i, t := range tags {
		v.Check(categorySlug.MatchString(t), fmt.Sprintf("%s[%d]", field, i), "invalid",
			"a category is a lowercase slug: a letter, then up to 23 letters, digits, - or _")
	}
}

// CategoriesSeen implements PlayerService.
func (s *playerService) CategoriesSeen(ctx context.Context, actor Actor, p Player) (Player, error) {
	if len(p.Categories) == 0 || actor.SiteAdmin || (p.UserID != nil && !actor.Anonymous() && *p.UserID == actor.UserID) {
		return p, nil
	}
	if actor.Anonymous() || p.ClubID == nil {
		p.Categories = nil
		return p, nil
	}
	err := s.st.View(ctx, func(tx Tx) error {
		err := accessFor(tx, actor).mayCategorise(p)
		if err != nil && ErrorCode(err) == EForbidden {
			p.Categories, err = nil, nil
		}
		return err
	})
	return p, err
}
