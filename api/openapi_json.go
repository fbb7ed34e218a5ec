package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"gopkg.in/yaml.v3"
)

// openapiJSON serves the OpenAPI document as JSON, for the tools that read
// only JSON; it is converted from the YAML once, on first use.
func (h metaHandlers) openapiJSON(w http.ResponseWriter, r *http.Request) error {
	body, err := h.s.specJSON()
	if err != nil {
		return fmt.Errorf("openapi.json: %w", err) // a 500, logged
	}
	if body == nil {
		return problem(codeRouteNotFound, "this server was built without its OpenAPI document")
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
	return nil
}

// specJSONOnce converts cfg.OpenAPI to JSON; nil when there is none.
func specJSONOnce(spec []byte) func() ([]byte, error) {
	return sync.OnceValues(func() ([]byte, error) {
		if len(spec) == 0 {
			return nil, nil
		}
		var doc any
		if err := yaml.Unmarshal(spec, &doc); err != nil {
			return nil, err
		}
		plain, err := jsonValue(doc)
		if err != nil {
			return nil, err
		}
		return json.Marshal(plain)
	})
}

// jsonValue turns what yaml.v3 decodes into values encoding/json accepts:
// a mapping whose keys are not all strings (a response status such as 200)
// is a map[any]any, whose keys are written as strings.
func jsonValue(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			v[k] = j
		}
		return v, nil
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			m[fmt.Sprint(k)] = j
		}
		return m, nil
	case []any:
		for i, e := range v {
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			v[i] = j
		}
		return v, nil
	}
	return v, nil
}
