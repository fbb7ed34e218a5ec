package pages_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMessagesHaveEveryKeyInBothLanguages: a key missing in one language
// shows English in an Italian page (or the key itself); every key the
// pages use is in both catalogues.
func TestMessagesHaveEveryKeyInBothLanguages(t *testing.T) {
	key := regexp.MustCompile(`(?m)^\s+'([\w.]+)':`)
	keys := func(s string) []string {
		var out []string
		for _, m := range key.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		return out
	}
	// The shared catalogues (messages.js: en, then it) and the console's
	// own (console-messages.js: const en, then const it, merged into them
	// when the console loads).
	var enKeys, itKeys []string
	for _, c := range []struct{ file, itStart string }{
		{"static/messages.js", "\n  it: {"},
		{"static/console-messages.js", "\nconst it = {"},
		{"static/join-messages.js", "\nconst it = {"},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		en, it, ok := strings.Cut(string(src), c.itStart)
		if !ok {
			t.Fatalf("%s has no it catalogue", c.file)
		}
		enKeys, itKeys = append(enKeys, keys(en)...), append(itKeys, keys(it)...)
	}
	slices.Sort(enKeys)
	slices.Sort(itKeys)
	for _, k := range enKeys {
		if _, found := slices.BinarySearch(itKeys, k); !found {
			t.Errorf("%s is in English only", k)
		}
	}
	for _, k := range itKeys {
		if _, found := slices.BinarySearch(enKeys, k); !found {
			t.Errorf("%s is in Italian only", k)
		}
	}
	// Every key a page or script names (data-i18n, t('…')) is in the catalogue.
	used := regexp.MustCompile(`data-i18n="([\w.]+)"|[^\w]t\('([\w.]+)'`)
	files, _ := os.ReadDir("static")
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".html") && !strings.HasSuffix(f.Name(), ".js") || f.Name() == "i18n.js" {
			continue
		}
		b, err := os.ReadFile("static/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range used.FindAllStringSubmatch(string(b), -1) {
			k := m[1] + m[2]
			if strings.HasSuffix(k, ".") {
				continue // a prefix completed at run time (hall.round.<status>)
			}
			if _, found := slices.BinarySearch(enKeys, k); !found {
				t.Errorf("%s uses %s, which no catalogue has", f.Name(), k)
			}
		}
	}
	if len(enKeys) < 200 {
		t.Fatalf("found only %d keys: the test no longer reads the catalogues", len(enKeys))
	}
}
