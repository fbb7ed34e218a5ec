# The everyday commands; the README explains each.
.PHONY: run test docs lint bench bench-http

# Start the API on :8080 with burraco.db in this directory.
run:
	go run ./cmd/burraco serve

# Everything CI checks (PostgreSQL is installed first when running as root).
test:
	bash .ci/test.sh

# Regenerate docs/ (swag) and openapi.yaml (OpenAPI 3) from the annotations.
docs:
	go run ./cmd/openapigen

# Static checks only: go vet, gofmt, staticcheck, redocly lint of openapi.yaml.
lint:
	bash .ci/test.sh lint

bench:
	go test -run '^$$' -bench . -benchmem ./...

# The request path with wrk against baselines measured in the same run.
bench-http:
	bash .ci/bench-http.sh
