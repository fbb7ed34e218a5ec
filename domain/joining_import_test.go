package domain_test

import (
	"strings"
	"testing"

	"github.com/burraco/burraco/domain"
)

// TestParsePlayerCSVReadsEitherSeparatorAndRefusesWhatIsNotAList: the
// header names the columns in English or Italian, ; or , separates them,
// a byte-order mark and blank lines are skipped, each row keeps its line
// in the file; a file without a name column, without rows, with a broken
// quote or past MaxImportLines is refused as invalid_input on csv.
func TestParsePlayerCSVReadsEitherSeparatorAndRefusesWhatIsNotAList(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []domain.ImportRow
	}{
		{"SemicolonsAndItalianNames", "\ufeffNome;Tessera;E-mail\nAnna Rossi;RM-1;anna@example.org\n\nBruno;;\n",
			[]domain.ImportRow{{Line: 2, Name: "Anna Rossi", FederationID: "RM-1", Email: "anna@example.org"}, {Line: 4, Name: "Bruno"}}},
		{"CommasAndQuotes", "email,name\r\nx@example.org,\"Rossi, Anna\"\r\n",
			[]domain.ImportRow{{Line: 2, Name: "Rossi, Anna", Email: "x@example.org"}}},
		{"ShortRowsAndExtraColumns", "name,notes,federation_id\nCarla\nDario,x,RM-4,extra\n",
			[]domain.ImportRow{{Line: 2, Name: "Carla"}, {Line: 3, Name: "Dario", FederationID: "RM-4"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := domain.ParsePlayerCSV([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("rows %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("row %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
	for _, tc := range []struct{ name, in string }{
		{"Empty", ""},
		{"NoNameColumn", "email;federation_id\nx@example.org;RM-1\n"},
		{"OnlyAHeader", "name\n"},
		{"BrokenQuote", "name\n\"Anna\n"},
		{"TooManyLines", "name\n" + strings.Repeat("A\n", domain.MaxImportLines+1)},
	} {
		t.Run(tc.name+"IsRefused", func(t *testing.T) {
			_, err := domain.ParsePlayerCSV([]byte(tc.in))
			if domain.ErrorCode(err) != domain.EInvalid {
				t.Fatalf("error %v, want invalid_input", err)
			}
		})
	}
}

// FuzzParsePlayerCSV: any bytes are read or refused as invalid input,
// never a panic, and every row read has a line past the header.
func FuzzParsePlayerCSV(f *testing.F) {
	f.Add([]byte("name;email\nAnna;a@example.org\n"))
	f.Add([]byte("\ufeffnome,tessera\n\"x\"\"y\",1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, err := domain.ParsePlayerCSV(b)
		if err != nil && domain.ErrorCode(err) != domain.EInvalid {
			t.Fatalf("error %v", err)
		}
		for _, r := range rows {
			if r.Line < 2 {
				t.Fatalf("row %+v before the header's line", r)
			}
		}
	})
}
