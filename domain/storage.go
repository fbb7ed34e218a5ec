package domain

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Storage is what the services need from a database. The domain declares it;
// the store package implements it (on SQLite and PostgreSQL).
//
// Every public service method runs in exactly one unit of work: InTx for
// anything that writes, View for reads. A Tx is bound to the context given to
// InTx or View, so repository methods take no context of their own.
//
// Repositories translate driver errors into *Error once: a missing row is
// ENotFound, a unique violation EConflict, a reference to a missing row
// ENotFound, deleting a row that is still referenced EConflict, and a lock
// that could not be had in time (SQLite busy timeout, PostgreSQL
// lock_timeout, deadlock or serialisation failure) EUnavailable.
type Storage interface {
	// InTx runs fn in a read-write transaction. It commits when fn returns
	// nil and rolls back otherwise (returning fn's *Error unchanged; a busy
	// database, also at BEGIN or COMMIT, is EUnavailable).
	InTx(ctx context.Context, fn func(tx Tx) error) error
	// View runs fn in a read-only transaction (one consistent snapshot).
	View(ctx context.Context, fn func(tx Tx) error) error
	// ViewOne runs fn, which reads with exactly one query, outside any
	// explicit transaction: one statement reads one consistent state by
	// itself, and BEGIN and COMMIT would cost as much again. A second
	// query, or a write, in fn fails (an internal error): use View. (A
	// repository's List that reads its page and total in one statement
	// may count with a second one when the page is past the end, where no
	// row carries the total: its page is empty either way.)
	ViewOne(ctx context.Context, fn func(tx Tx) error) error
}

// OwnedMoves is what a Storage may offer a table's owner process for its
// plain moves (docs/SCALE-OUT.md §13 step 4): the move written in one
// statement, outside any transaction, on the condition that the table is
// still at the version the owner played it from and that the owner still
// holds the table (the lease fence the context carries). The table
// service takes this path when its Storage implements it and says yes
// (tableMoves.moveInMemory); else, and whenever it writes nothing, InTx.
type OwnedMoves interface {
	// OneStatementMove reports whether a move of table id made with ctx
	// may be written so (the store's database and ctx's fence allow it).
	OneStatementMove(ctx context.Context, id int64) bool
	// CachedTable is TableRepo.Cached outside a transaction: table id at
	// version from the store's memory, without a query.
	CachedTable(id, version int64) (Table, bool)
	// AppendMoveIfAt writes m's move, its table and its answer (as
	// AppendMove, Update and the answer's Put would in a transaction), all
	// or none, if table m.Table.ID is still at version m.At, ctx's fence
	// still holds and the answer's key is not live. written is false when
	// nothing was written: the table or its lease moved meanwhile, the key
	// is live, or the write is not a move's play alone (a status, a seat);
	// the caller plays the move through InTx instead.
	AppendMoveIfAt(ctx context.Context, m OwnedMove) (written bool, err error)
}

// OwnedMove is a plain move played in memory by its table's owner, to be
// written in one statement (OwnedMoves).
type OwnedMove struct {
	At    int64     // the table's version the move was played from
	Move  TableMove // the move's row
	Table Table     // the table as the move left it
	// Answer is the mover's answer to keep under the move's
	// Idempotency-Key (nil without one), stored unless the key is live
	// at Now.
	Answer *IdempotentAnswer
	Now    time.Time
	// Deal, when not nil, is the running deal with its position to store
	// (every PositionEvery moves), written by the same statement.
	Deal *TableDeal
}

// ErrSecondQuery is what a second query in ViewOne fails with (wrapped or
// not): a caller that tries the one-query path first falls back to View
// on it.
var ErrSecondQuery = errors.New("store: a second query in ViewOne: use View for several")

// Tx is one unit of work and gives access to the repositories within it.
type Tx interface {
	Users() UserRepo
	RefreshTokens() RefreshTokenRepo
	Clubs() ClubRepo
	Memberships() MembershipRepo
	Players() PlayerRepo
	Tournaments() TournamentRepo
	TournamentEvents() TournamentEventRepo
	Settings() SettingRepo
	Tables() TableRepo
	Idempotency() IdempotencyRepo
	Joins() JoinRepo
	Seasons() SeasonRepo
	Ratings() RatingRepo
}

// UserRepo stores users and their password hashes.
type UserRepo interface {
	// Create inserts u and sets its ID. Errors: EConflict (email taken).
	Create(u *User, passwordHash string) error
	// Get returns a user. Errors: ENotFound.
	Get(id int64) (User, error)
	// ByEmail returns a user and its password hash by normalised email.
	// Errors: ENotFound.
	ByEmail(email string) (User, string, error)
	// AnySiteAdmin reports whether at least one site admin exists.
	AnySiteAdmin() (bool, error)
	// LockSiteAdmins returns the ids of the site admins and, on PostgreSQL,
	// locks their rows until the end of the transaction, so that two
	// transactions cannot each remove one of the last two.
	LockSiteAdmins() ([]int64, error)
	// SetSiteAdmin grants or takes away the site-admin flag. Errors:
	// ENotFound.
	SetSiteAdmin(id int64, admin bool, at time.Time) error
	// LockSessionVersion returns the user's session version and, on
	// PostgreSQL, share-locks their row until the end of the transaction,
	// so that a password reset (SetPassword) waits for a session being
	// stored, and then revokes it. Errors: ENotFound.
	LockSessionVersion(id int64) (int64, error)
	// SetPassword replaces a user's password hash and bumps their session
	// version. Errors: ENotFound.
	SetPassword(id int64, passwordHash string, at time.Time) error
	// Delete removes a user with their refresh tokens and memberships; a
	// player profile linked to the user stays, unlinked. Errors: ENotFound.
	Delete(id int64) error
}

// RefreshToken is a stored refresh token: only the SHA-256 hash of the
// token is kept. Tokens of one login form a family; each rotation adds a
// token to the family and marks the previous one rotated.
type RefreshToken struct {
	ID        int64
	UserID    int64
	FamilyID  string
	TokenHash string // hex SHA-256 of the token
	CreatedAt time.Time
	ExpiresAt time.Time
	RotatedAt *time.Time // set when exchanged for the next token
	RevokedAt *time.Time // set on logout or reuse detection
}

// RefreshTokenRepo stores refresh tokens.
type RefreshTokenRepo interface {
	// Create inserts t and sets its ID.
	Create(t *RefreshToken) error
	// ByHash returns the token with the given hash. Errors: ENotFound.
	ByHash(tokenHash string) (RefreshToken, error)
	// MarkRotated marks a token rotated at the given time if it is neither
	// rotated nor revoked yet, and reports whether it did. A false result
	// means another request rotated or revoked it first.
	MarkRotated(id int64, at time.Time) (bool, error)
	// RevokeFamily revokes every token of the family not yet revoked.
	RevokeFamily(familyID string, at time.Time) error
	// RevokeUser revokes every token of the user not yet revoked: all
	// their sessions end at the next refresh.
	RevokeUser(userID int64, at time.Time) error
	// DeleteExpired deletes at most limit tokens that expired before the
	// given time and returns how many it deleted (fewer than limit: no
	// more are left).
	DeleteExpired(before time.Time, limit int) (int64, error)
}

// ClubRepo stores clubs.
type ClubRepo interface {
	// Create inserts c and sets its ID.
	Create(c *Club) error
	// Get returns a club. Errors: ENotFound.
	Get(id int64) (Club, error)
	// Lock returns a club and locks its row until the end of the transaction
	// (on PostgreSQL; SQLite write transactions are serialised anyway), so
	// that changes to its memberships do not race. Errors: ENotFound.
	Lock(id int64) (Club, error)
	// Update stores the name, city, description and updated time of c.
	// Errors: ENotFound.
	Update(c Club) error
	// List returns one page of clubs ordered by name and the total count;
	// f is already validated (Limit 1..100).
	List(f ClubFilter) ([]Club, int, error)
}

// MembershipRepo stores memberships of users in clubs.
type MembershipRepo interface {
	// Create inserts m. Errors: EConflict (already a member), ENotFound
	// (club or user missing).
	Create(m *Membership) error
	// Get returns a membership with the user's name and email. Errors:
	// ENotFound.
	Get(clubID, userID int64) (Membership, error)
	// SetRole changes a member's role. Errors: ENotFound.
	SetRole(clubID, userID int64, role Role, at time.Time) error
	// Delete removes a membership. Errors: ENotFound.
	Delete(clubID, userID int64) error
	// CountRole counts the club's members with exactly that role.
	CountRole(clubID int64, role Role) (int, error)
	// List returns one page of a club's members ordered by user name and the
	// total count; f is already validated.
	List(clubID int64, f MemberFilter) ([]Membership, int, error)
	// OfUser returns every membership of a user, ordered by club name.
	OfUser(userID int64) ([]Membership, error)
	// ListOfUser returns one page of a user's memberships ordered by club
	// name and the total count; f is already validated.
	ListOfUser(userID int64, f MyClubsFilter) ([]Membership, int, error)
}

// PlayerRepo stores player profiles.
type PlayerRepo interface {
	// Create inserts p and sets its ID. Errors: EConflict (federation id or
	// user already used), ENotFound (club or user missing).
	Create(p *Player) error
	// Get returns a player. Errors: ENotFound.
	Get(id int64) (Player, error)
	// Update stores every field of p except ID and CreatedAt. Errors:
	// ENotFound, EConflict.
	Update(p Player) error
	// Delete removes a player, keeping its name for Names (the results of
	// the tournaments it played in name it). Errors: ENotFound, EConflict
	// (still referenced).
	Delete(id int64, at time.Time) error
	// List returns one page of players ordered by name and the total count;
	// f is already validated. It is one query (PlayerService.List runs it
	// in ViewOne).
	List(f PlayerFilter) ([]Player, int, error)
	// IDsOfUser returns the ids of the player profiles linked to a user.
	IDsOfUser(userID int64) ([]int64, error)
	// Names returns the names of the players with these ids, deleted
	// players' included (the name they had when deleted); ids of no player
	// are left out.
	Names(ids []int64) (map[int64]string, error)
	// Categories returns the category tags of the players with these ids
	// that have any (issue 32); the others are left out.
	Categories(ids []int64) (map[int64][]string, error)
}

// TournamentRepo stores tournaments. Tournaments it returns carry their
// club's name.
type TournamentRepo interface {
	// Create inserts t and sets its ID and ClubName. Errors: ENotFound
	// (club missing).
	Create(t *Tournament) error
	// Get returns a tournament. Errors: ENotFound.
	Get(id int64) (Tournament, error)
	// Lock returns a tournament and locks its row until the end of the
	// transaction (on PostgreSQL; SQLite write transactions are serialised
	// anyway), so that changes do not race. Errors: ENotFound.
	Lock(id int64) (Tournament, error)
	// Update stores the fields of t that PATCH changes: name, description,
	// the game (rules, options, players per table, kind), deals per round,
	// start, the set-up and the updated time. The status, cancel reason,
	// opening time and version belong to the event log
	// (TournamentEventRepo.Append); the lots seed never changes. Errors:
	// ENotFound.
	Update(t Tournament) error
	// Delete removes a tournament. Errors: ENotFound, EConflict (still
	// referenced).
	Delete(id int64) error
	// List returns one page of the tournaments that match f and are public
	// or drafts within drafts, ordered by start time, and the total count;
	// f is already validated.
	List(f TournamentFilter, drafts DraftScope) ([]Tournament, int, error)

	// Stamp returns what a poll of a tournament's state needs: its club,
	// version, last update and whether it is public (has left draft), in
	// one cheap statement. Errors: ENotFound.
	Stamp(id int64) (TournamentStamp, error)

	// Referees lists the tournament's referees, by name, with their role
	// in its club now ("" when no longer a member).
	Referees(id int64) ([]TournamentReferee, error)
	// IsReferee reports whether the user is assigned to the tournament.
	IsReferee(id, userID int64) (bool, error)
	// AddReferee assigns a referee, and reports whether they were not
	// already (an existing assignment is kept as it is). Errors: ENotFound
	// (tournament or user missing).
	AddReferee(id, userID int64, at time.Time) (bool, error)
	// RemoveReferee takes a referee off, and reports whether they were
	// assigned.
	RemoveReferee(id, userID int64) (bool, error)

	// WithPlayers lists, ascending, the tournaments any of the players was
	// ever entered in (a withdrawn entry included), whatever their status.
	WithPlayers(players []int64) ([]int64, error)
	// RefereedBy lists, ascending, the tournaments the user is assigned to
	// referee.
	RefereedBy(userID int64) ([]int64, error)
}

// TournamentStamp is what tells a poller whether a tournament changed.
type TournamentStamp struct {
	ID        int64
	ClubID    int64
	Version   int64
	UpdatedAt time.Time
	Public    bool
}

// TournamentEventRecord is one stored event of a tournament's log, as the
// tourney package's Event (the service converts): Seq runs 1, 2, ... per
// tournament; By is the acting user (0: the server itself); Data is the
// event's JSON object (on PostgreSQL stored as JSONB: read back equal as
// JSON, not byte for byte).
type TournamentEventRecord struct {
	Seq    int64
	At     time.Time
	By     int64
	Kind   string
	Data   json.RawMessage
	Reason string
}

// TournamentMirror is what the tournament row mirrors of the state its log
// folds to, written with the events that change it: the status and, once
// cancelled, the reason; and the players of the entries the events added
// (indexed for TournamentRepo.WithPlayers). The zero value leaves the row's
// status alone and adds no player.
type TournamentMirror struct {
	Status       TournamentStatus
	CancelReason string
	Players      []int64
}

// TournamentEventRepo is a tournament's append-only event log and what the
// tournament row mirrors of it. Its version (Tournament.Version) is the seq
// of its last event.
type TournamentEventRepo interface {
	// Append appends events, numbered expectSeq+1, expectSeq+2, ..., to
	// the tournament's log if its version is still expectSeq, and in the
	// same statement moves the version to the last of them, sets
	// updated_at to the last one's At and, when m.Status is set, the
	// status and cancel reason, and the opening time when the tournament
	// first leaves draft (for any status but cancelled). Two writers that
	// read the same version cannot both append: the version check (a
	// conditional UPDATE, which waits for the other's row lock on
	// PostgreSQL) and the primary key (tournament_id, seq) both refuse the
	// second. Errors: EVersionConflict (the version moved), ENotFound (no
	// such tournament); an error of the caller's (no events, or seqs that
	// do not follow expectSeq) is an internal error.
	Append(tournamentID, expectSeq int64, events []TournamentEventRecord, m TournamentMirror) error
	// After returns the tournament's events with a seq above afterSeq, in
	// order (none: an empty slice).
	After(tournamentID, afterSeq int64) ([]TournamentEventRecord, error)
	// Version returns the seq of the tournament's last event (0: none).
	// Errors: ENotFound.
	Version(tournamentID int64) (int64, error)
}

// SettingRepo stores named server settings (e.g. signing keys).
type SettingRepo interface {
	// Get returns a setting's value. Errors: ENotFound.
	Get(name string) (string, error)
	// Put creates or replaces a setting.
	Put(name, value string, at time.Time) error
	// PutIfAbsent creates a setting unless it exists, and reports whether it
	// did; concurrent callers agree on one value.
	PutIfAbsent(name, value string, at time.Time) (bool, error)
}

// WriteMarks is what a Storage may tell of the writes it has committed, so
// that a read can be kept in memory while nothing it read has changed
// (keptReads). Records are named as the store names them (its tables:
// "players", "tables", "table_seats", "users").
type WriteMarks interface {
	// Mark returns a number that moves whenever a write to one of the
	// records commits, in this process or (once heard) in another; ok is
	// false while such a write is under way, or while the store cannot
	// hear other processes' writes: a read made then must not be kept.
	Mark(records ...string) (mark uint64, ok bool)
}
