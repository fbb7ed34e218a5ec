package domain

import "crypto/subtle"

// Who may do what. Every authorisation rule of the domain is here, as a
// named question about one actor inside one transaction; the services ask
// these questions and never compare roles themselves. Tables and
// tournaments add their questions here.
//
// The rules, in short:
//   - A site admin may do anything, and sees everything.
//   - Clubs: anyone reads them; any logged-in user creates one (and owns
//     it); a club's admins and owners manage it: its details, members and
//     tournaments. Only an owner grants or takes away the owner role, or
//     removes an owner. Any member may leave.
//   - Members: a club's members see its member list; the e-mail addresses
//     in it only the club's admins and owners see, and each member their
//     own.
//   - Players: anyone reads them; a user creates and edits their own
//     profile (in a club they belong to); a club's admins create and edit
//     its players, but a user's own profile only while that user is still
//     a member of the club; only a site admin links a profile to another
//     user.
//   - Joining (issue 28): a club's admins and owners invite people (their
//     invitations, which anyone holding the link may preview and any
//     logged-in user accept), see the claim codes of its profiles without
//     an account, import its players and unlink a claimed profile; a
//     member of a profile's club claims it with its code.
//   - Tournaments: the admins and owners of the tournament's club manage
//     it and assign its referees (members of the club with the referee
//     role or higher); a draft exists only for them (ENotFound for anyone
//     else); once it has left draft it is public, also when cancelled. Its
//     assigned referees who still hold the referee role, the club's admins
//     and owners, and site admins referee it.
//   - Online tables: a logged-in user creates one and sits at it; a club
//     table only the club's members (of any role). A public table anyone
//     sees; a private one only its creator, its seated players, site
//     admins and whoever holds its invite code (to anyone else it does not
//     exist). Its creator adds bots, starts it, and cancels it while it is
//     open (the last player to leave it, or Config.OpenTableTTL, does too).
//     Its finished deals' records its creator and players read. A
//     referee's acts (a time-out, a stand-in) at a club table the club's
//     referees, admins and owners do; at a friendly table its creator;
//     site admins at any. Site admins may do all of it.
//   - A tournament's online table belongs to the tournament, not to whoever
//     started the round: its creator is nobody (the starter is kept as a
//     record and counts for nothing: not as a member, not against their
//     open tables). Its players see it; its staff (those who referee the
//     tournament) see it as spectators, with no hand and no invite code,
//     only while the tournament's staff_watch is on; they act as its
//     referees (time-out, stand-in) and read its deals' records then.
//     Nobody else, however high in the club, sees it (a site admin does,
//     and whoever holds its invite code, which only its players are shown).
//   - Nobody referees a match they play (issue 27): anyone seated at a
//     table, staff or site admin or creator, is refused every referee's
//     act there (own_table), and at a tournament's online table also the
//     corrections, rulings and penalties of the sheet it plays (own_side).

// access answers authorisation questions for one actor within one
// transaction. It reads the actor's role in a club once and remembers it
// for the rest of the transaction: ask before changing the actor's own
// membership.
type access struct {
	tx    Tx
	actor Actor
	roles map[int64]Role
}

// accessFor returns the questions of actor within tx.
func accessFor(tx Tx, actor Actor) *access {
	return &access{tx: tx, actor: actor, roles: map[int64]Role{}}
}

// roleIn returns a user's role in a club, or "" when not a member.
func roleIn(tx Tx, userID, clubID int64) (Role, error) {
	m, err := tx.Memberships().Get(clubID, userID)
	if ErrorCode(err) == ENotFound {
		return "", nil
	}
	return m.Role, err
}

// role returns the actor's role in the club: "" when not a member or not
// logged in. A site admin has the role of their membership, if any (their
// powers come from SiteAdmin, not from a role).
func (a *access) role(clubID int64) (Role, error) {
	if a.actor.Anonymous() {
		return "", nil
	}
	if r, ok := a.roles[clubID]; ok {
		return r, nil
	}
	r, err := roleIn(a.tx, a.actor.UserID, clubID)
	if err == nil {
		a.roles[clubID] = r
	}
	return r, err
}

// hasRole reports whether the actor is a site admin or holds at least min
// in the club.
func (a *access) hasRole(clubID int64, min Role) (bool, error) {
	if a.actor.Anonymous() {
		return false, nil
	}
	if a.actor.SiteAdmin {
		return true, nil
	}
	r, err := a.role(clubID)
	return r.AtLeast(min), err
}

// canManageClub: may the actor change the club, its members and its
// tournaments? Its admins and owners, and site admins.
func (a *access) canManageClub(clubID int64) (bool, error) { return a.hasRole(clubID, RoleAdmin) }

// canGrantOwner: may the actor grant or take away the owner role in the
// club, or remove an owner? Its owners and site admins.
func (a *access) canGrantOwner(clubID int64) (bool, error) {
	if a.actor.Anonymous() {
		return false, nil
	}
	if a.actor.SiteAdmin {
		return true, nil
	}
	r, err := a.role(clubID)
	return r == RoleOwner, err
}

// canSeeMemberEmails: may the actor see the e-mail address of every member
// of the club? Its admins and owners, and site admins. (Each member also
// sees their own: canSeeMemberEmail.)
func (a *access) canSeeMemberEmails(clubID int64) (bool, error) { return a.canManageClub(clubID) }

// canSeeMemberEmail: may the actor see the e-mail address of this
// membership? The member themself, and those who see every member's.
func (a *access) canSeeMemberEmail(m Membership) (bool, error) {
	if !a.actor.Anonymous() && a.actor.UserID == m.UserID {
		return true, nil
	}
	return a.canSeeMemberEmails(m.ClubID)
}

// hideEmails blanks the e-mail addresses of the memberships the actor may
// not see.
func (a *access) hideEmails(ms []Membership) error {
	for i := range ms {
		ok, err := a.canSeeMemberEmail(ms[i])
		if err != nil {
			return err
		}
		if !ok {
			ms[i].UserEmail = ""
		}
	}
	return nil
}

// orDenied is the error of an authorisation question that was asked with
// err and answered no: err when the question failed, denied otherwise.
func orDenied(err, denied error) error {
	if err != nil {
		return err
	}
	return denied
}

// clubLoad says whether a club is read or read and locked (for changes to
// its memberships, so that the count of owners cannot race).
type clubLoad bool

const (
	readClub clubLoad = false
	lockClub clubLoad = true
)

// club loads a club for an action that needs at least the role need in it
// (site admins always pass; need "" lets any logged-in user through).
// Errors: EUnauthenticated, ENotFound, EForbidden ("you need the <need>
// role in this club").
func (a *access) club(clubID int64, need Role, load clubLoad) (Club, error) {
	if a.actor.Anonymous() {
		return Club{}, errLoginRequired
	}
	get := a.tx.Clubs().Get
	if load == lockClub {
		get = a.tx.Clubs().Lock
	}
	c, err := get(clubID)
	if err != nil {
		return Club{}, err
	}
	if need == "" {
		return c, nil
	}
	ok, err := a.hasRole(clubID, need)
	if err != nil {
		return Club{}, err
	}
	if !ok {
		return Club{}, Errorf(EForbidden, "you need the %s role in this club", need)
	}
	return c, nil
}

// clubToManage loads a club the actor may manage (canManageClub). Errors:
// EUnauthenticated, ENotFound, EForbidden.
func (a *access) clubToManage(clubID int64, load clubLoad) (Club, error) {
	return a.club(clubID, RoleAdmin, load)
}

// clubToSeeMembers loads a club whose member list the actor may see: its
// members (of any role) and site admins. Errors: EUnauthenticated,
// ENotFound, EForbidden.
func (a *access) clubToSeeMembers(clubID int64) (Club, error) {
	return a.club(clubID, RoleMember, readClub)
}

// mayPlacePlayer checks that the actor may put a player in the club: their
// own profile in a club they belong to, anybody's in a club they may
// manage. Errors: EUnauthenticated, ENotFound, EForbidden.
func (a *access) mayPlacePlayer(clubID int64, own bool) error {
	need := RoleAdmin
	if own {
		need = RoleMember
	}
	_, err := a.club(clubID, need, readClub)
	return err
}

// mayCreatePlayer checks that the actor may create the profile p: a site
// admin any (in a club that exists); a user their own (in a club they
// belong to, or none); a club's admins a profile without a user in their
// club. Errors: EForbidden, ENotFound (club).
func (a *access) mayCreatePlayer(p Player) error {
	own := a.ownsPlayer(p)
	switch {
	case a.actor.SiteAdmin:
		if p.ClubID != nil {
			_, err := a.tx.Clubs().Get(*p.ClubID)
			return err
		}
		return nil
	case p.UserID != nil && !own:
		return Errorf(EForbidden, "only a site admin may link a profile to another user")
	case !own && p.ClubID == nil:
		return Errorf(EForbidden, "only a club's admins may create profiles of other players")
	case p.ClubID == nil:
		return nil
	}
	return a.mayPlacePlayer(*p.ClubID, own)
}

// ownsPlayer reports whether p is the actor's own profile.
func (a *access) ownsPlayer(p Player) bool {
	return !a.actor.Anonymous() && p.UserID != nil && *p.UserID == a.actor.UserID
}

// canEditPlayer: may the actor edit or delete the profile p? Its own user,
// site admins, and the admins of its club; of a user's own profile only
// while that user is still a member of the club: leaving a club (or being
// removed) takes the profile out of its admins' hands, even though the
// profile still names the club.
func (a *access) canEditPlayer(p Player) (bool, error) {
	if a.actor.Anonymous() {
		return false, nil
	}
	if a.actor.SiteAdmin || a.ownsPlayer(p) {
		return true, nil
	}
	if p.ClubID == nil {
		return false, nil
	}
	if ok, err := a.canManageClub(*p.ClubID); err != nil || !ok {
		return false, err
	}
	if p.UserID == nil {
		return true, nil
	}
	userRole, err := roleIn(a.tx, *p.UserID, *p.ClubID)
	return userRole != "", err
}

// mayCategorise: may the actor set the category tags of p (issue 32)? A
// site admin, and the directors (admins) of its club, of a user's own
// profile only while that user is a member (as canEditPlayer); not the
// player as such: a prize depends on the tags. Errors: EForbidden.
func (a *access) mayCategorise(p Player) error {
	if a.actor.SiteAdmin {
		return nil
	}
	denied := Errorf(EForbidden, "only the directors of the player's club set a player's categories")
	if p.ClubID == nil {
		return denied
	}
	ok, err := a.canManageClub(*p.ClubID)
	if err != nil || !ok {
		return orDenied(err, denied)
	}
	if p.UserID == nil {
		return nil
	}
	role, err := roleIn(a.tx, *p.UserID, *p.ClubID)
	if err != nil || role == "" {
		return orDenied(err, denied)
	}
	return nil
}

// canManageTournament: may the actor change or delete the tournament? Those
// who may manage its club.
func (a *access) canManageTournament(t Tournament) (bool, error) { return a.canManageClub(t.ClubID) }

// canSeeTournament: may the actor see the tournament? Anyone once it is
// public; a draft only those who may referee it (its club's admins and its
// assigned referees, who prepare it before registration opens).
func (a *access) canSeeTournament(t Tournament) (bool, error) {
	if t.Public() {
		return true, nil
	}
	return a.canRefereeTournament(t)
}

// canRefereeTournament: may the actor act as the tournament's referee
// (arbitro)? Those who may manage it, and its assigned referees while they
// hold the referee role (or higher) in its club: a referee whose role was
// taken away, or who left the club, no longer referees.
func (a *access) canRefereeTournament(t Tournament) (bool, error) {
	if ok, err := a.canManageTournament(t); err != nil || ok || a.actor.Anonymous() {
		return ok, err
	}
	assigned, err := a.tx.Tournaments().IsReferee(t.ID, a.actor.UserID)
	if err != nil || !assigned {
		return false, err
	}
	return a.hasRole(t.ClubID, RoleReferee)
}

// mayBeTournamentReferee: may the user be assigned as a referee of the
// tournament? Members of its club with the referee role or higher. Errors:
// ENotAReferee.
func mayBeTournamentReferee(tx Tx, t Tournament, userID int64) (Role, error) {
	r, err := roleIn(tx, userID, t.ClubID)
	switch {
	case err != nil:
		return "", err
	case !r.AtLeast(RoleReferee):
		return "", Errorf(ENotAReferee, "only members of the tournament's club with the %s role or higher may referee it", RoleReferee)
	}
	return r, nil
}

// visibleDrafts returns the drafts a tournament list may show the actor:
// all for a site admin, otherwise those of the clubs they may manage and
// those they referee (as canSeeTournament), none when not logged in.
func (a *access) visibleDrafts() (DraftScope, error) {
	switch {
	case a.actor.Anonymous():
		return DraftScope{}, nil
	case a.actor.SiteAdmin:
		return DraftScope{All: true}, nil
	}
	ms, err := a.tx.Memberships().OfUser(a.actor.UserID)
	if err != nil {
		return DraftScope{}, err
	}
	scope := DraftScope{RefereeUserID: a.actor.UserID}
	for _, m := range ms {
		if m.Role.AtLeast(RoleAdmin) {
			scope.ClubIDs = append(scope.ClubIDs, m.ClubID)
		}
	}
	return scope, nil
}

// tableAccess is what decides who sees a table and where they sit, kept
// apart from the table so that the tables' notifier can answer a poll from
// memory with the same rules.
type tableAccess struct {
	creator int64
	private bool
	invite  string
	seats   []int64 // user per seat, 0 when empty or a bot
	status  TableStatus
	away    []bool // per seat: a bot stands in, and its player has not said they are back
	// tournament is the tournament whose round the table plays, 0 for none:
	// its staff may watch it (access.staffWatches).
	tournament int64
	// presence is what the presence of the table's seats is computed from
	// (set by the notifier's publish only: accessOf is on the poll's path).
	presence presenceSeats
}

func accessOf(t Table) tableAccess {
	a := tableAccess{creator: t.CreatorID, private: t.Private, invite: t.InviteCode, status: t.Status,
		seats: make([]int64, t.Players)}
	if t.Tournament != nil {
		// The tournament's, not the starter's: its creator is nobody.
		a.tournament, a.creator = t.Tournament.ID, 0
	}
	for _, s := range t.Seats {
		if s.UserID != nil && s.Seat < len(a.seats) {
			a.seats[s.Seat] = *s.UserID
			if s.StandIn != "" && !s.Returning && t.Status == TablePlaying {
				if a.away == nil {
					a.away = make([]bool, t.Players)
				}
				a.away[s.Seat] = true
			}
		}
	}
	return a
}

// seatOf returns the actor's seat, or -1.
func (a tableAccess) seatOf(actor Actor) int {
	for i, u := range a.seats {
		if u != 0 && u == actor.UserID {
			return i
		}
	}
	return -1
}

// member reports whether the actor created the table (a table of no
// tournament: see accessOf) or sits at it.
func (a tableAccess) member(actor Actor) bool {
	return !actor.Anonymous() && (a.creator != 0 && actor.UserID == a.creator || a.seatOf(actor) >= 0)
}

// visible: may the actor see the table? A public one anyone; a private one
// its creator, its players, site admins and holders of its invite code.
func (a tableAccess) visible(actor Actor, invite string) bool {
	return !a.private || a.member(actor) || actor.SiteAdmin ||
		invite != "" && subtle.ConstantTimeCompare([]byte(invite), []byte(a.invite)) == 1
}

// canSeeTable: may the actor see the table (with the invite code they
// hold, if any)? See tableAccess.visible; a tournament's online table also
// its staff while the tournament's staff_watch is on (staffWatches), who
// sit at no seat: they see it as a spectator does.
func (a *access) canSeeTable(t Table, invite string) (bool, error) {
	if accessOf(t).visible(a.actor, invite) {
		return true, nil
	}
	if t.Tournament == nil {
		return false, nil
	}
	return a.staffWatches(t.Tournament.ID)
}

// staffWatches: may the actor watch the online tables of tournament id?
// Those who may referee it (its club's admins, its assigned referees)
// while its online settings let the staff watch (staff_watch).
func (a *access) staffWatches(id int64) (bool, error) {
	if a.actor.Anonymous() || id == 0 {
		return false, nil
	}
	t, err := a.tx.Tournaments().Get(id)
	switch {
	case ErrorCode(err) == ENotFound:
		return false, nil
	case err != nil:
		return false, err
	case t.Online == nil || !t.Online.StaffWatch:
		return false, nil
	}
	return a.canRefereeTournament(t)
}

// canSeeInviteCode: may the actor see the table's invite code? Its creator
// and its players (never the staff watching a tournament's table).
func (a *access) canSeeInviteCode(t Table) bool { return accessOf(t).member(a.actor) }

// canSitAtClubTable: may the actor sit at (or create) a table of the club?
// Its members of any role, and site admins. Errors: ENotFound (club).
func (a *access) canSitAtClubTable(clubID int64) (bool, error) {
	if a.actor.Anonymous() {
		return false, errLoginRequired
	}
	if _, err := a.tx.Clubs().Get(clubID); err != nil {
		return false, err
	}
	return a.hasRole(clubID, RoleMember)
}

// canRunTable: may the actor add bots to the table, start it and cancel
// it? Its creator and site admins; at a tournament's table, which the
// server seats and starts, only site admins.
func (a *access) canRunTable(t Table) bool {
	if a.actor.Anonymous() {
		return false
	}
	return a.actor.SiteAdmin || t.Tournament == nil && a.actor.UserID == t.CreatorID
}

// canReadDealRecords: may the actor read the records of the table's
// finished deals (every hand in them)? Its creator, its players and site
// admins; at a tournament's table, which they see (staffWatches), its
// referees too.
func (a *access) canReadDealRecords(t Table) (bool, error) {
	if a.actor.SiteAdmin || accessOf(t).member(a.actor) {
		return true, nil
	}
	if t.Tournament == nil {
		return false, nil
	}
	return a.staffWatches(t.Tournament.ID)
}

// refereesTable: would the actor act as the table's referee (call the
// time-out, put a bot in for a player), but for their seat
// (mayRefereeTable)? At a tournament's table those who referee the
// tournament (its staff, who see it only while staff_watch is on); at a
// club table the club's referees, admins and owners; at a friendly table
// its creator; site admins at any.
func (a *access) refereesTable(t Table) (bool, error) {
	switch {
	case a.actor.Anonymous():
		return false, nil
	case a.actor.SiteAdmin:
		return true, nil
	case t.Tournament != nil:
		return a.staffWatches(t.Tournament.ID)
	case t.ClubID != nil:
		return a.hasRole(*t.ClubID, RoleReferee)
	}
	return a.canRunTable(t), nil
}

// canClaimPlayer: may the actor, holding its code, make the profile theirs?
// The members of its club (of any role); anyone for a profile of no club.
func (a *access) canClaimPlayer(p Player) (bool, error) {
	if a.actor.Anonymous() {
		return false, nil
	}
	if p.ClubID == nil {
		return true, nil
	}
	r, err := a.role(*p.ClubID)
	return r != "", err
}

// canUnlinkPlayer: may the actor take a claimed profile from its account
// (undo a wrong claim)? The directors of its club, and site admins.
func (a *access) canUnlinkPlayer(p Player) (bool, error) {
	if a.actor.SiteAdmin {
		return true, nil
	}
	if p.ClubID == nil {
		return false, nil
	}
	return a.canManageClub(*p.ClubID)
}

// mayRefereeTable checks that the actor may act as the table's referee
// (what): refereesTable, and never someone seated at the table, whoever
// they are. Errors: EOwnTable (a referee seated at the table), EForbidden.
func (a *access) mayRefereeTable(t Table, what string) error {
	ok, err := a.refereesTable(t)
	switch {
	case err != nil:
		return err
	case !ok:
		return Errorf(EForbidden, "only the table's referee may %s: at a tournament's table the tournament's referees, "+
			"at a club table the club's referees and admins, at a friendly table its creator", what)
	case accessOf(t).seatOf(a.actor) >= 0:
		return Errorf(EOwnTable, "you play at this table: nobody referees their own match; another referee may %s", what)
	}
	return nil
}
