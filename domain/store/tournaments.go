package store

import (
	"encoding/json"
	"strconv"
	"time"

	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/domain/vp"
	"github.com/burraco/burraco/internal/fold"
)

type tournamentRow struct {
	ID              int64 `gorm:"primaryKey"`
	ClubID          int64
	Name            string
	Description     string
	Rules           string
	Options         string // the JSON options object, as the domain normalised it
	PlayersPerTable int
	Kind            string
	DealsPerRound   int
	StartsAt        time.Time
	Status          string
	Search          string       // fold.Search(name): what ?q= compares
	Setup           setupColumns `gorm:"embedded"`
	LotsSeed        string       // a uint64 in decimal (SQLite has no unsigned 64-bit integer)
	CancelReason    string
	OpenedAt        *time.Time
	Version         int64
	CreatedAt       time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt       time.Time `gorm:"autoUpdateTime:false"`
}

// setupColumns are the columns of domain.TournamentSetup.
type setupColumns struct {
	Movement             string
	Rounds               int
	MitchellStep         int
	TargetScore          int
	VPTable              *string // the JSON vp.Table; NULL: the built-in
	TieBreaks            *string // the JSON array of criteria; NULL: the default order
	RestVP               int     `gorm:"column:rest_vp"`
	RestMP               int     `gorm:"column:rest_mp"`
	AbandonVP            int     `gorm:"column:abandon_vp"`
	RemainingGetsRest    bool
	ForbidSameClub       bool
	AvoidRepeatOpponents bool
	LateEntryRound       int
	TeamPairs            int
	Played               string  // live | online
	Online               *string // the JSON domain.OnlineSettings; NULL when none were set
	Prizes               *string // the JSON []domain.Prize; NULL when there are none
	Phases               *string // the JSON []tourney.Phase; NULL for a tournament of one phase
}

func (tournamentRow) TableName() string { return "tournaments" }

func tournamentRowOf(t domain.Tournament) tournamentRow {
	return tournamentRow{ID: t.ID, ClubID: t.ClubID, Name: t.Name, Description: t.Description,
		Rules: string(t.Rules), Options: string(t.Options), PlayersPerTable: t.PlayersPerTable, Kind: string(t.Kind),
		DealsPerRound: t.DealsPerRound, StartsAt: utc(t.StartsAt), Status: string(t.Status), Search: fold.Search(t.Name),
		Setup: setupColumnsOf(t.TournamentSetup), LotsSeed: strconv.FormatUint(t.LotsSeed, 10),
		CancelReason: t.CancelReason, OpenedAt: utcPtr(t.OpenedAt), Version: t.Version,
		CreatedAt: utc(t.CreatedAt), UpdatedAt: utc(t.UpdatedAt)}
}

func setupColumnsOf(s domain.TournamentSetup) setupColumns {
	c := setupColumns{Movement: string(s.Movement), Rounds: s.Rounds, MitchellStep: s.MitchellStep, TargetScore: s.TargetScore,
		RestVP: s.RestVP, RestMP: s.RestMP, AbandonVP: s.AbandonVP, RemainingGetsRest: s.RemainingGetsRest,
		ForbidSameClub: s.ForbidSameClub, AvoidRepeatOpponents: s.AvoidRepeatOpponents, LateEntryRound: s.LateEntryRound,
		TeamPairs: s.TeamPairs, Played: string(s.Played)}
	c.Online = jsonText(s.Online, s.Online != nil)
	c.VPTable = jsonText(s.VPTable, s.VPTable != nil)
	c.TieBreaks = jsonText(s.TieBreaks, s.TieBreaks != nil)
	c.Prizes = jsonText(s.Prizes, len(s.Prizes) > 0)
	c.Phases = jsonText(s.Phases, len(s.Phases) > 0)
	return c
}

// jsonText is v as JSON text, or nil (NULL) when not set.
func jsonText(v any, set bool) *string {
	if !set {
		return nil
	}
	b, _ := json.Marshal(v) // plain structs and strings: cannot fail
	s := string(b)
	return &s
}

// setup reads the set-up back. The JSON columns hold what setupColumnsOf
// wrote; one that no longer reads (edited by hand) gives an empty VP table,
// which the domain's validation reports, or the default tie-break order.
func (c setupColumns) setup() domain.TournamentSetup {
	s := domain.TournamentSetup{Setup: tourney.Setup{
		Movement:             domain.Movement(c.Movement),
		Rounds:               c.Rounds,
		MitchellStep:         c.MitchellStep,
		TargetScore:          c.TargetScore,
		RestVP:               c.RestVP,
		RestMP:               c.RestMP,
		AbandonVP:            c.AbandonVP,
		RemainingGetsRest:    c.RemainingGetsRest,
		ForbidSameClub:       c.ForbidSameClub,
		AvoidRepeatOpponents: c.AvoidRepeatOpponents,
		LateEntryRound:       c.LateEntryRound,
		TeamPairs:            c.TeamPairs,
	}}
	if c.VPTable != nil {
		s.VPTable = &vp.Table{}
		if json.Unmarshal([]byte(*c.VPTable), s.VPTable) != nil {
			s.VPTable = &vp.Table{}
		}
	}
	s.Played = domain.Played(c.Played)
	if c.Online != nil || s.PlayedOnline() {
		o := domain.DefaultOnlineSettings() // also for a column edited by hand that no longer reads
		if c.Online != nil {
			_ = json.Unmarshal([]byte(*c.Online), &o)
		}
		s.Online = &o
	}
	if c.TieBreaks != nil && json.Unmarshal([]byte(*c.TieBreaks), &s.TieBreaks) != nil {
		s.TieBreaks = nil
	}
	if c.Prizes != nil && (json.Unmarshal([]byte(*c.Prizes), &s.Prizes) != nil || len(s.Prizes) == 0) {
		s.Prizes = nil // a column edited by hand that no longer reads: no prizes
	}
	if c.Phases != nil && (json.Unmarshal([]byte(*c.Phases), &s.Phases) != nil || len(s.Phases) == 0) {
		s.Phases = nil // edited by hand and no longer read: one phase, as the mirrored columns say
	}
	return s
}

// tournamentView is a tournament joined with its club.
type tournamentView struct {
	Row      tournamentRow `gorm:"embedded"`
	ClubName string
}

func (v tournamentView) domain() domain.Tournament {
	r := v.Row
	seed, _ := strconv.ParseUint(r.LotsSeed, 10, 64) // written by FormatUint
	return domain.Tournament{ID: r.ID, ClubID: r.ClubID, ClubName: v.ClubName, Name: r.Name, Description: r.Description,
		Rules: domain.RuleSet(r.Rules), Options: json.RawMessage(r.Options), PlayersPerTable: r.PlayersPerTable, Kind: domain.TournamentKind(r.Kind),
		DealsPerRound: r.DealsPerRound, StartsAt: r.StartsAt.UTC(), Status: domain.TournamentStatus(r.Status),
		TournamentSetup: r.Setup.setup(), LotsSeed: seed, CancelReason: r.CancelReason, OpenedAt: utcPtr(r.OpenedAt),
		Version: r.Version, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type tournamentRepo struct{ t *tx }

// tournaments selects tournaments joined with their clubs.
func (r tournamentRepo) tournaments() *gorm.DB {
	return r.t.db.Table("tournaments AS t").
		Select("t.*, c.name AS club_name").
		Joins("JOIN clubs AS c ON c.id = t.club_id")
}

func (r tournamentRepo) Create(t *domain.Tournament) error {
	row := tournamentRowOf(*t)
	row.ID = 0
	if err := r.t.db.Create(&row).Error; err != nil {
		return translate(err, "tournament")
	}
	got, err := r.Get(row.ID)
	if err != nil {
		return err
	}
	*t = got
	return nil
}

func (r tournamentRepo) Get(id int64) (domain.Tournament, error) {
	return r.get(id, "")
}

func (r tournamentRepo) Lock(id int64) (domain.Tournament, error) {
	lock := ""
	if r.t.dialect == Postgres {
		lock = " FOR UPDATE OF t"
	}
	return r.get(id, lock)
}

// tournamentColumns is the select list of a tournament joined with its
// club (t, c), in the order scanTournament reads it; timestamps as timeCols
// reads them.
var tournamentColumns = map[string]string{
	SQLite:   tournamentCols("CAST(t.starts_at AS TEXT)", "CAST(t.opened_at AS TEXT)", "CAST(t.created_at AS TEXT)", "CAST(t.updated_at AS TEXT)"),
	Postgres: tournamentCols("t.starts_at", "t.opened_at", "t.created_at", "t.updated_at"),
}

func tournamentCols(startsAt, openedAt, createdAt, updatedAt string) string {
	return "t.id, t.club_id, c.name, t.name, t.description, t.rules, t.options, t.players_per_table, t.kind, " +
		"t.deals_per_round, " + startsAt + ", t.status, t.search, t.movement, t.rounds, t.mitchell_step, t.target_score, " +
		"t.vp_table, t.tie_breaks, t.rest_vp, t.rest_mp, t.abandon_vp, t.remaining_gets_rest, t.forbid_same_club, " +
		"t.avoid_repeat_opponents, t.late_entry_round, t.team_pairs, t.played, t.online, t.prizes, t.phases, t.lots_seed, t.cancel_reason, " +
		openedAt + ", t.version, " + createdAt + ", " + updatedAt
}

// get reads tournament id in raw SQL (a command's first statement, and
// every read of a tournament's state), lock appended to the statement.
func (r tournamentRepo) get(id int64, lock string) (domain.Tournament, error) {
	var v tournamentView
	t, c := &v.Row, &v.Row.Setup
	var opened *time.Time
	err := r.t.queryRow(false, "SELECT "+tournamentColumns[r.t.dialect]+
		" FROM tournaments AS t JOIN clubs AS c ON c.id = t.club_id WHERE t.id = $1"+lock, []any{id},
		&t.ID, &t.ClubID, &v.ClubName, &t.Name, &t.Description, &t.Rules, &t.Options, &t.PlayersPerTable, &t.Kind,
		&t.DealsPerRound, timestamp{&t.StartsAt}, &t.Status, &t.Search, &c.Movement, &c.Rounds, &c.MitchellStep, &c.TargetScore,
		&c.VPTable, &c.TieBreaks, &c.RestVP, &c.RestMP, &c.AbandonVP, &c.RemainingGetsRest, &c.ForbidSameClub,
		&c.AvoidRepeatOpponents, &c.LateEntryRound, &c.TeamPairs, &c.Played, &c.Online, &c.Prizes, &c.Phases, &t.LotsSeed, &t.CancelReason,
		optTime{&opened}, &t.Version, timestamp{&t.CreatedAt}, timestamp{&t.UpdatedAt})
	if err != nil {
		return domain.Tournament{}, translate(err, "tournament")
	}
	t.OpenedAt = opened
	return v.domain(), nil
}

func (r tournamentRepo) Update(t domain.Tournament) error {
	row := tournamentRowOf(t)
	c := row.Setup
	err := hitOne(r.t.db.Model(&tournamentRow{ID: t.ID}).Updates(map[string]any{
		"name": row.Name, "description": row.Description, "rules": row.Rules, "options": row.Options,
		"players_per_table": row.PlayersPerTable, "kind": row.Kind, "deals_per_round": row.DealsPerRound,
		"starts_at": row.StartsAt, "search": row.Search, "updated_at": row.UpdatedAt,
		"movement": c.Movement, "rounds": c.Rounds, "mitchell_step": c.MitchellStep, "target_score": c.TargetScore,
		"vp_table": c.VPTable, "tie_breaks": c.TieBreaks, "rest_vp": c.RestVP, "rest_mp": c.RestMP, "abandon_vp": c.AbandonVP,
		"remaining_gets_rest": c.RemainingGetsRest, "forbid_same_club": c.ForbidSameClub,
		"avoid_repeat_opponents": c.AvoidRepeatOpponents,
		"late_entry_round":       c.LateEntryRound, "team_pairs": c.TeamPairs,
		"played": c.Played, "online": c.Online, "prizes": c.Prizes, "phases": c.Phases,
	}), "tournament")
	if err != nil {
		return err
	}
	return r.t.announceTournament(t.ID)
}

func (r tournamentRepo) Delete(id int64) error {
	return deletedOne(r.t.db.Delete(&tournamentRow{}, id), "tournament")
}

func (r tournamentRepo) List(f domain.TournamentFilter, drafts domain.DraftScope) ([]domain.Tournament, int, error) {
	where := func() *gorm.DB {
		q := r.tournaments()
		// An assigned referee sees the draft while they hold the referee
		// role or higher in its club (domain: canRefereeTournament).
		refereed := r.t.db.Table("tournament_referees AS tr").Select("tr.tournament_id").
			Joins("JOIN memberships AS m ON m.user_id = tr.user_id").
			Where("tr.user_id = ? AND m.club_id = t.club_id AND m.role IN ?", drafts.RefereeUserID,
				[]string{string(domain.RoleReferee), string(domain.RoleAdmin), string(domain.RoleOwner)})
		switch {
		case drafts.All:
		case len(drafts.ClubIDs) > 0:
			q = q.Where("(t.opened_at IS NOT NULL OR t.club_id IN ? OR t.id IN (?))", drafts.ClubIDs, refereed)
		case drafts.RefereeUserID != 0:
			q = q.Where("(t.opened_at IS NOT NULL OR t.id IN (?))", refereed)
		default:
			q = q.Where("t.opened_at IS NOT NULL")
		}
		if f.ClubID != nil {
			q = q.Where("t.club_id = ?", *f.ClubID)
		}
		if f.Status != "" {
			q = q.Where("t.status = ?", string(f.Status))
		}
		if f.Query != "" {
			q = q.Where(searchMatches("t.search", f.Query))
		}
		return q
	}
	return listPage(where, "t.starts_at, t.id", f.Limit, f.Offset, "tournament", tournamentView.domain)
}

// Stamp implements domain.TournamentRepo in raw SQL: a poll's only query.
func (r tournamentRepo) Stamp(id int64) (domain.TournamentStamp, error) {
	st := domain.TournamentStamp{ID: id}
	err := r.t.queryRow(false, "SELECT club_id, version, updated_at, opened_at IS NOT NULL FROM tournaments WHERE id = $1",
		[]any{id}, &st.ClubID, &st.Version, timestamp{&st.UpdatedAt}, &st.Public)
	if err != nil {
		return domain.TournamentStamp{}, translate(err, "tournament")
	}
	st.UpdatedAt = st.UpdatedAt.UTC()
	return st, nil
}
