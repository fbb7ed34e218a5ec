#!/usr/bin/env bash
# The project's test command (make test): PostgreSQL for the storage and API
# tests, go vet, gofmt, staticcheck, a lint of openapi.yaml, go test -race
# on the whole module but the packages that start no goroutine (the engine,
# the pairing searches, the OpenAPI generator), those without the race
# detector, the api tests that play a sample under the detector at full
# size without it, and the rules conformance cases (the shared ones when
# ../shared has them). go test -race ./api, the long pole, runs in the
# foreground; everything else runs beside it, niced, so that the two cores
# stay busy while its tests wait (on PostgreSQL, on each other) rather
# than after it.
# Exits non-zero when any part fails (the logs of the parts that ran beside
# the api's race step follow its own). `.ci/test.sh lint` (make lint) runs only
# the static checks, in order, stopping at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

REDOCLY_VERSION=2.77.0
STATICCHECK_VERSION=v0.8.2  # staticcheck 2026.2.2
DEFAULT_PG_URL="postgres://burraco:burraco@localhost:5432/burraco_test?sslmode=disable"

step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }

# ci_tmp holds the logs of the checks that run beside the race step and the
# binary that the tests and the conformance runs share.
ci_tmp=$(mktemp -d /tmp/burraco-ci-XXXXXX)
trap 'rm -rf "$ci_tmp"' EXIT

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
# Chromium's headless shell (the pages' browser test, api/pages, drives it;
# a full chromium also does, at twice the CPU).
tools_setup() {
  local missing=()
  command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
  command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
  command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
  if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ]; then
    step "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# static_checks: go vet, gofmt, staticcheck and the lint of openapi.yaml.
static_checks() {
  step "go vet"
  go vet ./...

  step "gofmt"
  local unformatted
  unformatted=$(gofmt -l .)
  if [ -n "$unformatted" ]; then
    printf 'gofmt would change:\n%s\n' "$unformatted"
    return 1
  fi

  step "staticcheck"
  go run "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}" ./...

  step "redocly lint openapi.yaml"
  redocly_lint
}

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

# unraced_packages run without the race detector (unraced_checks): their
# code starts no goroutine (TestUnracedPackagesAreSequential, in engine/,
# keeps them so), so the detector has nothing to find in them, and it
# slows them three- to tenfold: the engine (its simulation and properties),
# the pairing searches and the OpenAPI generator's checks.
unraced_packages='./engine ./domain/pairing ./cmd/openapigen'

# api_unraced names the api tests that play a sample under the race
# detector (api/racesample_test.go: the properties and the tests that play
# whole deals through the API and check every answer, which it slows about
# tenfold); unraced_checks runs them at full size.
# TestRaceSamplesRunWholeInCI fails when a test reads raceEnabled and is
# not named here, or is named here and does not.
api_unraced='^(TestMoveFeedNeverShowsAHiddenCard|TestRatingsMoveOnlyOnRatedFinishedMatches|TestStateConversionMatchesJSON|TestTableLeakFreeOtherRuleSets|TestTableMatchEveryRuleSet|TestTableNothingHiddenLeaks|TestTableTieBreakDeals)$'

# unraced_checks: what runs without the race detector, once, at CI's
# size: unraced_packages (the engine's random-play simulation plays 50
# deals per bot for each rule set, player count and option mix, and its
# view and search properties 3 to 5 deals per configuration;
# BURRACO_SIM_DEALS=1000 and BURRACO_DEEP=10 are the deep runs) and the
# api tests of api_unraced at full size (the leak property 22 tables,
# BURRACO_LEAK_DEALS=200 the deep run). Then the conformance cases through
# the binary built for the tests: the project's own always, the shared
# ones only where the checkout has ../shared beside it (a standalone clone
# does not), and the log says which. (Run as two parts beside each other,
# make test took no less. Each part and the race step print when they
# end.)
unraced_checks() {
  step "go test $unraced_packages (CI size, no race detector)"
  # shellcheck disable=SC2086 # a list of packages
  go test -count=1 $unraced_packages

  step "api tests that play a sample under the race detector (full size, no race detector)"
  go test -count=1 -run "$api_unraced" ./api

  local bin=$BURRACO_TEST_BINARY
  step "rules conformance (testdata/conformance)"
  "$bin" conformance testdata/conformance | sed '/^ok /d'
  if [ -d ../shared/conformance/cases ]; then
    step "rules conformance (../shared/conformance/cases)"
    "$bin" conformance ../shared/conformance/cases | sed '/^ok /d'
  else
    step "rules conformance: no ../shared/conformance/cases beside the repository, shared cases skipped"
  fi
}

# race_others: go test -race of the packages but api and the unraced ones.
race_others() {
  step "go test -race (all but api and $unraced_packages)"
  local skip
  skip=$(printf -- '-e github.com/burraco/burraco/%s\n' api ${unraced_packages//.\//})
  # shellcheck disable=SC2046,SC2086 # lists of packages and of patterns
  go test -race -count=1 -timeout 30m $(go list ./... | grep -v -x $skip)
}

# beside runs a function in the background, in a subshell (errexit,
# pipefail) at a lower priority, its output kept in a file until finish
# prints it: it fills the cores that the race step leaves idle (while its
# sequential tests run, and while they wait on PostgreSQL, the browser and
# the Node client) instead of running after it.
beside_pids=() beside_names=()
beside() {
  (renice -n 10 -p "$BASHPID" >/dev/null; set -euo pipefail; "$1"; echo "== $1 ended ${SECONDS} s after make test began") >"$ci_tmp/$1.log" 2>&1 &
  beside_pids+=($!) beside_names+=("$1")
}

# finish waits for what runs beside, prints each one's log, and fails if
# any part failed.
finish() {
  local failed=0 i
  for i in "${!beside_pids[@]}"; do
    if wait "${beside_pids[$i]}"; then
      cat "$ci_tmp/${beside_names[$i]}.log"
    else
      cat "$ci_tmp/${beside_names[$i]}.log"
      printf '\n== FAILED: %s (its log is above)\n' "${beside_names[$i]}"
      failed=1
    fi
  done
  return "$failed"
}

tools_setup

if [ "${1:-}" = lint ]; then
  static_checks
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

# go test -race ./api is the long pole: it runs at the normal priority,
# and everything else runs beside it, niced, filling the cores while it
# waits (on PostgreSQL, on its tests' servers): the other packages under
# the detector, the static checks and the unraced checks (their logs
# follow its own); the whole fails if any part does. make test is bound
# by CPU: both cores are busy from the 15th second to the end, so only
# less work makes it shorter, not another order. On 2026-11-27, once the
# browser tests drove chromium-headless-shell instead of chromium: 3:28
# to 3:49 over five runs (406-445 core-seconds of the machine,
# from /proc/stat, with PostgreSQL's server and the binaries and browser
# the tests start), against 3:43-6:08 and about 600 core-seconds the day
# before. Alone on the machine, in core-seconds: go test -race ./api 95,
# api/pages 71, the api samples at full size 43, cmd/loadtables 33, the
# engine 22, domain 16, cmd/burraco and docs/client 12 each. Under the
# detector the tests run at go test's default parallelism (the cores):
# with -parallel 4 the api package alone finished sooner, but make test
# took longer (the detector's cost grows with the goroutines running at
# once). The 30-minute limit (go test's default is 10) is for a machine
# busy with other work.
# One build of the binary serves the conformance runs and every package
# whose tests start it (internal/servertest; each build links it again).
export BURRACO_TEST_BINARY=$ci_tmp/burraco
go build -o "$BURRACO_TEST_BINARY" ./cmd/burraco
beside race_others
beside static_checks
beside unraced_checks
step "go test -race ./api; the other packages, the static checks and the unraced checks run beside it"
race=0
go test -race -count=1 -timeout 30m ./api || race=$?
echo "== go test -race ./api ended ${SECONDS} s after make test began"
finish || race=1
if [ "$race" != 0 ]; then
  step "FAILED"
  exit 1
fi

step "all checks passed"
