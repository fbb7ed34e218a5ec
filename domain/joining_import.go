package domain

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxImportLines bounds the lines of one import (the header not counted).
const MaxImportLines = 2000

// ImportRow is one line of a players' list.
type ImportRow struct {
	Line         int // in the file, the header being line 1
	Name         string
	Email        string
	FederationID string
}

// Import outcomes.
const (
	ImportCreate  = "create"
	ImportUpdate  = "update"
	ImportSkip    = "skip"
	ImportInvalid = "invalid"
)

// ImportLine is what an import did (or would do) with one line. Reason is
// a stable code: for create "new"; for update "name_changed" or
// "federation_id_added"; for skip "same_federation_id", "same_email",
// "same_name", "federation_id_of_another_club",
// "email_has_profile_elsewhere" or "duplicate_line"; for invalid
// "invalid_name", "invalid_email" or "invalid_federation_id". Detail says
// it in words. The line's email is never echoed.
type ImportLine struct {
	Line         int
	Name         string
	FederationID string
	Outcome      string
	Reason       string
	Detail       string
	PlayerID     int64 // the profile created, updated or matched (0 when none)
}

// ImportReport is an import's lines and their counts.
type ImportReport struct {
	DryRun                             bool
	Created, Updated, Skipped, Invalid int
	Lines                              []ImportLine
}

// importColumns are the header names recognised, by column (lower case,
// English and Italian).
var importColumns = map[string]string{
	"name": "name", "nome": "name", "nome e cognome": "name", "full name": "name",
	"email": "email", "e-mail": "email", "mail": "email",
	"federation_id": "federation_id", "federation id": "federation_id", "tessera": "federation_id", "fibur": "federation_id",
}

// ParsePlayerCSV reads a players' list: UTF-8 (a byte-order mark is
// skipped), fields separated by ";" or "," (whichever the header has more
// of), a header row naming the columns (name, and optionally email and
// federation_id; other columns are ignored). Errors: EInvalid (field
// "csv") when it is not CSV, has no name column, no lines or more than
// MaxImportLines.
func ParsePlayerCSV(data []byte) ([]ImportRow, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, _, _ := bytes.Cut(data, []byte("\n"))
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = ','
	if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		r.Comma = ';'
	}
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return nil, csvInvalid("the file is empty or not CSV")
	}
	cols := map[string]int{}
	for i, h := range header {
		if c, ok := importColumns[strings.ToLower(strings.TrimSpace(h))]; ok {
			if _, dup := cols[c]; !dup {
				cols[c] = i
			}
		}
	}
	if _, ok := cols["name"]; !ok {
		return nil, csvInvalid("the first line must name the columns, one of them name")
	}
	var rows []ImportRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvInvalid(fmt.Sprintf("not CSV: %v", err))
		}
		if len(rows) == MaxImportLines {
			return nil, csvInvalid(fmt.Sprintf("at most %d lines at once", MaxImportLines))
		}
		line, _ := r.FieldPos(0)
		row := ImportRow{Line: line, Name: field(rec, cols, "name"), Email: field(rec, cols, "email"),
			FederationID: field(rec, cols, "federation_id")}
		if row.Name == "" && row.Email == "" && row.FederationID == "" && len(strings.Join(rec, "")) == 0 {
			continue // an empty line, as spreadsheets leave at the end
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, csvInvalid("no players after the header line")
	}
	return rows, nil
}

func field(rec []string, cols map[string]int, name string) string {
	i, ok := cols[name]
	if !ok || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

func csvInvalid(msg string) error {
	var v Validator
	v.Add("csv", "invalid", msg)
	return v.Err()
}

// ImportPlayers implements JoinService.
func (s *joinService) ImportPlayers(ctx context.Context, actor Actor, clubID int64, body io.Reader, dryRun bool) (ImportReport, error) {
	if actor.Anonymous() {
		return ImportReport{}, errLoginRequired
	}
	// Read outside the transaction (a slow client must not hold it), but
	// parsed within it, after the caller's right: whoever may not import is
	// told so, whatever the file.
	data, err := io.ReadAll(body)
	if err != nil {
		return ImportReport{}, err
	}
	rep := ImportReport{DryRun: dryRun}
	run := s.st.InTx
	if dryRun {
		run = s.st.View
	}
	err = run(ctx, func(tx Tx) error {
		if err := clubDirected(tx, actor, clubID); err != nil {
			return err
		}
		rows, err := ParsePlayerCSV(data)
		if err != nil {
			return err
		}
		im, err := s.newImporter(tx, clubID, !dryRun)
		if err != nil {
			return err
		}
		rep.Lines = make([]ImportLine, 0, len(rows))
		for _, row := range rows {
			l, err := im.line(row)
			if err != nil {
				return err
			}
			rep.Lines = append(rep.Lines, l)
		}
		return nil
	})
	if err != nil {
		return ImportReport{}, err
	}
	for _, l := range rep.Lines {
		switch l.Outcome {
		case ImportCreate:
			rep.Created++
		case ImportUpdate:
			rep.Updated++
		case ImportSkip:
			rep.Skipped++
		default:
			rep.Invalid++
		}
	}
	return rep, nil
}

// importer decides, and when writing does, each line of an import.
type importer struct {
	s      *joinService
	tx     Tx
	clubID int64
	write  bool
	byName map[string]Player // the club's profiles, by folded name
	seen   map[string]int    // the earlier lines' keys, by key
}

func (s *joinService) newImporter(tx Tx, clubID int64, write bool) (*importer, error) {
	players, err := tx.Joins().ClubPlayers(clubID)
	if err != nil {
		return nil, err
	}
	im := &importer{s: s, tx: tx, clubID: clubID, write: write, byName: map[string]Player{}, seen: map[string]int{}}
	for _, p := range players {
		if _, ok := im.byName[nameKey(p.Name)]; !ok {
			im.byName[nameKey(p.Name)] = p
		}
	}
	return im, nil
}

func nameKey(name string) string { return strings.ToLower(strings.Join(strings.Fields(name), " ")) }

// line is the outcome of one row.
func (im *importer) line(row ImportRow) (ImportLine, error) {
	l := ImportLine{Line: row.Line, Name: row.Name, FederationID: row.FederationID}
	if reason, detail := invalidRow(row); reason != "" {
		return outcome(l, ImportInvalid, reason, detail), nil
	}
	if dup := im.duplicate(row); dup > 0 {
		return outcome(l, ImportSkip, "duplicate_line", fmt.Sprintf("the same player as line %d", dup)), nil
	}
	if row.FederationID != "" {
		p, err := im.tx.Joins().ByFederationID(row.FederationID)
		if err == nil {
			return im.byFederationID(l, p)
		}
		if ErrorCode(err) != ENotFound {
			return l, err
		}
	}
	if row.Email != "" {
		if done, l, err := im.byEmail(l, row); done || err != nil {
			return l, err
		}
	}
	if p, ok := im.byName[nameKey(row.Name)]; ok {
		if row.FederationID != "" && p.FederationID == nil {
			p.FederationID = &row.FederationID
			return im.update(l, p, "federation_id_added", "the player of this name gets the federation id")
		}
		l.PlayerID = p.ID
		return outcome(l, ImportSkip, "same_name", "the club has a player of this name"), nil
	}
	return im.create(l, row)
}

// invalidRow is why a row cannot be imported ("" when it can).
func invalidRow(row ImportRow) (reason, detail string) {
	var v Validator
	checkText(&v, "name", row.Name, true, MaxNameLength)
	if len(v.fields) > 0 {
		return "invalid_name", "the name is missing or too long"
	}
	if row.FederationID != "" {
		checkFederationID(&v, "federation_id", row.FederationID)
		if len(v.fields) > 0 {
			return "invalid_federation_id", v.fields[0].Message
		}
	}
	if row.Email != "" && !validEmail(NormalizeEmail(row.Email)) {
		return "invalid_email", "the email address is not valid"
	}
	return "", ""
}

// duplicate is the earlier line with the same federation id, email or
// name (0 when none), and notes this one's.
func (im *importer) duplicate(row ImportRow) int {
	keys := []string{"n:" + nameKey(row.Name)}
	if row.FederationID != "" {
		keys = append(keys, "f:"+row.FederationID)
	}
	if row.Email != "" {
		keys = append(keys, "e:"+NormalizeEmail(row.Email))
	}
	for _, k := range keys {
		if line, ok := im.seen[k]; ok {
			return line
		}
	}
	for _, k := range keys {
		im.seen[k] = row.Line
	}
	return 0
}

func (im *importer) byFederationID(l ImportLine, p Player) (ImportLine, error) {
	if p.ClubID == nil || *p.ClubID != im.clubID {
		return outcome(l, ImportSkip, "federation_id_of_another_club", "the federation id is another club's player's"), nil
	}
	l.PlayerID = p.ID
	if p.Name != l.Name {
		p.Name = l.Name
		return im.update(l, p, "name_changed", "the player with this federation id is renamed")
	}
	return outcome(l, ImportSkip, "same_federation_id", "the club has this player"), nil
}

// byEmail matches the row to the profile of the account with its email;
// done is false when no account's profile matches.
func (im *importer) byEmail(l ImportLine, row ImportRow) (done bool, _ ImportLine, _ error) {
	u, _, err := im.tx.Users().ByEmail(NormalizeEmail(row.Email))
	if ErrorCode(err) == ENotFound {
		return false, l, nil
	}
	if err != nil {
		return true, l, err
	}
	ids, err := im.tx.Players().IDsOfUser(u.ID)
	if err != nil || len(ids) == 0 {
		return err != nil, l, err
	}
	p, err := im.tx.Players().Get(ids[0])
	if err != nil {
		return true, l, err
	}
	if p.ClubID == nil || *p.ClubID != im.clubID {
		return true, outcome(l, ImportSkip, "email_has_profile_elsewhere", "the account with this email has a profile in another club"), nil
	}
	l.PlayerID = p.ID
	if row.FederationID != "" && p.FederationID == nil {
		p.FederationID = &row.FederationID
		l, err = im.update(l, p, "federation_id_added", "the player with this email gets the federation id")
		return true, l, err
	}
	return true, outcome(l, ImportSkip, "same_email", "the club has the player with this email"), nil
}

func (im *importer) update(l ImportLine, p Player, reason, detail string) (ImportLine, error) {
	l.PlayerID = p.ID
	if im.write {
		p.UpdatedAt = im.s.now()
		if err := im.tx.Players().Update(p); err != nil {
			return l, err
		}
	}
	return outcome(l, ImportUpdate, reason, detail), nil
}

func (im *importer) create(l ImportLine, row ImportRow) (ImportLine, error) {
	if !im.write {
		return outcome(l, ImportCreate, "new", "a new player of the club"), nil
	}
	now := im.s.now()
	p := Player{Name: row.Name, ClubID: &im.clubID, CreatedAt: now, UpdatedAt: now}
	if row.FederationID != "" {
		p.FederationID = &row.FederationID
	}
	if err := im.tx.Players().Create(&p); err != nil {
		return l, err
	}
	if err := giveClaimCode(im.tx, im.s.random, p); err != nil {
		return l, err
	}
	l.PlayerID = p.ID
	return outcome(l, ImportCreate, "new", "a new player of the club"), nil
}

func outcome(l ImportLine, o, reason, detail string) ImportLine {
	l.Outcome, l.Reason, l.Detail = o, reason, detail
	return l
}
