package store

import (
	"database/sql"
	"testing"

	"github.com/burraco/burraco/domain"
	_ "github.com/mattn/go-sqlite3"
)

func memorySQLite(t testing.TB) *sql.DB {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// packOnSQLite has SQLite pack a string, an integer and a null, as it packs
// a player row.
func packOnSQLite(t testing.TB, db *sql.DB, s string, n int64) string {
	t.Helper()
	var packed string
	if err := db.QueryRow("SELECT json_array($1, $2, NULL, $1)", s, n).Scan(&packed); err != nil {
		t.Fatal(err)
	}
	return packed
}

func readBack(packed string) (s string, n int64, null *string, s2 string, err error) {
	err = packedValue(func(r *packedReader) {
		r.begin()
		s, n, null, s2 = r.str(), r.int64(), r.optStr(), r.str()
		r.end()
	}).Scan(packed)
	return
}

func TestPackedReaderReadsWhatSQLiteWrites(t *testing.T) {
	db := memorySQLite(t)
	for _, tc := range []struct {
		s string
		n int64
	}{
		{"", 0}, {"Anna", -1}, {`"quoted" \ back/slash`, 9223372036854775807}, {"\x00\x01\b\f\n\r\t\x1f\x7f", -9223372036854775808},
		{"Zoë 🂡 \u2028", 42}, {"null", 7}, {"[1,2]", 8},
	} {
		packed := packOnSQLite(t, db, tc.s, tc.n)
		s, n, null, s2, err := readBack(packed)
		if err != nil || s != tc.s || n != tc.n || null != nil || s2 != tc.s {
			t.Errorf("%q read back as %q, %d, %v, %q, %v; want %q, %d, nil", packed, s, n, null, s2, err, tc.s, tc.n)
		}
	}
}

func TestPackedReaderRefusesMalformed(t *testing.T) {
	for _, s := range []string{
		"", "[", "]", `["a",1,null,"a"`, `["a",1,null,"a"]x`, `["a",1,null,"a",]`, `["a" ,1,null,"a"]`, `["a",1.5,null,"a"]`,
		`["a",,null,"a"]`, `["a",99999999999999999999,null,"a"]`, `["a",1,nul,"a"]`, `["\x",1,null,"a"]`, `["\u12",1,null,"a"]`,
		`["a",1,null,"a\"]`, `[1,1,null,"a"]`, `{"a":1}`,
	} {
		if _, _, _, _, err := readBack(s); err == nil {
			t.Errorf("%q was read without error", s)
		}
	}
	// Escapes SQLite does not write, as JSON reads them.
	if s, _, _, _, err := readBack(`["\u00e9\ud83c\udca1\/\ud800",1,null,""]`); err != nil || s != "é🂡/\uFFFD" {
		t.Errorf("escapes read as %q, %v", s, err)
	}
}

func FuzzPackedReaderReadsWhatSQLiteWrites(f *testing.F) {
	db := memorySQLite(f)
	f.Add("Anna", int64(1))
	f.Add("\"\\\n\x00é🂡", int64(-5))
	f.Fuzz(func(t *testing.T, in string, n int64) {
		packed := packOnSQLite(t, db, in, n)
		s, got, null, s2, err := readBack(packed)
		if err != nil || s != in || got != n || null != nil || s2 != in {
			t.Errorf("%q read back as %q, %d, %v, %q, %v; want %q, %d", packed, s, got, null, s2, err, in, n)
		}
	})
}

// FuzzReadPlayer: any text, packed by SQLite or not, is read as a player or
// refused, never a panic.
func FuzzReadPlayer(f *testing.F) {
	f.Add(`[1,null,"Anna",null,2,"2026-11-23 12:05:50.123456+00:00","2026-11-23 12:05:50+00:00"]`)
	f.Add(`[1,3,"A\"n\u00e9",\"F\",null,"x","y"]`)
	f.Fuzz(func(t *testing.T, s string) {
		var p domain.Player
		_ = packedValue(func(r *packedReader) { readPlayer(r, &p) }).Scan(s)
		_ = packedValue(func(r *packedReader) {
			r.begin()
			for r.more() {
				readPlayer(r, &p)
			}
			r.end()
		}).Scan(s)
	})
}
