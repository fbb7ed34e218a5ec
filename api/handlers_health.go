package api

import (
	"context"
	"net/http"
	"time"
)

// metaHandlers serve what describes the server rather than the game: its
// health (/healthz, /readyz), its OpenAPI document (/openapi.yaml,
// /openapi.json) and the rule sets (/api/v1/rules). The documentation
// page (/docs) is docsRoutes'.
type metaHandlers struct{ s *server }

// routes are the ones at the server's root, outside /api/v1.
func (h metaHandlers) routes(r routes) {
	r.get("/healthz", h.healthz)
	r.get("/readyz", h.readyz)
	r.get("/openapi.yaml", h.openapi)
	r.get("/openapi.json", h.openapiJSON)
}

// ruleRoutes are the rule sets', public.
func (h metaHandlers) ruleRoutes(r routes) {
	r.get("/rules", h.listRules)
	r.get("/rules/{ruleSet}", h.getRules)
}

// healthz reports that the process is alive.
//
//	@Summary	Liveness
//	@ID			healthz
//	@Tags		health
//	@Produce	json
//	@Success	200	{object}	Health
//	@Failure	405	{object}	Problem	"method_not_allowed: see the Allow header"
//	@Router		/healthz [get]
func (h metaHandlers) healthz(w http.ResponseWriter, r *http.Request) error {
	return respond(w, http.StatusOK, Health{Status: "ok"})
}

// readyz reports whether the database is reachable.
//
//	@Summary	Readiness
//	@ID			readyz
//	@Tags		health
//	@Produce	json
//	@Success	200	{object}	Health
//	@Failure	405	{object}	Problem	"method_not_allowed: see the Allow header"
//	@Failure	503	{object}	Problem	"service_unavailable: the database does not answer"
//	@Router		/readyz [get]
func (h metaHandlers) readyz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := h.s.db.Ping(ctx); err != nil {
		h.s.log.WarnContext(r.Context(), "readiness check failed", "request_id", RequestIDFrom(r.Context()), "err", err)
		return problem(codeServiceUnavailable, "the database is unreachable")
	}
	return respond(w, http.StatusOK, Health{Status: "ok"})
}

// openapi serves the OpenAPI 3 document of the API.
func (h metaHandlers) openapi(w http.ResponseWriter, r *http.Request) error {
	if len(h.s.cfg.OpenAPI) == 0 {
		return problem(codeRouteNotFound, "this server was built without its OpenAPI document")
	}
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(h.s.cfg.OpenAPI)
	return nil
}
