package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

// aState is a state answer as serve writes one mid-deal (its shape; the
// values made up).
const aState = `{"table":{"id":12,"creator_id":3,"club_id":null,"rules":"fibur","options":{"semi_clean":true,"target":2005,"jokers":true},"players":4,"match":{"deals":2},"private":false,"status":"playing","free_seats":0,"version":43,"deal_number":1,"winner":null,"seats":[{"seat":0,"user_id":1,"user_name":"p0@load.test","bot":false,"joined_at":"2026-11-28T18:02:51.055031Z"},{"seat":1,"user_id":2,"user_name":"Zoë \"la rossa\"\\\u00e8","bot":false}],"clock_used":[31,18],"started_at":"2026-11-28T18:02:51.069697Z"},"seat":1,"deal":{"number":1,"dealer":1,"tie_break":false,"score":null},"view":{"rules":"fibur","players":4,"seat":1,"team":1,"dealer":1,"turn":0,"phase":"take","hand":["3S","2D","QC","AC","5C","4D","AS","KS","5D","8S","4C"],"hand_sizes":[11,11,11,11],"melds":[[],[{"cards":["5H","6H","7H"],"wild":null}]],"pile":["AS","JH"],"pile_size":2,"stock_size":43,"pot_taken":[false,false],"totals":[0,-1.5e2],"legal":{"can_draw":false}},"last_move":{"seat":1,"move":{"move":"discard","card":"8H"}},"deals":[],"totals":[0,0],"turn_left":null}` + "\n"

func TestReadStateReadsWhatEncodingJSONReads(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"AStateMidDeal", aState},
		{"BeforeTheStartNoView", `{"table":{"id":1,"version":2,"status":"open","deal_number":0},"seat":0,"view":null}`},
		{"NoViewKey", `{"table":{"id":1,"version":2},"seat":-1}`},
		{"WhiteSpaceEverywhere", " {\n\t\"seat\" : 2 ,\r\n \"table\" : { \"version\" : 7 } , \"view\" : { \"hand\" : [ \"JK\" , \"2C\" ] } } \n"},
		{"AnEmptyHand", `{"view":{"turn":3,"hand":[]}}`},
		{"ANullHand", `{"view":{"turn":3,"hand":null}}`},
		{"AKeyTwiceTheLastCounts", `{"seat":1,"seat":2,"table":{"version":1},"table":{"id":9}}`},
		{"AViewTwiceItsFieldsMerge", `{"view":{"turn":1,"phase":"take"},"view":{"hand":["AS"]}}`},
		{"AViewThenNull", `{"view":{"turn":1},"view":null}`},
		{"KeysInAnotherCase", `{"Seat":2,"TABLE":{"Version":4},"view":{"Phase":"meld"}}`},
		{"AnEscapedWantedString", `{"table":{"status":"play\u0069ng"}}`},
		{"NullsForWantedScalars", `{"table":{"id":null,"status":null},"seat":null}`},
		{"ANonASCIIString", `{"view":{"phase":"fàse"}}`},
		{"AnEmptyObject", `{}`},
		{"DeepSkippedValues", `{"x":[[[{"a":"]}\"["}]]],"y":{"z":{"w":[true,false,null,-0.5]}},"seat":3}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want, got tableState
			if err := json.Unmarshal([]byte(c.body), &want); err != nil {
				t.Fatalf("encoding/json: %v", err)
			}
			if err := readState([]byte(c.body), &got); err != nil {
				t.Fatalf("readState: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("readState read %+v (view %+v); encoding/json %+v (view %+v)", got, got.View, want, want.View)
			}
		})
	}
}

func TestReadStateRefusesWhatEncodingJSONRefuses(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"NotAnObject", `[1,2]`},
		{"ATrailingValue", `{"seat":1} {"seat":2}`},
		{"AFractionForAnInt", `{"seat":1.5}`},
		{"AStringForAnInt", `{"table":{"version":"7"}}`},
		{"AnUnendedObject", `{"seat":1`},
		{"AnUnendedSkippedString", `{"x":"abc`},
		{"ANumberTooBig", `{"table":{"version":123456789012345678901234567890}}`},
		{"Empty", ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			var st tableState
			if json.Unmarshal([]byte(c.body), &st) == nil {
				t.Fatalf("encoding/json reads %q: not a case", c.body)
			}
			if err := readState([]byte(c.body), &st); err == nil {
				t.Errorf("readState read %q as %+v; want an error", c.body, st)
			}
		})
	}
}

// FuzzReadState: whatever encoding/json reads, readState reads the same.
// (On input that is not JSON, readState may read what it skips without
// judging every byte: serve writes its answers with encoding/json.)
func FuzzReadState(f *testing.F) {
	for _, s := range []string{aState, `{"view":null}`, `{"Seat":2}`, `{"table":{"status":"a\"b"}}`, `{"view":{"hand":["AS",1]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var want, got tableState
		if json.Unmarshal(body, &want) != nil {
			return
		}
		if err := readState(body, &got); err != nil {
			t.Fatalf("readState(%q): %v; encoding/json read %+v", body, err, want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("readState(%q) = %+v; encoding/json %+v", body, got, want)
		}
	})
}

// BenchmarkReadState compares readState with encoding/json on a state
// answer mid-deal:
//
//	go test ./cmd/loadtables -run '^$' -bench ReadState
func BenchmarkReadState(b *testing.B) {
	body := []byte(aState)
	b.Run("readState", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for range b.N {
			var st tableState
			if err := readState(body, &st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for range b.N {
			var st tableState
			if err := json.Unmarshal(body, &st); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestReadStateReadsServesAnswersWithoutEncodingJSON: the point of
// readState is that a state as serve writes it takes the one pass, not
// the fallback.
func TestReadStateReadsServesAnswersWithoutEncodingJSON(t *testing.T) {
	var st tableState
	r := stateReader{b: []byte(aState)}
	if err := r.state(&st); err != nil {
		t.Fatalf("the one pass refused serve's state: %v (at byte %d)", err, r.i)
	}
	if st.Table.Version != 43 || st.Seat != 1 || st.View == nil || len(st.View.Hand) != 11 || st.View.Phase != "take" {
		t.Errorf("the one pass read %+v (view %+v)", st, st.View)
	}
}
