package api_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/engine"
)

// TestRules: a "new table" form reads the rule sets from the server, each
// with only the options that apply to it (RULES §11), their values and the
// rule set's defaults, in Italian and English.
func TestRules(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	var list api.RuleSetList
	res := e.must(200, req{Method: "GET", Path: "/api/v1/rules"}, &list)
	if got := res.Header.Get("Cache-Control"); got != "public, max-age=3600" {
		t.Errorf("Cache-Control %q", got)
	}
	var ids []string
	for _, rs := range list.Items {
		ids = append(ids, rs.ID)
	}
	if want := []string{"fibur", "fibur-row", "reale", "aberto", "fechado"}; !slices.Equal(ids, want) || list.Total != 5 || list.Limit != 20 {
		t.Fatalf("rule sets %v (total %d), want %v", ids, list.Total, want)
	}
	for _, rs := range list.Items {
		keys := map[string]api.RuleOption{}
		for _, o := range rs.Options {
			keys[o.Key] = o
			if o.Description.IT == "" || o.Description.EN == "" {
				t.Errorf("%s option %s: a description is missing", rs.ID, o.Key)
			}
		}
		if !slices.Equal(optionKeys(rs.Options), engine.OptionKeys(engine.RuleSet(rs.ID))) {
			t.Errorf("%s lists options %v, the engine applies %v", rs.ID, optionKeys(rs.Options), engine.OptionKeys(engine.RuleSet(rs.ID)))
		}
		if rs.Name.IT == "" || rs.Name.EN == "" || len(rs.Players) == 0 {
			t.Errorf("%s: incomplete %+v", rs.ID, rs)
		}
		switch rs.ID {
		case "fibur":
			if _, ok := keys["round_up_10"]; ok {
				t.Error("fibur lists round_up_10, a Brazilian option")
			}
			if keys["target"].Default != float64(2005) {
				t.Errorf("fibur target default %v", keys["target"].Default)
			}
		case "reale":
			if _, ok := keys["jokers"]; ok {
				t.Error("reale lists jokers: it never has them")
			}
		case "fechado":
			if keys["target"].Default != float64(3000) || keys["real_canastra"].Type != "boolean" {
				t.Errorf("fechado options %+v", keys)
			}
		}
	}

	var page api.RuleSetList
	e.must(200, req{Method: "GET", Path: "/api/v1/rules?limit=2&offset=3"}, &page)
	if len(page.Items) != 2 || page.Items[0].ID != "aberto" || page.Total != 5 || page.Limit != 2 || page.Offset != 3 {
		t.Errorf("second page: %+v", page)
	}
	e.must(400, req{Method: "GET", Path: "/api/v1/rules?limit=101"}, nil)
	e.must(400, req{Method: "GET", Path: "/api/v1/rules?offset=9223372036854775807"}, nil) // past openapi.yaml's maximum
	e.must(200, req{Method: "GET", Path: "/api/v1/rules?offset=2147483647"}, &page)
	if len(page.Items) != 0 || page.Total != 5 {
		t.Errorf("past the end: %+v", page)
	}
	e.must(400, req{Method: "GET", Path: "/api/v1/rules?offset=x"}, nil)

	var one api.RuleSet
	e.must(200, req{Method: "GET", Path: "/api/v1/rules/aberto"}, &one)
	if one.ID != "aberto" || !slices.Contains(optionKeys(one.Options), "aberto_sets") {
		t.Errorf("aberto: %+v", one)
	}
	p := problem(t, e.must(404, req{Method: "GET", Path: "/api/v1/rules/scopa"}, nil))
	if p.Code != "not_found" {
		t.Errorf("unknown rule set: %+v", p)
	}
}

func optionKeys(os []api.RuleOption) []string {
	var keys []string
	for _, o := range os {
		keys = append(keys, o.Key)
	}
	return keys
}

// TestRulesSayWhichDealsPerRoundHaveABuiltinVPTable: every rule set names
// the deals per round the built-in VP table covers, and they are exactly
// the ones a pairs tournament may be created with and no vp_table of its
// own; another is refused naming vp_table (what the console says before
// submitting, not after).
func TestRulesSayWhichDealsPerRoundHaveABuiltinVPTable(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	var list api.RuleSetList
	te.must(200, req{Method: "GET", Path: "/api/v1/rules"}, &list)
	for _, rs := range list.Items {
		if !slices.Equal(rs.Match.BuiltinVPDeals, []int{3, 4}) {
			t.Errorf("%s: builtin_vp_deals %v, want [3 4] (RULES §10)", rs.ID, rs.Match.BuiltinVPDeals)
		}
	}
	for deals := 2; deals <= 4; deals++ {
		body := api.TournamentCreateRequest{Name: fmt.Sprintf("Torneo da %d", deals), Rules: "fibur", PlayersPerTable: new(4),
			Kind: "pairs", DealsPerRound: new(deals), StartsAt: new(te.clock.Now().AddDate(0, 0, 7))}
		r := req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", te.club), Token: te.director, Body: body}
		if slices.Contains(list.Items[0].Match.BuiltinVPDeals, deals) {
			te.must(201, r, nil)
			continue
		}
		p := te.problem(422, r)
		if len(p.Errors) == 0 || p.Errors[0].Field != "vp_table" {
			t.Errorf("%d deals with the built-in VP table: refused with %+v, want vp_table named", deals, p.Errors)
		}
	}
}
