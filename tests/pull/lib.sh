# Shared by the pull tests (tests/e2e/pull*.sh), after tests/e2e/lib.sh: the seed runs as
# a Jenkins build and its perfdb, served by the fake server (tests/pull/fake_server.c).
SERVER=$BUILD/pd_fake_server
F=$SEED/failover B=$SEED/baseline
JOB=job/iris-multi-client/12520
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# serve NAME ROOT [server flags]: starts a server, sets PORT; its log is $TMP/NAME.log
serve() {
  local name=$1 root=$2; shift 2
  rm -f "$TMP/$name.port"
  "$SERVER" --root "$root" --port-file "$TMP/$name.port" --log "$TMP/$name.log" \
    --lifetime 120 "$@" &
  SERVER_PID=$!
  pids="$pids $!"
  for _ in $(seq 100); do [ -s "$TMP/$name.port" ] && break; sleep 0.05; done
  PORT=$(cat "$TMP/$name.port")
  URL=http://127.0.0.1:$PORT
}
# quit: the server ends; returns once it has (its port is free; the server's --lifetime
# bounds the wait)
quit() {
  curl -fsS "$URL/quit" >/dev/null
  wait "$SERVER_PID" 2>/dev/null || true
}
# nothing at $1 and nothing beside it (no temporary directory left)
left_nothing() {
  if [ ! -e "$1" ] && ! ls -d "$1".tmp-* >/dev/null 2>&1; then ok; else fail "left behind: $(ls -d "$1"*)"; fi
}
# count FILE REGEX N: FILE has N lines matching REGEX
count() {
  local n; n=$(grep -cE -- "$2" "$1")
  if [ "$n" = "$3" ]; then ok; else fail "$(basename "$1"): $n lines match /$2/, want $3"; fi
}
