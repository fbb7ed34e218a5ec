package domain

import (
	"context"
	"encoding/json"
	"time"

	"github.com/burraco/burraco/engine"
)

// TableStatus is where a table is in its life: open (seats being filled),
// playing (a match under way), finished (the match is decided), cancelled
// (closed before its match started: see Cancelled).
type TableStatus string

// Table statuses.
const (
	TableOpen      TableStatus = "open"
	TablePlaying   TableStatus = "playing"
	TableFinished  TableStatus = "finished"
	TableCancelled TableStatus = "cancelled"
)

// Valid reports whether s is one of the table statuses.
func (s TableStatus) Valid() bool {
	return s == TableOpen || s == TablePlaying || s == TableFinished || s == TableCancelled
}

// Closed reports whether nothing more happens at a table of status s: its
// match is over, or it was cancelled before it began.
func (s TableStatus) Closed() bool { return s == TableFinished || s == TableCancelled }

// CancelCause says why an open table was cancelled (issue 27): an open
// table nobody plays must not stay in the lobby, nor count against its
// creator's limit of open tables, for ever.
type CancelCause string

// Why a table was cancelled.
const (
	CancelledByCreator CancelCause = "creator" // its creator cancelled it
	CancelledEmpty     CancelCause = "empty"   // the last player left it
	CancelledExpired   CancelCause = "expired" // not started within Config.OpenTableTTL
)

// TableResult says how a finished table's match was decided.
type TableResult string

// Table results.
const (
	ResultPlayed     TableResult = "played"       // MatchFormat decided it over the deals played
	ResultLostOnTime TableResult = "lost_on_time" // a seat's match clock ran out: its team lost
	ResultAbandoned  TableResult = "abandoned"    // a player left (or did not come back in time): their team lost
	// ResultClaimed: a seat was gone past the table's reconnect window and
	// the others claimed the match (AbandonedBy is the gone seat): a win
	// (its team lost) or a draw, as the claim and the claim policy say.
	ResultClaimed TableResult = "claimed"
	// ResultAborted: the match was abandoned before any player's move and
	// a seated player aborted it: no winner, no draw, no result.
	ResultAborted TableResult = "aborted"
)

// ClaimPolicy says what the players present may claim when a seat has been
// gone past the table's reconnect window (issue 29).
type ClaimPolicy string

// Claim policies.
const (
	ClaimWin  ClaimPolicy = "win"  // the match, won (or a draw, if they would rather)
	ClaimDraw ClaimPolicy = "draw" // a draw only
	ClaimBot  ClaimPolicy = "bot"  // a bot stands in for the gone seat (as absent_policy bot)
	ClaimNone ClaimPolicy = "none" // no claims: they wait (the grace period still rules)
)

// Valid reports whether p is one of the claim policies.
func (p ClaimPolicy) Valid() bool {
	return p == ClaimWin || p == ClaimDraw || p == ClaimBot || p == ClaimNone
}

// MatchFormat says when a table's match ends (RULES §10): after a fixed
// number of deals, or when a team reaches a target score; tie-break deals
// are played while tied (always with a target; with a fixed number of deals
// only when RequireWinner).
type MatchFormat = engine.MatchFormat

// Limits of a table.
const (
	MaxMatchDeals   = 50
	MaxClockSeconds = 24 * 3600
	// DefaultGraceSeconds is how long a player on turn may stay away (no
	// move) before their team forfeits the match, when the table does not
	// say.
	DefaultGraceSeconds = 300
	MinGraceSeconds     = 30
	// DefaultReconnectSeconds is a table's reconnect window when it does
	// not say: how long a seat may be gone before the others may claim.
	DefaultReconnectSeconds = 120
	MinReconnectSeconds     = 10
	MinBankSeconds          = 10
)

// Seat is one seat of a table: empty, a user, or the built-in bot.
type Seat struct {
	Seat     int
	UserID   *int64
	UserName string // the user's name, for lists
	Bot      bool
	JoinedAt *time.Time
	// StandIn, when set, is why a bot plays the user's turns: the user was
	// absent past the grace period (StandInAbsent) or a referee put it there
	// (StandInReferee, with StandInReason). Returning says the user has come
	// back: they take the seat back at their next turn.
	StandIn       StandIn
	StandInReason string
	Returning     bool
}

// StandIn says why a bot stands in for a seat's player ("": it does not).
type StandIn string

// Stand-in causes.
const (
	StandInAbsent  StandIn = "absent"  // no move within the grace period, and the table's absent policy is bot
	StandInReferee StandIn = "referee" // a referee replaced the player
)

// PlayedByBot reports whether a bot plays the seat's turns: a bot seat, or
// a bot standing in for its player.
func (s Seat) PlayedByBot() bool { return s.Bot || s.StandIn != "" }

// AbsentPolicy says what happens to a player on turn who makes no move for
// the table's grace period.
type AbsentPolicy string

// Absent policies.
const (
	AbsentForfeit AbsentPolicy = "forfeit" // their team forfeits the match
	AbsentBot     AbsentPolicy = "bot"     // a bot stands in until they come back
)

// MovedBy says who chose a move.
type MovedBy string

// Who chose a move.
const (
	ByPlayer MovedBy = "player" // the seat's player
	ByBot    MovedBy = "bot"    // a bot seat, or a bot standing in for the seat's player
	ByClock  MovedBy = "clock"  // the turn clock ran out (engine.TimeoutMoves)
)

// Taken reports whether someone (a user or a bot) sits in the seat.
func (s Seat) Taken() bool { return s.UserID != nil || s.Bot }

// Table is an online table. Its InviteCode is a secret: the service shows
// it only to the creator and the seated users.
type Table struct {
	ID int64
	// CreatorID is who created the table. A tournament's online table
	// belongs to its tournament: CreatorID keeps who started the round, as
	// a record, and gives them nothing there (see access.go).
	CreatorID int64
	ClubID    *int64
	Rules     RuleSet
	// Options is the complete options object (RULES §11) the table plays.
	Options    json.RawMessage
	Players    int
	Match      MatchFormat
	Private    bool
	InviteCode string
	AutoStart  bool
	// Clocks, 0 when off: seconds per turn (tempo di mossa) and per player
	// for the whole match (tempo di sfida).
	TurnSeconds  int
	MatchSeconds int
	// BankSeconds (0: none; only with a turn clock) is each seat's time
	// bank: a turn's overrun of TurnSeconds draws from it, and the unused
	// part of a turn's TurnSeconds goes back into it, never above
	// BankSeconds; the turn clock runs out when the bank is empty.
	// BankLeft is each seat's bank (milliseconds) as of the start of the
	// current turn.
	BankSeconds int
	BankLeft    []int64
	// GraceSeconds (0: off) is how long a player on turn may make no move
	// before their team forfeits the match (abandonment), unless a shorter
	// turn clock plays the turn for them first.
	GraceSeconds int
	// AbsentPolicy is what the grace period's end does: forfeit, or a bot
	// stands in.
	AbsentPolicy AbsentPolicy
	// ReconnectSeconds is how long a seat may be gone (no poll, no stream,
	// no move: TablePresence) before the others may claim the match, as
	// ClaimPolicy says.
	ReconnectSeconds int
	ClaimPolicy      ClaimPolicy
	// Deadline (nil: none) is the match's time limit (a tournament round's):
	// once the clock passes it Tick calls the RULES §10 time-out
	// (DeadlinePassed) and the match ends with the deal it was called in.
	Deadline       *time.Time
	DeadlinePassed bool
	Status         TableStatus
	FreeSeats      int
	// Version grows by one with every change a client can see: each move
	// (a bot's too) and each deal dealt is a version of its own, and so is
	// any other change (a seat taken, a time-out called).
	Version    int64
	DealNumber int  // the current (or last) deal, 1-based; 0 before the start
	Winner     *int // winning team once finished (nil: draw or not over)
	Draw       bool // finished without a winner
	LostOnTime *int // the seat whose match clock ran out, if that decided the match
	// Result says how the finished match was decided; AbandonedBy is the
	// seat that left it, for ResultAbandoned.
	Result      TableResult
	AbandonedBy *int
	// Cancelled says why a cancelled table was (status cancelled; ""
	// otherwise); FinishedAt is then when.
	Cancelled CancelCause
	Seats     []Seat
	// Tournament is the tournament table it plays, for a table a round of
	// a tournament played online created (nil: a table of no event).
	Tournament *TableTournament
	// Rated says the match moves its players' ratings (issue 29: see
	// ratings.go); RematchWishes are the seats that asked to play again
	// once the match is over, and RematchID the table the rematch is
	// played at once every player agreed (table_rematch.go).
	Rated         bool
	RematchWishes []int
	RematchID     *int64
	// Clock state: when the current turn started, and the match time each
	// seat has used (milliseconds).
	TurnStartedAt *time.Time
	ClockUsed     []int64
	CreatedAt     time.Time
	UpdatedAt     time.Time
	StartedAt     *time.Time
	FinishedAt    *time.Time
}

// TableTournament names the table of a tournament's round an online table
// plays: each deal that ends there is written into that table's sheet.
type TableTournament struct {
	ID    int64
	Round int
	Table int
}

// SeatOf returns the seat of a user at the table, or -1.
func (t Table) SeatOf(userID int64) int {
	for _, s := range t.Seats {
		if s.UserID != nil && *s.UserID == userID && userID != 0 {
			return s.Seat
		}
	}
	return -1
}

// TableInput creates a table.
type TableInput struct {
	Rules RuleSet
	// Options that differ from the rule set's defaults; nil means the defaults.
	Options json.RawMessage
	Players int
	// Match: a fixed number of deals, or a target score; both zero means
	// the target of the options.
	Match        MatchFormat
	ClubID       *int64
	Private      bool
	AutoStart    bool
	TurnSeconds  int
	MatchSeconds int
	// BankSeconds: 0 (none) or MinBankSeconds..MaxClockSeconds, with
	// TurnSeconds.
	BankSeconds int
	// GraceSeconds: nil means DefaultGraceSeconds; 0 turns abandonment by
	// absence off.
	GraceSeconds *int
	// AbsentPolicy: "" means AbsentForfeit.
	AbsentPolicy AbsentPolicy
	// ReconnectSeconds: nil means DefaultReconnectSeconds; ClaimPolicy: ""
	// means ClaimWin.
	ReconnectSeconds *int
	ClaimPolicy      ClaimPolicy
	// Rated: the match moves its players' ratings (no bots may sit).
	Rated bool
	// Deadline, when set, must be in the future.
	Deadline *time.Time
	// Seat is the seat the creator takes (nil: seat 0); Spectate leaves the
	// creator standing.
	Seat     *int
	Spectate bool
}

// TableFilter filters and pages the lobby.
type TableFilter struct {
	OpenSeats bool        // only open tables with a free seat
	Rules     RuleSet     // empty: every rule set
	ClubID    *int64      // only this club's tables
	Status    TableStatus // empty: every status
	Mine      bool        // only the tables the caller created or sits at
	Limit     int
	Offset    int
}

// TableDeal is one deal of a table as stored. Seed and Position are
// secret while the deal runs: only the service reads them.
type TableDeal struct {
	TableID  int64
	Number   int
	Dealer   int
	Seed     uint64
	Totals   []int // running match totals per team when it was dealt
	TieBreak bool
	// Position is the engine Position after the first Moves moves of the
	// deal's move log: the log may run up to PositionEvery-1 moves past it
	// (a move stores only its log row), and a deal that ended, or whose
	// time-out was called, has it stored then.
	Position json.RawMessage
	Moves    int
	// TimeOutAt is the number of moves played when the referee called the
	// time-out (nil: not called), as engine.Record's timeout_at.
	TimeOutAt *int
	Score     []engine.Score // per team, once ended
	StartedAt time.Time
	EndedAt   *time.Time
}

// TableMove is one stored move of a deal (append-only).
type TableMove struct {
	TableID int64
	Deal    int
	Index   int
	Seat    int
	Move    json.RawMessage // engine.Move JSON
	Auto    bool            // played by the server: a bot seat or a time-out
	By      MovedBy
	At      time.Time
	// Version is the table version the move made (0: stored before moves
	// had versions of their own).
	Version int64
	// Taken is what the move brought into the mover's hand (engine.Taken
	// JSON; empty for moves stored before it was kept): secret, each
	// viewer is shown only their part of it (engine.Taken.SeenBy).
	Taken json.RawMessage
}

// LastMove is the last move of a table's current deal, as everyone sees it.
type LastMove struct {
	Seat int
	Move json.RawMessage
	Auto bool
	By   MovedBy
	At   time.Time
}

// DealScore is a finished (or running) deal in a table's list of deals.
type DealScore struct {
	Number    int
	Dealer    int
	TieBreak  bool
	Score     []engine.Score // nil while the deal runs
	StartedAt time.Time
	EndedAt   *time.Time
}

// TableState is a table as one viewer sees it: the table, the viewer's seat
// (-1 for a spectator) and, once started, the deal's View for that seat.
type TableState struct {
	Table    Table
	Seat     int
	Deal     *DealScore   // the current deal, nil before the start
	View     *engine.View // nil before the start
	LastMove *LastMove
	Deals    []DealScore // finished deals
	Totals   []int       // match totals per team over the finished deals
	// Clocks, when on: seconds left in the turn and per seat in the match.
	TurnLeft  *float64
	MatchLeft []float64
	// BankLeft, with a time bank, is each seat's bank in seconds now (the
	// seat on turn's less what its turn has overrun).
	BankLeft []float64
	// Presence is each seated player's presence when the state was read
	// (not part of the version: it changes without one).
	Presence []SeatPresence
}

// DealRecord is a finished deal's full record: the engine.Record that
// `burraco replay` reads, with the time of each move.
type DealRecord struct {
	Record engine.Record
	Times  []time.Time
	Auto   []bool
	By     []MovedBy
}

// MoveInput is a move a seated user plays.
type MoveInput struct {
	Move    json.RawMessage // engine.Move JSON
	Version int64           // the version the client saw
	// IdempotencyKey, when set, makes a retry of the same request answer
	// the first result instead of playing twice (keys kept 24 h, per user).
	IdempotencyKey string
}

// BotFunc chooses a move for seat, whose turn it is in g, drawing its
// random choices from seed. It must not change g.
type BotFunc func(g *engine.Game, seat int, seed uint64) (engine.Move, error)

// TableService runs online tables. Authorisation: a logged-in user creates
// tables and sits at them (a club table only for the club's members); the
// creator adds bots and starts; a private table is seen only by the creator,
// the seated users and whoever holds its invite code (to anyone else it does
// not exist: ENotFound). During a deal nothing hidden from a viewer is
// reachable by them.
type TableService interface {
	// Create creates a table; the creator sits in Seat unless Spectate.
	// Errors: EUnauthenticated, EInvalid (rules, options, players, match,
	// turn_seconds, match_seconds, seat; all at once), ENotFound (club),
	// EForbidden (not a member of the club).
	Create(ctx context.Context, actor Actor, in TableInput) (Table, error)
	// Get returns a table. Errors: ENotFound.
	Get(ctx context.Context, actor Actor, id int64, invite string) (Table, error)
	// List returns the lobby: public tables, and the private ones the
	// actor created or sits at. Errors: EInvalid.
	List(ctx context.Context, actor Actor, f TableFilter) (Page[Table], error)
	// Join seats the actor in seat (nil: the first free one). Errors:
	// EUnauthenticated, ENotFound, EForbidden (club table, not a member),
	// EConflict (started, seat taken, no free seat, already seated),
	// EInvalid (seat).
	Join(ctx context.Context, actor Actor, id int64, seat *int, invite string) (Table, error)
	// Leave frees the actor's seat before the start (the last player to
	// leave an open table cancels it: CancelledEmpty); during the match it
	// forfeits it: the running deal is ended by referee (scored, its record
	// readable), the actor's team loses, and the table is finished with
	// Result ResultAbandoned and AbandonedBy the actor's seat. Errors:
	// EUnauthenticated, ENotFound, EConflict (not seated, or the match is
	// over), ETableCancelled.
	Leave(ctx context.Context, actor Actor, id int64) (Table, error)
	// CallTimeOut is the referee's time-out (RULES §10) of the running
	// deal: its last round is played, then it ends (engine
	// Game.CallTimeOut); the deal's record keeps when it was called.
	// Allowed to the table's referee (access.mayRefereeTable), never to
	// one seated at the table. Errors: EUnauthenticated, ENotFound,
	// EForbidden, EOwnTable (seated), EConflict (not playing), not_allowed
	// (already called), deal_over.
	CallTimeOut(ctx context.Context, actor Actor, id int64) (TableState, error)
	// ReplaceByBot puts a bot in the place of seat's player (a referee's
	// decision, with its reason, kept on the seat): the bot plays the
	// seat's turns, at once when it is on turn, until the player comes
	// back (any request of theirs on the table: reading it, its state or
	// its moves, polling, a move attempt),
	// who then takes the seat back at its next turn. Allowed to the
	// table's referee (access.mayRefereeTable), never to one seated at the
	// table. Errors: EUnauthenticated, ENotFound, EForbidden, EOwnTable
	// (seated), EInvalid (reason, seat), EConflict (not playing, a bot's
	// seat, a bot already stands in).
	ReplaceByBot(ctx context.Context, actor Actor, id int64, seat int, reason string) (TableState, error)
	// Presence returns the presence of the seated players of table id, as
	// this process knows it (the polls, event streams and moves it serves:
	// nothing is written to the database for it, and with several server
	// processes a player polling another process is gone here), and ok
	// false when the table is not in its memory (not polled here yet). A
	// closed table has none. It does not check who may see the table: the
	// caller has.
	Presence(id int64) (presence []SeatPresence, ok bool)
	// Claim ends the match, or has bots stand in, when an opponent of the
	// actor has been gone (Presence) past the table's ReconnectSeconds:
	// claim is what is claimed (win: the gone seat's team loses; draw;
	// bot: a bot stands in for each gone opponent; "": what the table's
	// ClaimPolicy gives), within that policy (win allows a draw too; a
	// tournament's table takes no draw). A win or draw finishes the table
	// with ResultClaimed and AbandonedBy the gone seat (longest gone
	// first); a tournament's sheet takes a claimed win as a forfeit of the
	// gone seat's side. Errors: EUnauthenticated, ENotFound, EForbidden
	// (not seated), EInvalid (claim), EConflict (not playing),
	// ETableCancelled, EClaimNotAllowed, EOpponentPresent, EWindowNotOver.
	Claim(ctx context.Context, actor Actor, id int64, claim ClaimPolicy) (Table, error)
	// Abort ends a match abandoned before its first move (no player has
	// moved: bots' and the clock's moves do not count) without a result:
	// the running deal is ended by referee and the table is finished with
	// ResultAborted, no winner and no draw. Any seated player may, once
	// another player is gone (any time gone: no window). Nothing aborts a
	// match by itself: presence is one process's memory, which must not
	// end a match on its own (the grace period still forfeits a player on
	// turn who does not move). Errors: EUnauthenticated, ENotFound,
	// EForbidden (not seated), EConflict (not playing), ETableCancelled,
	// EAbortNotAllowed (a tournament's table), EAlreadyStarted,
	// EOpponentPresent.
	Abort(ctx context.Context, actor Actor, id int64) (Table, error)
	// Rematch records (want) or withdraws (!want) the actor's wish to play
	// again, at a finished table, with the same seats and options
	// (issue 29). When the wish completes the agreement of every seated
	// user (bots agree), a new table starts at once with the same seats,
	// options and creator, the first deal dealt by the seat after the
	// finished match's first dealer, and the finished table's RematchID
	// names it. Idempotent: a wish made again, or withdrawn when there is
	// none, changes nothing (no new version); a wish after the rematch
	// began answers the table. Of two wishes that complete it at once,
	// the second (the table's row is locked) finds the rematch begun.
	// Errors: EUnauthenticated, ENotFound, ENotSeated, ETableCancelled,
	// EMatchNotOver, EConflict (a tournament's table: its tournament pairs
	// the next round), ERematchStarted (a wish withdrawn once it began).
	Rematch(ctx context.Context, actor Actor, id int64, want bool) (Table, error)
	// AddBot seats the built-in bot (creator only). Errors: as Join, and
	// EForbidden (not the creator), ERatedWithBots (a rated table).
	AddBot(ctx context.Context, actor Actor, id int64, seat *int) (Table, error)
	// Cancel closes an open table before its match starts (creator only):
	// status cancelled (Cancelled CancelledByCreator), out of the lobby and
	// of its creator's count of open tables; nobody sits nor plays there
	// any more. Errors: EUnauthenticated, ENotFound, EForbidden (not the
	// creator; a tournament's table), EConflict (started or finished),
	// ETableCancelled (already).
	Cancel(ctx context.Context, actor Actor, id int64) (Table, error)
	// CloseStale cancels (CancelledExpired) the open tables of no
	// tournament created Config.OpenTableTTL or longer before now, and
	// returns how many; serve runs it periodically.
	CloseStale(ctx context.Context, now time.Time) (int, error)
	// Start deals the first deal (creator only, every seat taken). Errors:
	// EUnauthenticated, ENotFound, EForbidden, EConflict.
	Start(ctx context.Context, actor Actor, id int64) (Table, error)
	// State returns the table as the actor sees it. Errors: ENotFound.
	State(ctx context.Context, actor Actor, id int64, invite string) (TableState, error)
	// Move plays a move of the actor's seat, then the bots' turns. Errors:
	// EUnauthenticated, ENotFound, EForbidden (not seated), EConflict (not
	// playing), EVersionConflict (stale version: the current one is in
	// Fields), not_your_turn, and the engine's codes (invalid_meld, …).
	Move(ctx context.Context, actor Actor, id int64, in MoveInput) (TableState, error)
	// Moves returns the moves of deal that made a version past since (-1:
	// from the first), with the deal as dealt, as the actor sees them: a
	// card drawn from the stock or a pot's cards only to the seat that took
	// them. Deal 0 is the deal a follower who saw version since is in (an
	// earlier one when since is before the current deal), the current deal
	// without since. When that deal has ended and the next was dealt, the
	// feed says so (Change), and its Version is the change's. Whoever may
	// see the table may read it. Errors: ENotFound (no such table or deal).
	Moves(ctx context.Context, actor Actor, id int64, invite string, deal int, since int64) (MoveFeed, error)
	// Deals lists the table's deals with their scores (the running one
	// without). Errors: ENotFound.
	Deals(ctx context.Context, actor Actor, id int64, invite string) ([]DealScore, error)
	// Record returns a finished deal's record, for the table's players and
	// its creator. Errors: ENotFound (also a running deal), EForbidden.
	Record(ctx context.Context, actor Actor, id int64, number int) (DealRecord, error)
	// Tick plays the time-outs due at now: on a turn clock that ran out
	// (and the seat's time bank, when the table has one),
	// the seat on turn draws (if it has not taken) and discards its
	// highest-value card it may discard (moves marked auto); on a match
	// clock that ran out, the deal is ended (by referee) and the match is
	// lost by that seat's team; a human seat on turn that made no move for
	// the table's GraceSeconds (and no shorter turn clock played for it)
	// forfeits the match as if it had left (absent policy forfeit) or has
	// a bot stand in for it (absent policy bot), the absence counted from the
	// process's first Tick at the earliest (a server that was down forfeits
	// nobody for it); at a table whose Deadline has passed, the RULES §10
	// time-out is called (as CallTimeOut) and the match ends with that
	// deal. It returns how many tables it
	// changed.
	Tick(ctx context.Context, now time.Time) (int, error)
	// TickOwned is Tick on the tables own gives this process (with table
	// leases: those it owns, and those whose owner is gone, taken over
	// first), each time-out written in the context own returns (fenced
	// by the table's lease). A nil own is Tick.
	TickOwned(ctx context.Context, now time.Time, own ClockOwner) (int, error)
	// Watch waits until the table's version is past since (or ctx ends)
	// and returns the version then and the actor's seat (-1: a spectator),
	// for the ETag of a state. A change that is not yet seen is answered
	// from memory, without reading the database. Errors: ENotFound.
	Watch(ctx context.Context, actor Actor, id int64, invite string, since int64) (version int64, seat int, err error)
	// Park is Watch for a caller that holds the wait without a goroutine:
	// the ParkedPoll looks as Watch does and, instead of waiting, has a
	// function run at the table's next change (see ParkedPoll).
	Park(actor Actor, id int64, invite string, since int64) *ParkedPoll
	// Brisk reports whether table id moves briskly, as this process sees
	// it: its last two versions came within d of each other, the last less
	// than d ago, so that its next version is likely within d (bots'
	// pace). A server that parks waiting polls and idle connections to save
	// memory may keep them instead: parking and resuming a connection cost
	// more CPU than a wait of d holds memory.
	Brisk(id int64, d time.Duration) bool
	// Follow feeds the changes other server processes commit to Watch
	// (when the storage is a TableFeed) until ctx ends; serve runs it for
	// the life of the process. Without it, Watch sees this process's
	// changes only.
	Follow(ctx context.Context) error
	// Forget drops what this process keeps of table id in memory (its
	// parsed game, the version and access its polls are answered from)
	// and wakes the polls waiting on it, which read the table again.
	// Called when the table's lease comes to this process (another may
	// have moved the table since this one last served it, and with leases
	// its moves send no notice of their own: docs/SCALE-OUT.md §5, §7)
	// and when it leaves (the polls it holds learn the new owner's
	// versions from the database, not from what it kept).
	Forget(id int64)
}

// TableFeed carries table changes between server processes sharing one
// database: the storage implements it (PostgreSQL LISTEN/NOTIFY; on SQLite,
// one process per file, it only waits for ctx).
type TableFeed interface {
	// FollowTables calls changed with each table version any process
	// commits (this one's included), and resync whenever changes may have
	// been missed (each time it starts listening, also after a lost
	// connection), until ctx ends.
	FollowTables(ctx context.Context, changed func(tableID, version int64), resync func()) error
}

// TableRepo stores tables, their seats, deals and moves. Tables it returns
// carry their seats (with user names).
type TableRepo interface {
	// Create inserts t with its seats and sets its ID.
	Create(t *Table) error
	// CountOpenOfCreator counts the tables open or playing that the user
	// created, but a tournament's (which are the tournament's). On PostgreSQL it first locks the user's row until the end
	// of the transaction, so that a user's creations are counted one after
	// the other (SQLite write transactions are serialised anyway).
	CountOpenOfCreator(userID int64) (int, error)
	// Get returns a table. Errors: ENotFound.
	Get(id int64) (Table, error)
	// Lock returns a table and locks its row until the end of the
	// transaction (PostgreSQL; SQLite write transactions are serialised).
	// Errors: ENotFound.
	Lock(id int64) (Table, error)
	// Cached returns the table at version from the store's memory, without
	// a query, when the store holds that version (its row and its seats
	// with their users' names, all of which change only with the version:
	// users are never renamed, and a seated user cannot be deleted).
	Cached(id, version int64) (Table, bool)
	// ByInvite returns the table with that invite code. Errors: ENotFound.
	ByInvite(code string) (Table, error)
	// Update stores every field of t except ID, CreatorID, the game
	// (rules, options, players, match, club, private, invite, clocks
	// settings) and CreatedAt; seats are stored by SetSeat. It announces
	// the table's version to the other server processes sharing the
	// database (see TableFeed), delivered when the transaction commits.
	Update(t Table) error
	// SetSeat stores one seat. Errors: EConflict (the user sits elsewhere
	// at the table).
	SetSeat(tableID int64, s Seat) error
	// List returns one page of tables matching f visible to userID (public,
	// or private and created by or seated to userID; a tournament's table
	// is not its creator's), newest first, and cancelled tables only when f
	// asks for status cancelled, and
	// the total count; f is validated. The clock (TurnStartedAt, ClockUsed)
	// may be left out: a lobby does not show it.
	List(f TableFilter, userID int64) ([]Table, int, error)
	// CreateDeal inserts a deal.
	CreateDeal(d TableDeal) error
	// Deal returns a deal. Errors: ENotFound.
	Deal(tableID int64, number int) (TableDeal, error)
	// UpdateDeal stores a deal's position, moves, score and end.
	UpdateDeal(d TableDeal) error
	// Deals returns every deal of a table, in order.
	Deals(tableID int64) ([]TableDeal, error)
	// AppendMove inserts a move.
	AppendMove(m TableMove) error
	// Moves returns the moves of a deal, in order.
	Moves(tableID int64, deal int) ([]TableMove, error)
	// MovesSince returns the moves of a deal that made a version past
	// since, in order.
	MovesSince(tableID int64, deal int, since int64) ([]TableMove, error)
	// DealFrom returns a deal without its position, and its moves from
	// index from on, in order, in one read (a running deal kept in memory
	// catches up with them). Errors: ENotFound.
	DealFrom(tableID int64, number, from int) (TableDeal, []TableMove, error)
	// MovesFrom returns the moves of a deal from index from on, in order.
	MovesFrom(tableID int64, deal, from int) ([]TableMove, error)
	// LastMove returns the last move of a deal. Errors: ENotFound.
	LastMove(tableID int64, deal int) (TableMove, error)
	// MoveUpTo returns the table's last move (any deal) whose version
	// is at most version, among the moves that have one (version > 0).
	// Errors: ENotFound (none).
	MoveUpTo(tableID, version int64) (TableMove, error)
	// Clocked returns the playing tables that have a turn or match clock
	// or a grace period.
	Clocked() ([]Table, error)
	// StaleOpen returns the ids of at most limit open tables of no
	// tournament created at before or earlier, oldest first.
	StaleOpen(before time.Time, limit int) ([]int64, error)
}
