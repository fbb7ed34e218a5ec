# The everyday commands; the README explains each.
.PHONY: run test quick docs lint bench bench-http

# Start the API on :8080 with burraco.db in this directory.
run:
	go run ./cmd/burraco serve

# Everything CI checks (.ci/test.sh): go vet, gofmt, staticcheck, redocly
# lint, go test -race on SQLite and PostgreSQL of every package but those
# that start no goroutine (the engine, domain/pairing, cmd/openapigen),
# which run without the race detector at CI's size, the api tests that
# play a sample under the detector at full size without it, and the
# conformance cases. go test -race ./api, the long pole, runs in the
# foreground and everything else beside it at a lower priority, so that
# both cores stay busy: under 4 minutes on the project's two cores with a
# warm build cache (docs/DEVELOP.md has the figures).
# Run as root, it first installs what is missing from Debian (gcc and
# libc6-dev, nodejs and npm, chromium-headless-shell, postgresql), starts
# PostgreSQL and creates the SUPERUSER role burraco (password burraco) and the database
# burraco_test, unless TEST_DATABASE_URL points elsewhere. staticcheck and
# @redocly/cli are fetched through go run and npx.
test:
	bash .ci/test.sh

# The edit-test loop: go test -short without the race detector. It needs
# neither PostgreSQL nor Node.js: the PostgreSQL halves, the tests that
# build and run the binary and the generated-client test skip, and the
# simulations play small samples. About 40 s on two idle cores with a
# warm build cache (38 s on 2026-11-27) (the api package 30 s of it); unchanged packages
# answer from go test's cache in seconds.
quick:
	go test -short ./...

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
