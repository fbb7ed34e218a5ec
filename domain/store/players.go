package store

import (
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/fold"
)

type playerRow struct {
	ID           int64 `gorm:"primaryKey"`
	UserID       *int64
	Name         string
	FederationID *string
	ClubID       *int64
	Search       string // fold.Search(name): what ?q= compares
	Categories   string // the sorted tags joined by commas ("" for none)
	Region       string
	CreatedAt    time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt    time.Time `gorm:"autoUpdateTime:false"`
}

func (playerRow) TableName() string { return "players" }

func playerRowOf(p domain.Player) playerRow {
	return playerRow{ID: p.ID, UserID: p.UserID, Name: p.Name, FederationID: p.FederationID, ClubID: p.ClubID,
		Search: fold.Search(p.Name), Categories: strings.Join(p.Categories, ","), Region: p.Region, CreatedAt: utc(p.CreatedAt), UpdatedAt: utc(p.UpdatedAt)}
}

func (r playerRow) domain() domain.Player {
	return domain.Player{ID: r.ID, UserID: r.UserID, Name: r.Name, FederationID: r.FederationID, ClubID: r.ClubID,
		Categories: splitCategories(r.Categories), Region: r.Region, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

type playerRepo struct{ t *tx }

// playerColumns are, per dialect, what playerDest reads.
var playerColumns = map[string]string{
	SQLite:   "id, user_id, name, federation_id, club_id, categories, region, " + timeCols[SQLite],
	Postgres: "id, user_id, name, federation_id, club_id, categories, region, " + timeCols[Postgres],
}

// playerDest is where a row of playerColumns is scanned, followed by extra.
func playerDest(p *domain.Player, extra ...any) []any {
	return append([]any{&p.ID, &p.UserID, &p.Name, &p.FederationID, &p.ClubID, categoryList{&p.Categories}, &p.Region,
		timestamp{&p.CreatedAt}, timestamp{&p.UpdatedAt}}, extra...)
}

// Create inserts the player in raw SQL (see rawsql.go): it is the
// request path's cheap write.
func (r playerRepo) Create(p *domain.Player) error {
	row := playerRowOf(*p)
	var id int64
	err := r.t.queryRow(true, "INSERT INTO players (user_id, name, federation_id, club_id, search, categories, region, created_at, updated_at) "+
		"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
		[]any{row.UserID, row.Name, row.FederationID, row.ClubID, row.Search, row.Categories, row.Region, row.CreatedAt, row.UpdatedAt}, &id)
	if err != nil {
		return translate(err, "player")
	}
	row.ID = id
	*p = row.domain()
	return nil
}

// Get reads the player in raw SQL (see rawsql.go).
func (r playerRepo) Get(id int64) (domain.Player, error) {
	var p domain.Player
	err := r.t.queryRow(false, "SELECT "+playerColumns[r.t.dialect]+" FROM players WHERE id = $1", []any{id}, playerDest(&p)...)
	if err != nil {
		return domain.Player{}, translate(err, "player")
	}
	p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
	return p, nil
}

func (r playerRepo) Update(p domain.Player) error {
	row := playerRowOf(p)
	return hitOne(r.t.db.Model(&playerRow{ID: p.ID}).Updates(map[string]any{
		"user_id": row.UserID, "name": row.Name, "federation_id": row.FederationID,
		"club_id": row.ClubID, "search": row.Search, "categories": row.Categories, "region": row.Region, "updated_at": row.UpdatedAt,
	}), "player")
}

func (r playerRepo) Delete(id int64, at time.Time) error {
	// The name is kept first, in the same transaction: the tournaments the
	// player played in name him by id (issue 19). No row: no name kept,
	// and the delete below answers ENotFound.
	err := r.t.db.Exec("INSERT INTO deleted_player_names (id, name, deleted_at) SELECT id, name, ? FROM players WHERE id = ?",
		utc(at), id).Error
	if err != nil {
		return translate(err, "player")
	}
	return deletedOne(r.t.db.Delete(&playerRow{}, id), "player")
}

// List reads a page and the total in one statement, in raw SQL (see
// rawsql.go).
func (r playerRepo) List(f domain.PlayerFilter) ([]domain.Player, int, error) {
	return r.listColumns(r.listQuery(f), f)
}

func (r playerRepo) listQuery(f domain.PlayerFilter) pagedQuery {
	q := pagedQuery{cols: playerColumns[r.t.dialect], from: "players", order: "name, id"}
	var conds []string
	if f.Query != "" {
		cond, pattern := searchMatches("search", f.Query)
		cond = strings.Replace(cond, "?", q.args.add(pattern), 1)
		conds = append(conds, "("+cond+" OR federation_id = "+q.args.add(f.Query)+")")
	}
	if f.ClubID != nil {
		conds = append(conds, "club_id = "+q.args.add(*f.ClubID))
	}
	q.where = strings.Join(conds, " AND ")
	return q
}

func (r playerRepo) listColumns(q pagedQuery, f domain.PlayerFilter) ([]domain.Player, int, error) {
	out := make([]domain.Player, 0, f.Limit)
	var p domain.Player
	var dest []any // one for every row: p is copied out
	total, err := q.run(r.t, f.Limit, f.Offset, "player", func(rows *sql.Rows, total *int64) error {
		if dest == nil {
			dest = playerDest(&p, total)
		}
		p = domain.Player{}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// IDsOfUser returns the ids of the player profiles linked to a user (at
// most one today: user_id is unique), in id order.
func (r playerRepo) IDsOfUser(userID int64) ([]int64, error) {
	var ids []int64
	if err := r.t.db.Raw("SELECT id FROM players WHERE user_id = ? ORDER BY id", userID).Scan(&ids).Error; err != nil {
		return nil, translate(err, "player")
	}
	return ids, nil
}

// Names returns the names of the players with these ids, deleted ones
// included (the name they had when deleted); ids of no player are left out.
func (r playerRepo) Names(ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	const batch = 400 // twice that is well under every dialect's limit of bound parameters
	for len(ids) > 0 {
		n := min(len(ids), batch)
		if err := r.names(ids[:n], out); err != nil {
			return nil, err
		}
		ids = ids[n:]
	}
	return out, nil
}

// names reads the names of ids into out, in raw SQL (see rawsql.go):
// every tournament command and read of a tournament's state names its
// players, and GORM's scan into a struct cost twice the statement.
func (r playerRepo) names(ids []int64, out map[int64]string) error {
	var args sqlArgs
	in := make([]string, len(ids))
	for i, id := range ids {
		in[i] = args.add(id)
	}
	list := strings.Join(in, ", ")
	rows, err := r.t.query("SELECT id, name FROM players WHERE id IN ("+list+
		") UNION ALL SELECT id, name FROM deleted_player_names WHERE id IN ("+list+")", args...)
	if err != nil {
		return translate(err, "player")
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return translate(err, "player")
		}
		out[id] = name
	}
	return translate(rows.Err(), "player")
}

// Categories returns the category tags of the players with these ids that
// have any; deleted players and players without tags are left out.
func (r playerRepo) Categories(ids []int64) (map[int64][]string, error) {
	out := make(map[int64][]string)
	const batch = 400 // as Names
	for len(ids) > 0 {
		n := min(len(ids), batch)
		var args sqlArgs
		in := make([]string, n)
		for i, id := range ids[:n] {
			in[i] = args.add(id)
		}
		rows, err := r.t.query("SELECT id, categories FROM players WHERE categories <> '' AND id IN ("+strings.Join(in, ", ")+")", args...)
		if err != nil {
			return nil, translate(err, "player")
		}
		for rows.Next() {
			var id int64
			var tags string
			if err := rows.Scan(&id, &tags); err != nil {
				rows.Close()
				return nil, translate(err, "player")
			}
			out[id] = splitCategories(tags)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, translate(err, "player")
		}
		ids = ids[n:]
	}
	return out, nil
}

// splitCategories reads the categories column: nil for none.
func splitCategories(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// categoryList scans the categories column into a player's tags.
type categoryList struct{ tags *[]string }

func (c categoryList) Scan(v any) error {
	switch v := v.(type) {
	case string:
		*c.tags = splitCategories(v)
	case []byte:
		*c.tags = splitCategories(string(v))
	case nil:
		*c.tags = nil
	default:
		return fmt.Errorf("store: the categories column holds %T", v)
	}
	return nil
}
