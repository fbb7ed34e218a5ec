package domain

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/burraco/burraco/domain/tourney"
)

// seasonService implements SeasonService.
type seasonService struct {
	st   Storage
	now  func() time.Time
	play *tournamentPlayService // the tournaments' states, kept per version
	kept *keptReads             // the rankings' bases
}

// Create implements SeasonService.
func (s *seasonService) Create(ctx context.Context, actor Actor, clubID int64, in SeasonInput) (Season, error) {
	if actor.Anonymous() {
		return Season{}, errLoginRequired
	}
	se := Season{ClubID: clubID, Name: strings.TrimSpace(in.Name), StartsOn: strings.TrimSpace(in.StartsOn),
		EndsOn: strings.TrimSpace(in.EndsOn), Scheme: in.Scheme, PointsStep: valueOr(in.PointsStep, DefaultPointsStep),
		ReferenceSize: valueOr(in.ReferenceSize, 0), MinEvenings: valueOr(in.MinEvenings, DefaultMinEvening)}
	err := s.st.InTx(ctx, func(tx Tx) error {
		c, err := accessFor(tx, actor).clubToManage(clubID, readClub)
		if err != nil {
			return err
		}
		if err := checkSeason(se); err != nil {
			return err
		}
		se.ClubName, se.CreatedAt, se.UpdatedAt = c.Name, s.now(), s.now()
		return tx.Seasons().Create(&se)
	})
	return se, err
}

// checkSeason lists every bad field of a season.
func checkSeason(se Season) error {
	var v Validator
	checkText(&v, "name", se.Name, true, MaxNameLength)
	start, errStart := time.Parse(SeasonDateLayout, se.StartsOn)
	end, errEnd := time.Parse(SeasonDateLayout, se.EndsOn)
	v.Check(errStart == nil, "starts_on", "invalid", "starts_on must be a date, YYYY-MM-DD")
	v.Check(errEnd == nil, "ends_on", "invalid", "ends_on must be a date, YYYY-MM-DD")
	v.Check(errStart != nil || errEnd != nil || !end.Before(start), "ends_on", "before_start", "ends_on must not be before starts_on")
	v.Check(se.Scheme.Valid(), "scheme", "unknown", "scheme must be placing_points, total_vp or average_vp")
	v.Check(se.PointsStep >= 0 && se.PointsStep <= MaxPointsStep, "points_step", "out_of_range", "points_step must be between 0 and 100")
	v.Check(se.ReferenceSize >= 0 && se.ReferenceSize <= MaxReferenceSize, "reference_size", "out_of_range", "reference_size must be between 0 (no scaling) and 1000")
	v.Check(se.MinEvenings >= 1 && se.MinEvenings <= MaxMinEvenings, "min_evenings", "out_of_range", "min_evenings must be between 1 and 366")
	return v.Err()
}

// seasonOf loads season id of club clubID (ENotFound also for a season of
// another club, or no such club).
func seasonOf(tx Tx, clubID, id int64) (Season, error) {
	se, err := tx.Seasons().Get(id)
	if err != nil {
		return Season{}, err
	}
	if se.ClubID != clubID {
		return Season{}, Errorf(ENotFound, "season not found")
	}
	return se, nil
}

// seasonToManage loads a season the actor may change.
func seasonToManage(tx Tx, actor Actor, clubID, id int64) (Season, error) {
	if _, err := accessFor(tx, actor).clubToManage(clubID, readClub); err != nil {
		return Season{}, err
	}
	return seasonOf(tx, clubID, id)
}

// List implements SeasonService.
func (s *seasonService) List(ctx context.Context, clubID int64) ([]Season, error) {
	var out []Season
	err := s.st.View(ctx, func(tx Tx) error {
		if _, err := tx.Clubs().Get(clubID); err != nil {
			return err
		}
		var err error
		out, err = tx.Seasons().OfClub(clubID)
		return err
	})
	return out, err
}

// Get implements SeasonService.
func (s *seasonService) Get(ctx context.Context, clubID, id int64) (SeasonDetail, error) {
	var out SeasonDetail
	err := s.st.View(ctx, func(tx Tx) error {
		se, err := seasonOf(tx, clubID, id)
		if err != nil {
			return err
		}
		out, _, _, err = s.load(tx, se)
		return err
	})
	return out, err
}

// Update implements SeasonService.
func (s *seasonService) Update(ctx context.Context, actor Actor, clubID, id int64, p SeasonPatch) (Season, error) {
	if actor.Anonymous() {
		return Season{}, errLoginRequired
	}
	var se Season
	err := s.st.InTx(ctx, func(tx Tx) error {
		var err error
		if se, err = seasonToManage(tx, actor, clubID, id); err != nil {
			return err
		}
		trim := strings.TrimSpace
		setIf(&se.Name, p.Name, trim)
		setIf(&se.StartsOn, p.StartsOn, trim)
		setIf(&se.EndsOn, p.EndsOn, trim)
		setIf(&se.Scheme, p.Scheme, nil)
		setIf(&se.PointsStep, p.PointsStep, nil)
		setIf(&se.ReferenceSize, p.ReferenceSize, nil)
		setIf(&se.MinEvenings, p.MinEvenings, nil)
		if err := checkSeason(se); err != nil {
			return err
		}
		se.UpdatedAt = s.now()
		return tx.Seasons().Update(se)
	})
	return se, err
}

// Delete implements SeasonService.
func (s *seasonService) Delete(ctx context.Context, actor Actor, clubID, id int64) error {
	if actor.Anonymous() {
		return errLoginRequired
	}
	return s.st.InTx(ctx, func(tx Tx) error {
		if _, err := seasonToManage(tx, actor, clubID, id); err != nil {
			return err
		}
		return tx.Seasons().Delete(id)
	})
}

// Exclude implements SeasonService.
func (s *seasonService) Exclude(ctx context.Context, actor Actor, clubID, id, tournamentID int64, reason string) (SeasonDetail, error) {
	if actor.Anonymous() {
		return SeasonDetail{}, errLoginRequired
	}
	var out SeasonDetail
	err := s.st.InTx(ctx, func(tx Tx) error {
		se, err := seasonToManage(tx, actor, clubID, id)
		if err != nil {
			return err
		}
		t, err := tx.Tournaments().Get(tournamentID)
		if err != nil {
			return err
		}
		if t.ClubID != clubID {
			return Errorf(ETournamentOfAnotherClub, "tournament %d is not of this club: a season counts only its club's tournaments", tournamentID)
		}
		reason = strings.TrimSpace(reason)
		var v Validator
		checkText(&v, "reason", reason, true, tourney.MaxReasonLength)
		if err := v.Err(); err != nil {
			return err
		}
		x := SeasonExclusion{SeasonID: id, TournamentID: tournamentID, Reason: reason, By: actor.UserID, At: s.now()}
		if err := tx.Seasons().Exclude(x); err != nil {
			return err
		}
		out, _, _, err = s.load(tx, se)
		return err
	})
	return out, err
}

// Include implements SeasonService.
func (s *seasonService) Include(ctx context.Context, actor Actor, clubID, id, tournamentID int64) (SeasonDetail, error) {
	if actor.Anonymous() {
		return SeasonDetail{}, errLoginRequired
	}
	var out SeasonDetail
	err := s.st.InTx(ctx, func(tx Tx) error {
		se, err := seasonToManage(tx, actor, clubID, id)
		if err != nil {
			return err
		}
		had, err := tx.Seasons().Include(id, tournamentID)
		if err != nil {
			return err
		}
		if !had {
			return Errorf(ENotFound, "tournament %d is not excluded from this season", tournamentID)
		}
		out, _, _, err = s.load(tx, se)
		return err
	})
	return out, err
}

// Ranking implements SeasonService.
func (s *seasonService) Ranking(ctx context.Context, clubID, id int64) (SeasonRanking, error) {
	var out SeasonRanking
	err := s.st.View(ctx, func(tx Tx) error {
		se, err := seasonOf(tx, clubID, id)
		if err != nil {
			return err
		}
		out, err = s.ranking(tx, se)
		return err
	})
	return out, err
}

// seasonRecords are the store's records a ranking's basis reads: kept in
// memory (keptReads) while none of them is written, a hall's poll of an
// unchanged ranking costs no query.
var seasonRecords = []string{"seasons", "season_exclusions", "tournaments", "clubs"}

// Basis implements SeasonService.
func (s *seasonService) Basis(ctx context.Context, clubID, id int64) (string, error) {
	out, _, err := kept(s.kept, fmt.Sprintf("season-basis/%d/%d", clubID, id), seasonRecords, func() (string, error) {
		var out string
		err := s.st.View(ctx, func(tx Tx) error {
			se, err := seasonOf(tx, clubID, id)
			if err != nil {
				return err
			}
			out, err = s.basisOf(tx, se)
			return err
		})
		return out, err
	})
	return out, err
}

// seasonBasis is a hash of everything a ranking is computed from but the
// tournaments' states: the season, today, the tournaments that may count
// (id, name, start, kind, status, version: every change of a tournament's
// results moves its version) and the exclusions.
func seasonBasis(se Season, now time.Time, ts []SeasonTournament, xs []SeasonExclusion) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%s|%s|%s|%s|%d|%d|%d|%s|%s\n", se.ID, se.Name, se.ClubName, se.StartsOn, se.EndsOn, se.Scheme,
		se.PointsStep, se.ReferenceSize, se.MinEvenings, now.UTC().Format(SeasonDateLayout), se.UpdatedAt)
	for _, t := range ts {
		fmt.Fprintf(h, "t%d|%s|%d|%s|%s|%d\n", t.ID, t.Name, t.StartsAt.UnixMicro(), t.Kind, t.Status, t.Version)
	}
	for _, x := range xs {
		fmt.Fprintf(h, "x%d|%s|%d|%d\n", x.TournamentID, x.Reason, x.By, x.At.UnixMicro())
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// ranking computes a season's ranking within tx.
func (s *seasonService) ranking(tx Tx, se Season) (SeasonRanking, error) {
	d, evenings, names, err := s.load(tx, se)
	if err != nil {
		return SeasonRanking{}, err
	}
	basis, err := s.basisOf(tx, se)
	if err != nil {
		return SeasonRanking{}, err
	}
	out := SeasonRanking{Season: d, Rows: rankSeason(se, evenings, names), Basis: basis}
	for _, t := range d.Tournaments {
		if t.Excluded == nil && !t.Published {
			out.Provisional = true
		}
	}
	for _, r := range out.Rows {
		if r.Place > 0 {
			out.PlayersRanked++
		}
	}
	return out, nil
}

// basisOf is the ranking's basis from what load read: the same
// statements Basis runs, so the two agree.
func (s *seasonService) basisOf(tx Tx, se Season) (string, error) {
	ts, err := tx.Seasons().Stamps(se.ClubID, se.StartsOn, se.EndsOn)
	if err != nil {
		return "", err
	}
	xs, err := tx.Seasons().Exclusions(se.ID)
	if err != nil {
		return "", err
	}
	return seasonBasis(se, s.now(), ts, xs), nil
}

// load is a season with its tournaments, the standings of those it
// counts, and the names of their players (the latest evening's name of
// each).
func (s *seasonService) load(tx Tx, se Season) (SeasonDetail, []seasonEvening, map[int64]string, error) {
	d := SeasonDetail{Season: se, Tournaments: []SeasonTournament{}}
	results, err := tx.Seasons().Results(se.ClubID, se.StartsOn, se.EndsOn)
	if err != nil {
		return d, nil, nil, err
	}
	xs, err := tx.Seasons().Exclusions(se.ID)
	if err != nil {
		return d, nil, nil, err
	}
	excluded := map[int64]*SeasonExclusion{}
	for i := range xs {
		excluded[xs[i].TournamentID] = &xs[i]
	}
	var evenings []seasonEvening
	names := map[int64]string{}
	for _, t := range results {
		st := SeasonTournament{ID: t.ID, Name: t.Name, StartsAt: t.StartsAt, Kind: t.Kind, Status: t.Status,
			Version: t.Version, Excluded: excluded[t.ID], Published: t.Status == TournamentResultsPublished}
		delete(excluded, t.ID)
		read, err := s.play.readIn(tx, t)
		if err != nil {
			return d, nil, nil, err
		}
		ev := eveningOf(t.ID, read)
		st.Entries, st.Version = ev.entries, read.Tournament.Version
		d.Tournaments = append(d.Tournaments, st)
		if st.Excluded != nil {
			continue
		}
		evenings = append(evenings, ev)
		for _, r := range ev.rows {
			for _, p := range r.players {
				names[p] = read.Players[p]
			}
		}
	}
	// Exclusions of tournaments not among those finished within the dates
	// (not finished yet, or moved out of the dates) are listed too, so a
	// director sees and can undo them; a draft's name is not shown.
	for _, id := range sortedKeys(excluded) {
		st := SeasonTournament{ID: id, Excluded: excluded[id]}
		if t, err := tx.Tournaments().Get(id); err == nil && t.Public() {
			st.Name, st.StartsAt, st.Kind, st.Status, st.Version = t.Name, t.StartsAt, t.Kind, t.Status, t.Version
		} else if err != nil && ErrorCode(err) != ENotFound {
			return d, nil, nil, err
		}
		d.Tournaments = append(d.Tournaments, st)
	}
	return d, evenings, names, nil
}

func sortedKeys[V any](m map[int64]V) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// eveningOf is a tournament's standings as a season counts them: the rows
// of the entries that played (a round at a table, or a bye), with the
// players of each entry (both of a pair, every member of a team, the one
// player of an individual event's entry).
func eveningOf(id int64, read TournamentRead) seasonEvening {
	players := map[int64][]int64{}
	for _, e := range read.Snapshot.Entries {
		players[e.ID] = e.Players
	}
	ev := seasonEvening{id: id}
	prev := 0 // the previous played row's rank in the standings
	for _, r := range read.Snapshot.Standings.Rows {
		if r.Played == 0 {
			continue
		}
		// The place among the entries that played: the standings' rank
		// counts every entry, and one that never played is left out.
		place := len(ev.rows) + 1
		if len(ev.rows) > 0 && r.Rank == prev {
			place = ev.rows[len(ev.rows)-1].rank
		}
		prev = r.Rank
		ev.rows = append(ev.rows, eveningRow{rank: place, vp: r.VP, players: players[r.Entry]})
	}
	ev.entries = len(ev.rows)
	return ev
}

// Mine implements SeasonService.
func (s *seasonService) Mine(ctx context.Context, actor Actor) ([]MySeasonRanking, error) {
	if actor.Anonymous() {
		return nil, errLoginRequired
	}
	out := []MySeasonRanking{}
	err := s.st.View(ctx, func(tx Tx) error {
		players, err := tx.Players().IDsOfUser(actor.UserID)
		if err != nil || len(players) == 0 {
			return err
		}
		days, err := playedDays(tx, players)
		if err != nil {
			return err
		}
		seasons, err := tx.Seasons().OfClubs(sortedKeys(days))
		if err != nil {
			return err
		}
		for _, se := range seasons {
			if !slices.ContainsFunc(days[se.ClubID], se.Current) {
				continue
			}
			r, err := s.ranking(tx, se)
			if err != nil {
				return err
			}
			if row, ok := bestRowOf(r.Rows, players); ok {
				out = append(out, MySeasonRanking{Season: se, Row: row, PlayersRanked: r.PlayersRanked})
			}
		}
		return nil
	})
	slices.SortStableFunc(out, func(a, b MySeasonRanking) int {
		if c := strings.Compare(a.Season.ClubName, b.Season.ClubName); c != 0 {
			return c
		}
		return strings.Compare(b.Season.StartsOn, a.Season.StartsOn)
	})
	return out, err
}

// playedDays is, by club, when the tournaments the players were entered in
// that may count in a season (finished or published) started.
func playedDays(tx Tx, players []int64) (map[int64][]time.Time, error) {
	ids, err := tx.Tournaments().WithPlayers(players)
	if err != nil {
		return nil, err
	}
	days := map[int64][]time.Time{}
	for _, id := range ids {
		t, err := tx.Tournaments().Get(id)
		if ErrorCode(err) == ENotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if t.Status == TournamentFinished || t.Status == TournamentResultsPublished {
			days[t.ClubID] = append(days[t.ClubID], t.StartsAt)
		}
	}
	return days, nil
}

// bestRowOf is the best row of any of the players (a user with several
// profiles in one ranking: the best placed).
func bestRowOf(rows []SeasonRow, players []int64) (SeasonRow, bool) {
	for _, r := range rows { // best first: the ranking's order
		if slices.Contains(players, r.PlayerID) {
			return r, true
		}
	}
	return SeasonRow{}, false
}
