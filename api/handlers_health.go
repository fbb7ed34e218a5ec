package api

import (
	"context"
	"net/http"
	"time"
)

// healthz reports that the process is alive.
//
//	@Summary	Liveness
//	@ID			healthz
//	@Tags		health
//	@Produce	json
//	@Success	200	{object}	Health
//	@Failure	405	{object}	Problem	"method_not_allowed: see the Allow header"
//	@Router		/healthz [get]
func (s *server) healthz(w http.ResponseWriter, r *http.Request) error {
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
func (s *server) readyz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.db.Ping(ctx); err != nil {
		s.log.WarnContext(r.Context(), "readiness check failed", "request_id", RequestIDFrom(r.Context()), "err", err)
		return problem(codeServiceUnavailable, "the database is unreachable")
	}
	return respond(w, http.StatusOK, Health{Status: "ok"})
}

// openapi serves the OpenAPI 3 document of the API.
func (s *server) openapi(w http.ResponseWriter, r *http.Request) error {
	if len(s.cfg.OpenAPI) == 0 {
		return problem(codeRouteNotFound, "this server was built without its OpenAPI document")
	}
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(s.cfg.OpenAPI)
	return nil
}
