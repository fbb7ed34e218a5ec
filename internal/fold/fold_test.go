package fold

import "testing"

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Niccolò":           "niccolo",
		"NICCOLÒ":           "niccolo",
		"Fabrizio Cantù":    "fabrizio cantu",
		"Città di Castello": "citta di castello",
		"Forlì-Cesena":      "forli-cesena",
		"Ñandú Çà":          "nandu ca",
		"50% _off_":         "50% _off_",
		"":                  "",
		"e\u0301":           "e", // already decomposed
		"Plain ASCII 42":    "plain ascii 42",
		"\x7f\x00A":         "\x7f\x00a",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzFold(f *testing.F) {
	for _, s := range []string{"Niccolò", "Cantù", "\xff", "ǅ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := Fold(s)
		if slow := normalised(s); once != slow {
			t.Errorf("Fold(%q) = %q, but the normalisations give %q", s, once, slow)
		}
		if Fold(once) != once {
			t.Errorf("Fold is not idempotent on %q: %q then %q", s, once, Fold(once))
		}
	})
}
