#!/usr/bin/env bash
# The project's test command (make test): PostgreSQL for the storage and API
# tests, go vet, gofmt, go test -race on the whole module, the rules
# conformance cases (the shared ones when ../shared has them), and a lint
# of openapi.yaml.
# Exits non-zero on the first failure. `.ci/test.sh lint` (make lint)
# runs only the static checks.
set -euo pipefail
cd "$(dirname "$0")/.."

REDOCLY_VERSION=2.77.0
STATICCHECK_VERSION=v0.8.2  # staticcheck 2026.2.2
DEFAULT_PG_URL="postgres://burraco:burraco@localhost:5432/burraco_test?sslmode=disable"

step() { printf '\n== %s\n' "$*"; }

# postgres_setup installs and starts PostgreSQL from Debian and creates the
# test role and database. It runs only as root and only when the caller did
# not point TEST_DATABASE_URL elsewhere; it is idempotent.
postgres_setup() {
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    step "installing PostgreSQL"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local version
  version=$(pg_lsclusters --no-header 2>/dev/null | awk '$2 == "main" {print $1; exit}')
  version=${version:-15}
  pg_ctlcluster "$version" main start 2>/dev/null || true  # already running is fine
  for _ in $(seq 30); do
    su postgres -c "psql -qtAc 'SELECT 1'" >/dev/null 2>&1 && break
    sleep 1
  done
  su postgres -c "psql -v ON_ERROR_STOP=1 -q" <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'burraco') THEN
    CREATE ROLE burraco LOGIN SUPERUSER PASSWORD 'burraco';
  END IF;
END $$;
SELECT 'CREATE DATABASE burraco_test OWNER burraco'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'burraco_test')\gexec
SQL
}

# tools_setup installs, as root and only when missing, what the build and
# the tests need besides Go: a C compiler (cgo: the SQLite driver), Node.js
# with npm (the OpenAPI lint, the generated-client test, axe-core) and
# Chromium (the pages' browser test, api/pages, drives it headless).
tools_setup() {
  local missing=()
  command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
  command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ]; then
    step "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

tools_setup

step "go vet"
go vet ./...

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  printf 'gofmt would change:\n%s\n' "$unformatted"
  exit 1
fi

step "staticcheck"
go run "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}" ./...

# redocly_lint lints openapi.yaml with the rules of .ci/redocly.yaml
# (recommended-strict: any finding fails). It quiets what is not the
# project's: npm's notices about the machine's npm configuration, Node's
# own warnings, and the boxed notice that Redocly prints on every run under
# Node.js 20 (that its support is ending; there is no switch for it).
# Findings and the exit status pass through untouched.
redocly_lint() {
  NODE_NO_WARNINGS=1 npm_config_loglevel=error npm_config_update_notifier=false \
    npx --yes "@redocly/cli@${REDOCLY_VERSION}" lint --config .ci/redocly.yaml openapi.yaml 2>&1 |
    sed '/╔═/,/╚═/d' | cat -s
}

step "redocly lint openapi.yaml"
redocly_lint

if [ "${1:-}" = lint ]; then
  step "static checks passed"
  exit 0
fi

step "PostgreSQL"
if [ -z "${TEST_DATABASE_URL:-}" ] && [ "$(id -u)" = 0 ]; then
  postgres_setup
fi
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-$DEFAULT_PG_URL}"
# With CI=true (.ci/run sets it) the PostgreSQL and Node-based tests fail,
# rather than skip, when their server or tool is missing; locally they skip.
echo "TEST_DATABASE_URL=…@${TEST_DATABASE_URL#*@} CI=${CI:-}"

# The engine starts no goroutine (TestEngineIsSequential keeps it so), so
# the race detector has nothing to find there: it runs once without it,
# its tests at their CI size (the random-play simulation: 200 deals per rule
# set and player count; BURRACO_SIM_DEALS=1000 plays 2,000), instead of a
# sample under -race and the simulation again. Every other package runs
# under the detector. The api package takes about 3 minutes alone on two
# idle cores; the 30-minute limit (go test's default is 10) is for a
# machine busy with other work, where it has passed 10 minutes.
step "go test -race (all but engine)"
go test -race -count=1 -timeout 30m $(go list ./... | grep -v '/engine$')

step "go test ./engine (CI size, no race detector)"
go test -count=1 ./engine

# The race detector slows the tables' leak property and the state
# conversion property tenfold, so under it they play a sample (8 deals and
# 3 per configuration); the full size (40 deals, 12 per configuration) runs
# here, without it.
step "api properties (full size, no race detector)"
go test -count=1 -run '^(TestTableNothingHiddenLeaks|TestStateConversionMatchesJSON)$' ./api

# The project's own conformance cases always run through the binary; the
# shared ones only where the checkout has ../shared beside it (a standalone
# clone does not), and the log says which.
step "rules conformance (testdata/conformance)"
go run ./cmd/burraco conformance testdata/conformance | sed '/^ok /d'
if [ -d ../shared/conformance/cases ]; then
  step "rules conformance (../shared/conformance/cases)"
  go run ./cmd/burraco conformance ../shared/conformance/cases | sed '/^ok /d'
else
  step "rules conformance: no ../shared/conformance/cases beside the repository, shared cases skipped"
fi

step "all checks passed"
