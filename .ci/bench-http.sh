#!/usr/bin/env bash
# make bench-http: load a real `burraco serve` (SQLite file, info log to a
# file) with wrk over loopback, and compare it with baselines measured in
# the same run: a bare net/http handler for the reads, a raw Go loop of
# single-row INSERT transactions on a SQLite file with the server's pragmas
# for the write. Prints each run's rate and the ratio server/baseline; the
# write also prints its p50 and p99 latency.
#
# Tunables: DURATION (per wrk run, default 5s), CONNS (default 32), ROUNDS
# (alternations of baseline and server per target, default 3). Only
# 127.0.0.1 is loaded, and every run stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-5s}
CONNS=${CONNS:-32}
ROUNDS=${ROUNDS:-3}

if ! command -v wrk >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  else
    echo "bench-http needs wrk (Debian: apt-get install wrk)" >&2
    exit 1
  fi
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/burraco" ./cmd/burraco
go build -o "$tmp/benchhttp" ./.ci/benchhttp

"$tmp/benchhttp" bare 127.0.0.1:0 >"$tmp/bare.addr" &
pids+=($!)
JWT_SECRET=bench-secret-0123456789-0123456789-abcdef BURRACO_ADMIN_PASSWORD=bench-admin-password \
  "$tmp/burraco" serve -addr 127.0.0.1:0 -database "$tmp/bench.db" 2>"$tmp/server.log" &
pids+=($!)

server="" bare=""
for _ in $(seq 100); do
  server=$(sed -n 's/.*msg=listening addr=\([^ ]*\).*/\1/p' "$tmp/server.log")
  bare=$(cat "$tmp/bare.addr")
  [ -n "$server" ] && [ -n "$bare" ] && break
  sleep 0.1
done
if [ -z "$server" ] || [ -z "$bare" ]; then
  echo "the servers did not start:" >&2
  cat "$tmp/server.log" >&2
  exit 1
fi
server=http://$server bare=http://$bare

post() { # path token body → response body
  curl -sf "$server$1" -H 'Content-Type: application/json' ${2:+-H "Authorization: Bearer $2"} -d "$3"
}
token() { sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p'; }

admin=$(post /api/v1/auth/login "" '{"email":"admin@burraco.local","password":"bench-admin-password"}' | token)
post /api/v1/auth/register "" '{"email":"anna@example.com","password":"password-123","name":"Anna"}' >/dev/null
user=$(post /api/v1/auth/login "" '{"email":"anna@example.com","password":"password-123"}' | token)
player=""
for i in $(seq 100); do # a list has more rows than a page
  player=$(post /api/v1/players "$admin" "{\"name\":\"Player $i\"}" | sed -n 's/^{"id":\([0-9]*\).*/\1/p')
done
[ -n "$admin" ] && [ -n "$user" ] && [ -n "$player" ] || { echo "setup failed" >&2; exit 1; }

cat >"$tmp/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"name":"Bench Player"}'
wrk.headers["Content-Type"] = "application/json"
LUA

# run URL [wrk args…] → "rate p50 p99", failing on any non-2xx answer
run() {
  local url=$1 out
  shift
  out=$(wrk -t2 -c"$CONNS" -d"$DURATION" --latency "$@" "$url")
  if grep -q 'Non-2xx' <<<"$out"; then
    echo "non-2xx answers from $url:" >&2
    echo "$out" >&2
    exit 1
  fi
  awk '/Requests\/sec/ {r=$2} $1=="50%" {p50=$2} $1=="99%" {p99=$2} END {print r, p50, p99}' <<<"$out"
}

printf '%-22s %5s %12s %12s %7s %9s %9s\n' target round baseline/s server/s ratio p50 p99
target() { # name path [wrk args…]; baseline: the bare handler, or "inserts" for the write
  local name=$1 path=$2 base rate p50 p99
  shift 2
  for round in $(seq "$ROUNDS"); do
    if [ "$name" = create-player ]; then
      base=$("$tmp/benchhttp" inserts "$tmp/raw-$round.db" 20000)
    else
      read -r base _ _ < <(run "$bare$path" "$@")
    fi
    read -r rate p50 p99 < <(run "$server$path" "$@")
    printf '%-22s %5s %12.0f %12.0f %7.3f %9s %9s\n' "$name" "$round" "$base" "$rate" \
      "$(awk -v a="$rate" -v b="$base" 'BEGIN {print a / b}')" "$p50" "$p99"
  done
}

target healthz /healthz
target get-player-anonymous "/api/v1/players/$player"
target get-player "/api/v1/players/$player" -H "Authorization: Bearer $user"
target list-players /api/v1/players -H "Authorization: Bearer $user"
target create-player /api/v1/players -H "Authorization: Bearer $admin" -s "$tmp/post.lua"
