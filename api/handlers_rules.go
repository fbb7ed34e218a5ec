package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// The rule sets change only with the server's version, so their answers are
// built once and may be cached by clients and proxies for an hour.
const rulesCacheControl = "public, max-age=3600"

// listRules lists the rule sets and their options.
//
//	@Summary		List the rule sets
//	@ID				listRules
//	@Description	Every rule set the server plays, with its options (only those that apply to it), allowed values, defaults, player counts and match defaults, named and described in Italian and English: what a "new table" or "new tournament" form needs.
//	@Tags			rules
//	@Produce		json
//	@Param			limit	query		int	false	"Page size, 1..100; 0 or absent means 20"	default(20)	minimum(0)	maximum(100)
//	@Param			offset	query		int	false	"Items to skip"		default(0)	minimum(0)
//	@Success		200		{object}	RuleSetList
//	@Failure		400		{object}	Problem	"invalid_parameter: a query parameter the schema does not allow (not a number, empty, past its bounds, not one of its values, too long, control characters), every one named in errors"
//	@Router			/api/v1/rules [get]
func (h metaHandlers) listRules(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	limit, offset := q.page()
	if err := q.err(); err != nil {
		return err
	}
	limit, err := domain.ValidPage(limit, offset)
	if err != nil {
		return err
	}
	all := engine.Catalog()
	start := min(offset, len(all)) // offset+limit could overflow
	page := all[start : start+min(limit, len(all)-start)]
	w.Header().Set("Cache-Control", rulesCacheControl)
	return respond(w, http.StatusOK, RuleSetList{Items: mapSlice(page, ruleSetOut), Total: len(all), Limit: limit, Offset: offset})
}

// getRules describes one rule set.
//
//	@Summary	Get a rule set
//	@ID			getRules
//	@Tags		rules
//	@Produce	json
//	@Param		ruleSet	path		string	true	"Rule set id"	Enums(fibur, fibur-row, reale, aberto, fechado)
//	@Success	200		{object}	RuleSet
//	@Failure	404		{object}	Problem	"not_found: no such rule set"
//	@Router		/api/v1/rules/{ruleSet} [get]
func (h metaHandlers) getRules(w http.ResponseWriter, r *http.Request) error {
	info, ok := engine.RuleSetCatalog(engine.RuleSet(chi.URLParam(r, "ruleSet")))
	if !ok {
		return problem(string(domain.ENotFound), "there is no such rule set; GET /api/v1/rules lists them")
	}
	w.Header().Set("Cache-Control", rulesCacheControl)
	return respond(w, http.StatusOK, ruleSetOut(info))
}
