package store

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// What this process sends PostgreSQL, counted in memory: every statement of
// every pgx connection the store opens (the pool's, BEGIN and COMMIT
// included, and the listeners'), the statements pgx prepares (parsed and
// planned by a backend: in pgx's default mode a statement is prepared once
// per connection and then only bound and run) and the connections opened (a
// new backend: a process forked, its catalogue caches cold). A load run's
// figures per move say what PostgreSQL does beyond the move's own
// transaction (docs/performance.md). Counting is an atomic add after a
// lookup of the statement's text; the kind of a text is worked out once.

// StatementCount is how many statements of one kind were sent: Op is the
// statement's verb (select, insert, update, delete, begin, commit,
// rollback, listen, notify, other; a WITH statement is counted under the
// verb of its main part) and Table the first table it names (empty when
// it names none).
type StatementCount struct {
	Op, Table string
	Count     uint64
}

// StatementText is how many times one statement text was sent (its first
// 200 bytes).
type StatementText struct {
	SQL   string
	Count uint64
}

// DBCounts are the figures of a PostgreSQL database since Open.
type DBCounts struct {
	Statements []StatementCount // by kind, in no order
	Prepared   uint64           // statements prepared (a backend's parse and plan)
	Connects   uint64           // connections opened (backends started)
	Pings      uint64           // pings of a connection idle over a second, before its use
	Commits    CommitTimes      // how long COMMITs and self-committing writes took (commit_times.go)
}

// maxTexts bounds the statement texts counted apart: the store's texts are
// a few hundred, but a text that carries a list of varying length (an IN
// list, a multi-row INSERT) is a new text per length.
const maxTexts = 1024

// statementCounter is a pgx tracer (QueryTracer, PrepareTracer) that
// counts.
type statementCounter struct {
	texts    sync.Map // SQL text → *textCount
	nTexts   atomic.Int64
	kinds    sync.Map // statementKind → *atomic.Uint64
	overflow textCount
	prepared atomic.Uint64
	connects atomic.Uint64
	pings    atomic.Uint64
	commits  commitTimes
}

type statementKind struct{ op, table string }

type textCount struct {
	n       atomic.Uint64
	kind    *atomic.Uint64 // its kind's counter
	commits commitKind
}

// commitKind says whether a statement commits: COMMIT always, a write
// (INSERT, UPDATE, DELETE, a WITH whose main part is one) when it is sent
// outside a transaction.
type commitKind uint8

const (
	commitsNever commitKind = iota
	commitsAlways
	commitsOutsideATransaction
)

func commitKindOf(op string) commitKind {
	switch op {
	case "commit":
		return commitsAlways
	case "insert", "update", "delete":
		return commitsOutsideATransaction
	}
	return commitsNever
}

// commitStart is the context key of a committing statement's start.
type commitStart struct{}

var _ interface {
	pgx.QueryTracer
	pgx.PrepareTracer
	pgx.BatchTracer
} = (*statementCounter)(nil)

// TraceQueryStart counts the statement, and notes when a committing one
// starts.
func (c *statementCounter) TraceQueryStart(ctx context.Context, conn *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	switch c.count(d.SQL) {
	case commitsOutsideATransaction:
		if conn.PgConn().TxStatus() != 'I' { // in a transaction: its COMMIT commits
			return ctx
		}
		fallthrough
	case commitsAlways:
		return context.WithValue(ctx, commitStart{}, time.Now())
	}
	return ctx
}

// TraceQueryEnd times a committing statement.
func (c *statementCounter) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	c.committed(ctx, d.Err)
}

// committed notes how long a committing statement or batch took, from the
// start its context holds (none: it did not commit).
func (c *statementCounter) committed(ctx context.Context, err error) {
	if start, ok := ctx.Value(commitStart{}).(time.Time); ok && err == nil {
		c.commits.observe(time.Since(start))
	}
}

// TraceBatchStart notes when a batch sent outside a transaction starts:
// its Sync commits it (move_batches.go).
func (c *statementCounter) TraceBatchStart(ctx context.Context, conn *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	if conn.PgConn().TxStatus() == 'I' {
		return context.WithValue(ctx, commitStart{}, time.Now())
	}
	return ctx
}

// TraceBatchQuery counts a statement of a batch.
func (c *statementCounter) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	c.count(d.SQL)
}

// TraceBatchEnd notes how long a batch that committed took.
func (c *statementCounter) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchEndData) {
	c.committed(ctx, d.Err)
}

// TracePrepareStart counts a statement prepared. pgx asks its tracer only
// when it sends the statement to be prepared, not when it finds it in the
// connection's cache.
func (c *statementCounter) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	c.prepared.Add(1)
	return ctx
}

// TracePrepareEnd implements pgx.PrepareTracer.
func (*statementCounter) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}

// count counts a statement sent and says whether it commits.
func (c *statementCounter) count(sql string) commitKind {
	if v, ok := c.texts.Load(sql); ok {
		t := v.(*textCount)
		t.n.Add(1)
		t.kind.Add(1)
		return t.commits
	}
	op, table := statementKindOf(sql)
	k, _ := c.kinds.LoadOrStore(statementKind{op, table}, new(atomic.Uint64))
	kind := k.(*atomic.Uint64)
	kind.Add(1)
	if c.nTexts.Load() >= maxTexts {
		c.overflow.n.Add(1)
		return commitKindOf(op)
	}
	t := &textCount{kind: kind, commits: commitKindOf(op)}
	if v, loaded := c.texts.LoadOrStore(strings.Clone(sql), t); loaded {
		t = v.(*textCount)
	} else {
		c.nTexts.Add(1)
	}
	t.n.Add(1)
	return t.commits
}

// counts returns the figures.
func (c *statementCounter) counts() DBCounts {
	var s DBCounts
	c.kinds.Range(func(k, v any) bool {
		kind := k.(statementKind)
		s.Statements = append(s.Statements, StatementCount{kind.op, kind.table, v.(*atomic.Uint64).Load()})
		return true
	})
	s.Prepared = c.prepared.Load()
	s.Connects = c.connects.Load()
	s.Pings = c.pings.Load()
	s.Commits = c.commits.stats()
	return s
}

// textCounts returns the count of each text, the texts past maxTexts
// under "(other texts)".
func (c *statementCounter) textCounts() []StatementText {
	var s []StatementText
	c.texts.Range(func(k, v any) bool {
		sql := k.(string)
		if len(sql) > 200 {
			sql = sql[:200]
		}
		s = append(s, StatementText{sql, v.(*textCount).n.Load()})
		return true
	})
	if n := c.overflow.n.Load(); n > 0 {
		s = append(s, StatementText{"(other texts)", n})
	}
	return s
}

// statementKindOf returns a statement's verb and the first table it names. It
// reads our own SQL (GORM's and the store's), not any SQL: what it does
// not know is "other".
func statementKindOf(sql string) (op, table string) {
	words := sqlWords(sql, 256)
	if len(words) == 0 {
		return "other", ""
	}
	i := 0
	if words[0] == "with" { // the verb of the main part: the first after the CTEs' parentheses
		i = mainVerb(sql)
		words = sqlWords(sql[i:], 256)
		if len(words) == 0 {
			return "other", ""
		}
	}
	switch v := words[0]; v {
	case "select", "insert", "update", "delete", "begin", "commit", "rollback", "listen", "notify":
		op = v
	case "start":
		op = "begin"
	case "end":
		op = "commit"
	default:
		return "other", ""
	}
	if op == "select" && strings.Contains(strings.ToLower(sql), "pg_notify(") {
		return "notify", ""
	}
	for j, w := range words {
		switch {
		case op == "update" && j == 1,
			op == "insert" && j > 0 && words[j-1] == "into",
			(op == "select" || op == "delete") && j > 0 && words[j-1] == "from":
			return op, w
		}
	}
	return op, ""
}

// sqlWords returns the first n words of sql, lower case, an identifier's
// quotes removed and a schema's name dropped; punctuation ends a word.
func sqlWords(sql string, n int) []string {
	var words []string
	start := -1
	for i := 0; i <= len(sql) && len(words) < n; i++ {
		word := i < len(sql) && (isWordByte(sql[i]) || sql[i] == '"' || sql[i] == '.')
		if word && start < 0 {
			start = i
		}
		if !word && start >= 0 {
			w := strings.ToLower(strings.ReplaceAll(sql[start:i], `"`, ""))
			if dot := strings.LastIndexByte(w, '.'); dot >= 0 {
				w = w[dot+1:]
			}
			if w != "" {
				words = append(words, w)
			}
			start = -1
		}
	}
	return words
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '$'
}

// mainVerb returns the offset in a WITH statement of its main part: the
// first word at parenthesis depth 0 after a closing parenthesis that is
// not a comma's or AS's continuation.
func mainVerb(sql string) int {
	depth := 0
	closed := false
	for i := 0; i < len(sql); i++ {
		switch c := sql[i]; {
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				closed = true
			}
		case depth == 0 && closed && isWordByte(c):
			w := sqlWords(sql[i:], 1)
			if len(w) == 1 && w[0] != "as" {
				return i
			}
			closed = false
		case c == ',' && depth == 0:
			closed = false
		}
	}
	return len(sql)
}

// DBCounts returns what this process sent PostgreSQL since Open, or false
// on SQLite.
func (db *DB) DBCounts() (DBCounts, bool) {
	if db.stmts == nil {
		return DBCounts{}, false
	}
	return db.stmts.counts(), true
}

// StatementTexts returns each statement text sent PostgreSQL since Open
// with its count (for a debug page: the texts are the store's innards), or
// nil on SQLite.
func (db *DB) StatementTexts() []StatementText {
	if db.stmts == nil {
		return nil
	}
	return db.stmts.textCounts()
}
