# Every wait on a history store has a deadline: a PostgreSQL that accepts
# and never answers (connect_timeout), one that completes the startup and then answers no
# statement (the answer's deadline), and a SQLite store whose lock another writer holds
# (the busy timeout) each end in one line, exit 3, within their stated time. The cases run
# at once; each process is waited on by its pid with a deadline.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skip: python3 missing (scripts/deps test)"; exit 77; }
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
# limits from history/db.h, the one place they are declared
limit() { sed -n "s/^#define $1 *\\([0-9]*\\).*/\\1/p" "$SRC/history/db.h"; }
CONNECT_S=$(limit PD_DB_CONNECT_S) ANSWER_S=$(limit PD_DB_ANSWER_S) LOCK_S=$(limit PD_DB_LOCK_WAIT_S)
[ -n "$CONNECT_S" ] && [ -n "$ANSWER_S" ] && [ -n "$LOCK_S" ] && ok || fail "limits not found in history/db.h"

silent() { # silent MODE NAME: starts pg_silent.py, sets its PORT_<NAME>
  python3 "$SRC/tests/e2e/pg_silent.py" "$1" "$TMP/$2.port" &
  pids="$pids $!"
  wait_for 30 test -s "$TMP/$2.port" || fail "pg_silent.py $1 did not start"
  eval "PORT_$2=\$(cat \"\$TMP/$2.port\")"
}
# run NAME CMD...: starts CMD in the background, its start time and pid kept
run() {
  local name=$1; shift
  date +%s%N >"$TMP/$name.t0"
  "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
  eval "PID_$name=\$!"
  pids="$pids $!"
}
# done_in NAME CODE MIN MAX: NAME's process ends by MAX s after its start, with CODE,
# not before MIN s
done_in() {
  local name=$1 code=$2 min=$3 max=$4 pid got t0 t1 s
  pid=$(eval "echo \$PID_$name")
  t0=$(cat "$TMP/$name.t0")
  if wait_for $((max + 5)) sh -c "! kill -0 $pid 2>/dev/null"; then ok; else fail "$name still running after $max s"; kill "$pid"; fi
  wait "$pid"; got=$?
  t1=$(date +%s%N); s=$(((t1 - t0) / 1000000000))
  if [ "$got" = "$code" ]; then ok; else fail "$name: exit $got, want $code: $(head -3 "$TMP/$name.err")"; fi
  if [ "$s" -ge "$min" ] && [ "$s" -le "$max" ]; then ok; else fail "$name ended after $s s, want $min to $max"; fi
  lines "$TMP/$name.err" 1
}

silent accept ACC
silent startup STA
# 1. accepts, never answers: libpq's connect_timeout (ours, or the URL's)
run acc "$PERFDELTA" history add "$SEED/baseline" --db "postgresql://pd@127.0.0.1:$PORT_ACC/h"
run acc2 "$PERFDELTA" history report --test t -o "$TMP/r" --db "postgresql://pd@127.0.0.1:$PORT_ACC/h?connect_timeout=2"
# (a URL's connect_timeout=0 is libpq's "forever": ours then)
run acc0 "$PERFDELTA" history add "$SEED/baseline" --db "postgresql://pd@127.0.0.1:$PORT_ACC/h?connect_timeout=0"
# 2. the startup done, no statement answered
run sta "$PERFDELTA" history add "$SEED/baseline" --db "postgresql://pd@127.0.0.1:$PORT_STA/h"
# 3. a SQLite store whose lock another writer holds (sqlite3 in a transaction, its input
# kept open by a FIFO we hold)
"$PERFDELTA" history add "$SEED/baseline" --db "sqlite:$TMP/h.sqlite" >/dev/null 2>&1 || fail "the store"
if command -v sqlite3 >/dev/null; then
  mkfifo "$TMP/in"
  sqlite3 "$TMP/h.sqlite" <"$TMP/in" &
  pids="$pids $!"
  exec 9>"$TMP/in"
  echo 'BEGIN IMMEDIATE; INSERT INTO pd_schema VALUES (1);' >&9
  locked() { ! sqlite3 -cmd '.timeout 0' "$TMP/h.sqlite" 'BEGIN IMMEDIATE; ROLLBACK;' 2>/dev/null; }
  wait_for 30 locked || fail "sqlite3 did not take the lock"
  run lck "$PERFDELTA" history add "$SEED/failover" --db "sqlite:$TMP/h.sqlite"
fi

done_in acc2 3 1 $((2 + 5))
has "$TMP/acc2.err" "^perfdelta: cannot connect to the history database \\(connect_timeout 2 s\\): .*timeout expired$"
done_in acc 3 $((CONNECT_S - 1)) $((CONNECT_S + 10))
has "$TMP/acc.err" "^perfdelta: cannot connect to the history database \\(connect_timeout $CONNECT_S s\\): .*timeout expired$"
done_in acc0 3 $((CONNECT_S - 1)) $((CONNECT_S + 10))
has "$TMP/acc0.err" "^perfdelta: cannot connect to the history database \\(connect_timeout $CONNECT_S s\\): .*timeout expired$"
if command -v sqlite3 >/dev/null; then
  done_in lck 3 $((LOCK_S - 1)) $((LOCK_S + 15))
  has "$TMP/lck.err" "^perfdelta: $TMP/h\\.sqlite: another writer held the history store for $LOCK_S s: gave up \\(nothing was changed\\)$"
  echo 'ROLLBACK;' >&9
  exec 9>&-
fi
done_in sta 3 $((ANSWER_S - 1)) $((ANSWER_S + 15))
has "$TMP/sta.err" "^perfdelta: postgresql://127\\.0\\.0\\.1:$PORT_STA/h: history database: no answer in $ANSWER_S s: giving up$"
finish
