// Package fold turns text into the form searches compare: lower case,
// without accents, the same on every database. SQLite's LOWER and LIKE fold
// only ASCII letters and PostgreSQL's fold no accents, while Italian names
// carry them (Niccolò, Cantù): the store keeps a folded copy of each
// searched column, written here, and compares it with the folded query.
package fold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Fold returns s decomposed (NFD), without its combining marks (the
// accents), recomposed (NFC) and in lower case: "Niccolò Cantù" is
// "niccolo cantu".
func Fold(s string) string {
	if isASCII(s) { // nothing to decompose: the normalisations would copy it unchanged, at a hundred times the cost
		return strings.ToLower(s)
	}
	return normalised(s)
}

// normalised is Fold without its shortcut for ASCII.
func normalised(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil { // only on invalid UTF-8, which validation keeps out
		out = s
	}
	return strings.ToLower(out)
}

// Separator stands between the folded columns of one search value (a
// club's name and city), so that a query cannot match across them: it is a
// control character, which a query may not contain.
const Separator = "\x1f"

// Search is the search value of a row whose searched columns hold texts:
// each folded, joined by Separator. The store writes it with every row; a
// query matches the rows whose value contains the folded query.
func Search(texts ...string) string {
	folded := make([]string, len(texts))
	for i, t := range texts {
		folded[i] = Fold(t)
	}
	return strings.Join(folded, Separator)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
