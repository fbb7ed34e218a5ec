package api_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/engine"
)

// jsonFields returns the JSON names of a struct's fields and the kind of
// each (pointers followed).
func jsonFields(v any) map[string]reflect.Kind {
	out := map[string]reflect.Kind{}
	typ := reflect.TypeOf(v)
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		out[name] = ft.Kind()
	}
	return out
}

// TestTableOptionsMatchTheEngine fails when the engine's options
// (engine.Options) and the API's two copies (TableOptions out,
// TableOptionsInput in) differ in a name or a type, so that a new engine
// option cannot be dropped silently by the API; and when the generated
// documentation lacks one of them (run make docs).
func TestTableOptionsMatchTheEngine(t *testing.T) {
	eng := jsonFields(engine.Options{})
	for name, fields := range map[string]map[string]reflect.Kind{
		"TableOptions": jsonFields(api.TableOptions{}), "TableOptionsInput": jsonFields(api.TableOptionsInput{}),
	} {
		for opt, kind := range eng {
			if got, ok := fields[opt]; !ok || got != kind {
				t.Errorf("api.%s: option %s is %v, the engine's is %v", name, opt, got, kind)
			}
		}
		for opt := range fields {
			if _, ok := eng[opt]; !ok {
				t.Errorf("api.%s has %s, which the engine does not know", name, opt)
			}
		}
	}
	b, err := os.ReadFile("../docs/swagger.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Definitions map[string]struct {
			Properties map[string]struct {
				Enum []any `json:"enum"`
			} `json:"properties"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, schema := range []string{"TableOptions", "TableOptionsInput"} {
		for opt := range eng {
			if _, ok := doc.Definitions[schema].Properties[opt]; !ok {
				t.Errorf("docs: %s lacks %s (run make docs)", schema, opt)
			}
		}
	}
	// Every value the documentation offers, some rule set accepts.
	for opt, prop := range doc.Definitions["TableOptionsInput"].Properties {
		for _, v := range prop.Enum {
			raw, _ := json.Marshal(map[string]any{opt: v})
			if !slices.ContainsFunc(engine.RuleSets(), func(id engine.RuleSet) bool {
				_, err := engine.ParseOptions(id, raw)
				return err == nil
			}) {
				t.Errorf("docs: %s may be %s, which no rule set accepts", opt, fmt.Sprint(v))
			}
		}
	}
}
