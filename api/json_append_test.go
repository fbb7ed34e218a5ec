package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// appenderTypes are the answer types with an appendJSON.
var appenderTypes = []any{Player{}, PlayerList{}, Health{}}

// TestAppendersWriteWhatEncodingJSONWrites: for random values of every
// type with an appendJSON (every field filled by reflection, so that a
// field added to the type and not to its appendJSON fails here; pointers
// nil or not, slices nil, empty or not, strings with what JSON escapes,
// times in and out of what RFC 3339 can write), encodeJSON writes the bytes
// json.Encoder writes, or fails where it fails.
func TestAppendersWriteWhatEncodingJSONWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, proto := range appenderTypes {
		typ := reflect.TypeOf(proto)
		for i := range 2000 {
			v := reflect.New(typ).Elem()
			fill(t, rng, v)
			val := v.Interface()
			if _, ok := val.(jsonAppender); !ok {
				t.Fatalf("%s has no appendJSON", typ)
			}
			var want, got bytes.Buffer
			wantErr := json.NewEncoder(&want).Encode(val)
			gotErr := encodeJSON(&got, val)
			if (wantErr != nil) != (gotErr != nil) || wantErr == nil && got.String() != want.String() {
				t.Fatalf("%s #%d: appendJSON writes\n%s(%v)\nencoding/json writes\n%s(%v)", typ, i, got.String(), gotErr, want.String(), wantErr)
			}
		}
	}
}

// fill sets v (and everything it holds) to random values.
func fill(t *testing.T, rng *rand.Rand, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(randomTime(rng)))
			return
		}
		for i := range v.NumField() {
			fill(t, rng, v.Field(i))
		}
	case reflect.Pointer:
		if rng.IntN(3) > 0 {
			p := reflect.New(v.Type().Elem())
			fill(t, rng, p.Elem())
			v.Set(p)
		}
	case reflect.Slice:
		switch rng.IntN(4) {
		case 0: // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			s := reflect.MakeSlice(v.Type(), 1+rng.IntN(25), 30)
			for i := range s.Len() {
				fill(t, rng, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.String:
		v.SetString(randomString(rng))
	case reflect.Int, reflect.Int64:
		v.SetInt(rng.Int64N(1<<62) - 1<<61)
	default:
		t.Fatalf("fill: a field of kind %s: teach fill (and check the type's appendJSON)", v.Kind())
	}
}

// randomString mixes plain text with what JSON strings escape.
func randomString(rng *rand.Rand) string {
	pieces := []string{"Anna", " Rossi", "é", "日本", "<b>", "&amp;", "\"", "\\", "\n", "\t", "\x00", "\x1f", "\x7f",
		"\u2028", "\u2029", "\xff", "\xe2\x82", "🂡", "'", "/"}
	var b []byte
	for range rng.IntN(8) {
		b = append(b, pieces[rng.IntN(len(pieces))]...)
	}
	return string(b)
}

// randomTime is a time of the years encoding/json writes or refuses, in
// UTC or another zone.
func randomTime(rng *rand.Rand) time.Time {
	t := time.Unix(rng.Int64N(500*365*86400)-100*365*86400, rng.Int64N(1e9)).UTC()
	switch rng.IntN(10) {
	case 0:
		t = t.Truncate(time.Second)
	case 1:
		t = t.In(time.FixedZone("CET", 3600))
	case 2:
		t = t.AddDate(9000, 0, 0) // past 9999: refused
	case 3:
		t = t.AddDate(-3000, 0, 0) // before year 0: refused
	case 4:
		t = t.In(time.FixedZone("far", 24*3600+60)) // an offset RFC 3339 cannot write
	}
	return t
}

// FuzzAppendJSONString: a string is written as encoding/json writes it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "Anna Rossi", "<script>&\"\\\n\x00\x7f\u2028\xff", "é日本🂡"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: appendJSONString %s, encoding/json %s", s, got, want)
		}
	})
}

func BenchmarkPlayerListJSON(b *testing.B) {
	now := time.Now().UTC()
	l := PlayerList{Total: 100, Limit: 20}
	for i := range 20 {
		l.Items = append(l.Items, Player{ID: int64(i), Name: fmt.Sprintf("Player %03d", i), CreatedAt: now, UpdatedAt: now})
	}
	var buf bytes.Buffer
	b.Run("appendJSON", func(b *testing.B) {
		for range b.N {
			buf.Reset()
			_ = encodeJSON(&buf, l)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for range b.N {
			buf.Reset()
			_ = json.NewEncoder(&buf).Encode(l)
		}
	})
}
