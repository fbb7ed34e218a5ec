package store

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/burraco/burraco/domain"
)

// Write marks let a read be kept in memory while nothing it read has
// changed (domain.WriteMarks). Every write transaction notes the tables
// its statements write, as it runs them (GORM's callbacks see every
// statement, the raw SQL's too); while it is under way those
// tables are "in flight", and when it has committed (or rolled back) each
// table's generation goes up by one. A mark is the sum of the generations
// of the tables a read reads: it changes with every write to one of them.
// A read may be kept only when no write to its tables was in flight from
// before it began to after it ended and the mark did not move meanwhile:
// its snapshot then holds every write the mark counts and none it does
// not, so two reads kept under one mark read the same rows.
//
// A DELETE, and any statement that is not a plain INSERT or UPDATE, counts
// as a write to every table: foreign keys' ON DELETE actions write tables
// the statement does not name.
//
// Columns: a read that depends on some columns of a table only (the
// lobby's page depends on which tables match its filter, not on their
// play) may name them as "table.column": such a mark moves with every
// UPDATE that sets that column and every other write to the table (an
// INSERT adds rows), but not with an UPDATE of other columns. An UPDATE
// whose SET list cannot be read counts as setting every column.
//
// Other processes: on PostgreSQL each write transaction that wrote
// something sends the tables' names with pg_notify (delivered when it
// commits), and each process listens; until it listens, and whenever its
// listening connection is lost, no mark is given (every read goes to the
// database), and when it starts listening again every generation moves.
// On SQLite one server process owns the file; a write by another process
// (the CLI, by hand) is not heard, which is why domain.keptReads keeps a
// read for at most a second.

// allTables is the pseudo-table of the writes that may touch any table.
const allTables = "*"

// allColumns is the pseudo-column of a table's writes that may touch any of
// its columns ("table.*").
const allColumns = ".*"

// writesChannel is the SQL expression of the channel of the current
// schema (see tablesChannel).
const writesChannel = `CASE current_schema() WHEN 'public' THEN 'burraco_writes' ELSE 'burraco_writes_' || current_schema() END`

// writesListenerName is the application_name of the listening connection.
const writesListenerName = "burraco writes listener"

var _ domain.WriteMarks = (*DB)(nil)

// writeMarks is the generations and the writes in flight of one database.
type writeMarks struct {
	mu        sync.Mutex
	gen       map[string]uint64
	inFlight  map[string]int
	listening bool // PostgreSQL: other processes' writes are heard (SQLite: always)
	follow    sync.Once
	stop      context.CancelFunc // ends the PostgreSQL listener
	// users hears the users' changes in the same notices (user_feed.go).
	users userFollowers
	// origin ends this DB's notifications ("@<origin>"), so that it does
	// not count its own writes, which it counted as they ended, a second
	// time when it hears them: a read kept between the two would be read
	// again for nothing.
	origin string
}

func newWriteMarks(listening bool) *writeMarks {
	return &writeMarks{gen: map[string]uint64{}, inFlight: map[string]int{}, listening: listening,
		origin: "@" + strconv.FormatUint(rand.Uint64(), 36)}
}

// Mark implements domain.WriteMarks.
func (db *DB) Mark(tables ...string) (uint64, bool) {
	m := db.marks
	if db.dialect == Postgres {
		m.follow.Do(func() { db.followWrites() })
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.listening || m.inFlight[allTables] > 0 {
		return 0, false
	}
	mark := m.gen[allTables]
	for _, t := range tables {
		if m.inFlight[t] > 0 {
			return 0, false
		}
		mark += m.gen[t]
		if table, _, column := strings.Cut(t, "."); column {
			// table.column: also every write to the table that is not an
			// UPDATE of named columns.
			all := table + allColumns
			if m.inFlight[all] > 0 {
				return 0, false
			}
			mark += m.gen[all]
		}
	}
	return mark, true
}

// wrote counts tables as written by another process, or by every process
// (allTables) when this one may have missed some.
func (m *writeMarks) wrote(tables ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range tables {
		m.gen[t]++
	}
}

// heard counts the records of a notification (records joined by commas,
// the sender's origin last), unless this DB sent it.
func (m *writeMarks) heard(payload string) {
	records := strings.Split(payload, ",")
	if slices.Contains(records, m.origin) {
		return
	}
	records = slices.DeleteFunc(records, func(r string) bool { return strings.HasPrefix(r, "@") })
	records = m.users.heard(records) // user_feed.go
	m.wrote(records...)
}

func (m *writeMarks) setListening(on bool) {
	m.mu.Lock()
	m.listening = on
	m.gen[allTables]++ // what was written while nobody listened is unknown
	m.mu.Unlock()
	m.users.setListening(on)
}

// close ends the listener, if any.
func (m *writeMarks) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stop != nil {
		m.stop()
	}
}

// writeSet is what one write transaction wrote so far.
type writeSet struct {
	marks  *writeMarks
	mu     sync.Mutex // a GORM statement and a plain one never overlap; cheap insurance
	tables []string
	// users are the users whose authentication the transaction changed
	// (user_feed.go): announced with the tables, counted by no mark.
	users []int64
}

func (m *writeMarks) begin() *writeSet { return &writeSet{marks: m} }

// note counts what the statement writes as in flight, each record once
// per transaction.
func (w *writeSet) note(statement string) {
	records := writtenRecords(statement)
	if len(records) == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range records {
		if slices.Contains(w.tables, r) {
			continue
		}
		w.tables = append(w.tables, r)
		w.marks.mu.Lock()
		w.marks.inFlight[r]++
		w.marks.mu.Unlock()
	}
}

// writtenRecords is what a statement writes, as marks count it: its table
// (writtenTable), and for an UPDATE each column it sets ("table.column"),
// for any other write to a table "table.*". Nothing for a statement that
// does not write.
func writtenRecords(statement string) []string {
	if cte, main, ok := leadingWith(statement); ok {
		return append(writtenRecords(cte), writtenRecords(main)...)
	}
	words := firstWords(statement, 3)
	table, write := tableOfWords(words)
	switch {
	case !write:
		return nil
	case table == allTables:
		return []string{allTables}
	}
	columns, ok := []string(nil), false
	if strings.EqualFold(words[0], "UPDATE") {
		columns, ok = setColumns(statement)
	}
	if !ok {
		return []string{table, table + allColumns}
	}
	records := make([]string, 0, 1+len(columns))
	records = append(records, table)
	for _, c := range columns {
		records = append(records, table+"."+c)
	}
	return records
}

// leadingWith splits a statement that begins with one common table
// expression, "WITH name AS (cte) main", into cte and main (appends.go
// sends a move's INSERT so, before its table's UPDATE). ok is false for
// anything else, or when the parentheses cannot be matched plainly (a
// quote inside the expression): such a statement counts as writing
// every table, as any WITH did.
func leadingWith(statement string) (cte, main string, ok bool) {
	words := firstWords(statement, 3)
	if len(words) < 3 || !strings.EqualFold(words[0], "WITH") || !strings.EqualFold(words[2], "AS") {
		return "", "", false
	}
	_, after, _ := strings.Cut(statement, words[2])
	open := strings.IndexByte(after, '(')
	if open < 0 || strings.TrimSpace(after[:open]) != "" {
		return "", "", false
	}
	depth := 0
	for i := open; i < len(after); i++ {
		switch after[i] {
		case '\'':
			return "", "", false
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				main = strings.TrimSpace(after[i+1:])
				if strings.HasPrefix(main, ",") { // a second expression: not the plain shape
					return "", "", false
				}
				return after[open+1 : i], main, true
			}
		}
	}
	return "", "", false
}

// setColumns reads the columns an UPDATE's SET list assigns
// ("UPDATE t SET a = $1, "b"=?, c = COALESCE(c, 1) WHERE ..."); ok is false
// for an INSERT, or when the list is not one of plain column = expression.
func setColumns(statement string) (columns []string, ok bool) {
	start := -1
	for i := 0; i+5 <= len(statement); i++ {
		if strings.EqualFold(statement[i:i+5], " SET ") {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, false
	}
	rest := statement[start+len(" SET "):]
	depth, quote, from := 0, byte(0), 0
	var items []string
	for i := 0; i <= len(rest); i++ {
		if i == len(rest) {
			items = append(items, rest[from:])
			break
		}
		c := rest[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			items = append(items, rest[from:i])
			from = i + 1
		}
		if depth == 0 && (c == ' ' || c == '\n' || c == '\t') {
			word := strings.TrimLeft(rest[i:], " \n\t")
			if hasPrefixFold(word, "WHERE ") || hasPrefixFold(word, "RETURNING ") || hasPrefixFold(word, "FROM ") {
				items = append(items, rest[from:i])
				break
			}
		}
	}
	for _, item := range items {
		name, _, found := strings.Cut(item, "=")
		name = strings.Trim(strings.TrimSpace(name), "`\"")
		if !found || name == "" || strings.ContainsAny(name, " .()'\"`") {
			return nil, false
		}
		columns = append(columns, strings.ToLower(name))
	}
	return columns, len(columns) > 0
}

// written is the tables written, and the users changed (userRecord),
// joined for pg_notify ("" when none).
func (w *writeSet) written() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	records := w.tables
	if len(w.users) > 0 {
		records = slices.Clone(records)
		for _, id := range w.users {
			records = append(records, userRecord(id))
		}
	}
	return strings.Join(records, ",")
}

// end moves the generation of every table written, once the transaction
// has committed or rolled back.
func (w *writeSet) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.marks
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range w.tables {
		m.gen[t]++
		m.inFlight[t]--
	}
	w.tables = nil
}

// writeSetKey holds a write transaction's *writeSet in its context.
type writeSetKey struct{}

// noteWrite notes a statement run with ctx, when ctx is a write
// transaction's.
func noteWrite(ctx context.Context, statement string) {
	if ctx == nil {
		return
	}
	if w, ok := ctx.Value(writeSetKey{}).(*writeSet); ok {
		w.note(statement)
	}
}

// writtenTable is the table a statement writes: the one an INSERT or an
// UPDATE names, allTables for any other statement that writes, and
// write=false for a SELECT (pg_notify, a read) and the statements that end
// or mark a transaction.
func writtenTable(statement string) (table string, write bool) {
	return tableOfWords(firstWords(statement, 3))
}

// tableOfWords is writtenTable of a statement's first three words.
func tableOfWords(words []string) (table string, write bool) {
	if len(words) == 0 {
		return "", false
	}
	switch strings.ToUpper(words[0]) {
	case "SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "COMMIT":
		return "", false
	case "INSERT":
		if len(words) > 2 && strings.EqualFold(words[1], "INTO") {
			return tableName(words[2]), true
		}
	case "UPDATE":
		if len(words) > 1 && !strings.EqualFold(words[1], "OR") {
			return tableName(words[1]), true
		}
	}
	return allTables, true
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// firstWords is the statement's first n words, separated by spaces,
// parentheses or commas: only as much of the statement is read (an INSERT
// of a move carries its JSON).
func firstWords(statement string, n int) []string {
	words := make([]string, 0, n)
	sep := func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == ',' }
	for len(words) < n {
		start := strings.IndexFunc(statement, func(r rune) bool { return !sep(r) })
		if start < 0 {
			break
		}
		statement = statement[start:]
		end := strings.IndexFunc(statement, sep)
		if end < 0 {
			end = len(statement)
		}
		words = append(words, statement[:end])
		statement = statement[end:]
	}
	return words
}

// tableName is an identifier without its quotes and schema.
func tableName(word string) string {
	word = strings.Trim(word, "`\"")
	if i := strings.LastIndexByte(word, '.'); i >= 0 {
		word = strings.Trim(word[i+1:], "`\"")
	}
	return strings.ToLower(word)
}

// announceWrites sends, inside the transaction, the tables it wrote to the
// other processes (PostgreSQL), delivered when it commits.
func (t *tx) announceWrites(w *writeSet) error {
	if t.dialect != Postgres {
		return nil
	}
	if t.deferWrites(w) { // write_marks_owned.go
		return nil
	}
	tables := w.written()
	if tables == "" {
		return nil
	}
	return translate(t.db.Exec("SELECT pg_notify("+writesChannel+", ?)", tables+","+w.marks.origin).Error, "write")
}

// followWrites starts listening for other processes' writes (PostgreSQL),
// until Close.
func (db *DB) followWrites() {
	ctx, cancel := context.WithCancel(context.Background())
	db.marks.mu.Lock()
	db.marks.stop = cancel
	db.marks.mu.Unlock()
	go db.follow(ctx, feed{name: writesListenerName, channel: writesChannel,
		listening: func() { db.marks.setListening(true) },
		lost:      func() { db.marks.setListening(false) },
		payload:   db.marks.heard})
}
