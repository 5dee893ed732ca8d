#!/usr/bin/env bash
# The history store on a real PostgreSQL (Debian's postgresql-15, scripts/deps test):
# started here on 127.0.0.1 on a free port, its data and socket in a temporary directory,
# stopped by its pid. PostgreSQL refuses to run as root: as root it runs as nobody
# (setpriv, which execs, so $! is the server's pid); skipped (77) when it is not installed.
. "$(dirname "$0")/lib.sh" "$@"
PGBIN=/usr/lib/postgresql/15/bin
[ -x "$PGBIN/postgres" ] && command -v psql >/dev/null || { echo "skip: no PostgreSQL 15 (scripts/deps test)"; exit 77; }
as_user=()
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null || { echo "skip: root without setpriv"; exit 77; }
  as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
  chmod 755 "$TMP"
fi
PG=$TMP/pg
mkdir -p "$PG/sock" && { [ ${#as_user[@]} = 0 ] || chown -R nobody:nogroup "$PG"; }
"${as_user[@]}" "$PGBIN/initdb" -D "$PG/data" -U pd --auth=trust -E UTF8 >"$TMP/initdb.log" 2>&1 ||
  { cat "$TMP/initdb.log" >&2; echo "FAIL: initdb"; exit 1; }
PORT=$(python3 -c "import socket;s=socket.socket();s.bind(('127.0.0.1',0));print(s.getsockname()[1])")
"${as_user[@]}" "$PGBIN/postgres" -D "$PG/data" -h 127.0.0.1 -p "$PORT" -k "$PG/sock" \
  -c fsync=off >"$TMP/pg.log" 2>&1 &
PGPID=$!
trap 'kill "$PGPID" 2>/dev/null; wait "$PGPID" 2>/dev/null; rm -rf "$TMP"' EXIT
deadline=$((SECONDS + 60))
until pg_isready -q -h 127.0.0.1 -p "$PORT"; do
  kill -0 "$PGPID" 2>/dev/null || { cat "$TMP/pg.log" >&2; echo "FAIL: postgres died"; exit 1; }
  [ $SECONDS -lt $deadline ] || { echo "FAIL: postgres not ready in 60 s"; exit 1; }
  sleep 0.1
done
DB="postgresql://pd@127.0.0.1:$PORT/postgres"
sql() { psql -X -q -At -h 127.0.0.1 -p "$PORT" -U pd -d postgres -c "$1"; }

# added once, then a no-op
expect_code 0 "$PERFDELTA" history add "$SEED/baseline" "$SEED/failover" --db "$DB"
has "$TMP/out" '^added iris-multi-client#12520 '
expect_code 0 "$PERFDELTA" history add "$SEED/failover" --db "$DB"
has "$TMP/out" '^already stored iris-multi-client#12520 '
[ "$(sql 'select count(*) from runs')" = 2 ] && ok || fail "two runs stored"
[ "$(sql 'select version from pd_schema')" = 1 ] && ok || fail "schema 1"

# four processes adding the same runs at once: stored once each
pids=()
for k in 1 2 3 4; do
  "$PERFDELTA" history add "$SEED/failover-clean" "$SEED/failover-late" --db "$DB" >"$TMP/c$k" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" && ok || fail "a concurrent add failed: $(cat "$TMP"/c*)"; done
[ "$(sql 'select count(*) from runs')" = 4 ] && ok || fail "concurrent adds stored $(sql 'select count(*) from runs') runs, want 4"

# a report from PostgreSQL
T=n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i
expect_code 0 "$PERFDELTA" history report --test "$T" --db "$DB" -o "$TMP/rep"
has "$TMP/rep/summary.json" '"change_points":\[\]'
# a test the store lacks: the error names the tests it holds, as SQLite's does
expect_code 3 "$PERFDELTA" history report --test nosuch --db "$DB" -o "$TMP/rep1"
has "$TMP/err" "^perfdelta: the history holds no run of test 'nosuch'; it holds .*$T"
hasf "$TMP/rep/index.html" '<link rel="stylesheet" href="style.css">'

# baselines from history: the earlier runs of the target's test and build line
# (failover-late is #12523 of build 7.1.0-1345: #12520 and #12521 came before it)
expect_code 0 "$PERFDELTA" compare --baseline-history 2 --db "$DB" "$SEED/failover-late" -o "$TMP/cmp" --fail-on never
has "$TMP/err" 'baselines from the history: 2 runs'
has "$TMP/cmp/summary.json" '"label":"iris-multi-client #12520"'
# a stored bundle that moved is skipped, with a note
sql "update runs set bundle = '/nonexistent/moved' where run_key = 'iris-multi-client#12521'"
expect_code 0 "$PERFDELTA" compare --baseline-history 2 --db "$DB" "$SEED/failover-late" -o "$TMP/cmp2" --fail-on never
has "$TMP/err" 'run iris-multi-client#12521 was added from /nonexistent/moved, which is gone'
has "$TMP/err" 'baselines from the history: 1 run$'

# The report's compare commands name the store as the report read it, user kept, the
# password left out (trust auth takes any): a history with a planted change (pd_seedgen
# --history, tests/e2e/history_compare.sh), read with a password in the URL; the command
# then runs as printed, its password from the environment
"$BUILD/pd_seedgen" --history 20 --step-at 13 "$TMP/h" >/dev/null 2>&1 || fail "pd_seedgen --history"
H="postgresql://pd:S3cr3tPw@127.0.0.1:$PORT/postgres"
sql 'create database hist'
expect_code 0 "$PERFDELTA" history add "$TMP"/h/run-* --db "${H%/postgres}/hist"
expect_code 0 "$PERFDELTA" history report --test "$T" --db "${H%/postgres}/hist" -o "$TMP/hrep"
if grep -rqF S3cr3tPw "$TMP/hrep" "$TMP/out" "$TMP/err"; then fail "the report shows the password"; else ok; fi
has "$TMP/out" "^     compare: perfdelta compare --db 'postgresql://pd@127\.0\.0\.1:$PORT/hist' '$TMP/h/run-12' '$TMP/h/run-13' -o "
cmd=$(sed -n "s/^     compare: //p" "$TMP/out" | head -1)
(cd "$TMP" && PGPASSWORD=S3cr3tPw PATH="$(dirname "$PERFDELTA"):$PATH" bash -c "$cmd --quiet --fail-on never") \
  >"$TMP/c.txt" 2>&1 && ok || fail "the suggested compare: $(head -3 "$TMP/c.txt")"
has "$TMP"/compare-*/summary.json '"noise":"history"'

# a session holding the store's lock: a writer gives up after the lock wait of
# history/db.h, as on SQLite (it waited forever), with one message for both stores
LOCK_S=$(sed -n 's/^#define PD_DB_LOCK_WAIT_S *\([0-9]*\).*/\1/p' "$SRC/history/db.h")
psql -X -q -h 127.0.0.1 -p "$PORT" -U pd -d postgres \
  -c 'select pg_advisory_lock(2400240024), pg_sleep(600)' >/dev/null 2>&1 &
HOLDER=$!
held() { [ "$(sql "select count(*) from pg_locks where locktype = 'advisory' and granted")" = 1 ]; }
wait_for 30 held || fail "the lock holder did not take the lock"
t0=$(date +%s)
expect_code 3 timeout $((LOCK_S + 30)) "$PERFDELTA" history add "$SEED/baseline-r2" --db "$DB"
s=$(($(date +%s) - t0))
has "$TMP/err" "^perfdelta: postgresql://127\.0\.0\.1:$PORT/postgres: another writer held the history store for $LOCK_S s: gave up \(nothing was changed\)$"
if [ "$s" -ge $((LOCK_S - 1)) ] && [ "$s" -le $((LOCK_S + 15)) ]; then ok; else fail "the locked add ended after $s s, want about $LOCK_S"; fi
sql "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory'" >/dev/null
wait "$HOLDER" 2>/dev/null
[ "$(sql 'select count(*) from runs')" = 4 ] && ok || fail "a locked add stored a run"

# Both stores take the same bytes (not_utf8_refused, tests/e2e/lib.sh)
not_utf8_refused "$DB"
[ "$(sql 'select count(*) from runs')" = 4 ] && ok || fail "a refused add stored a run"

# a reader makes no store; a database holding another program's tables is refused by a
# writer, unchanged
sql 'create database other' && sql 'create database empty'
OTHER="postgresql://pd@127.0.0.1:$PORT/other"
psql -X -q -h 127.0.0.1 -p "$PORT" -U pd -d other -c 'create table notes (t text)'
expect_code 2 "$PERFDELTA" history add "$SEED/baseline" --db "$OTHER"
has "$TMP/err" "^perfdelta: postgresql://127\.0\.0\.1:$PORT/other: not a perfdelta history store: it holds 1 table and no pd_schema"
expect_code 3 "$PERFDELTA" history report --test "$T" --db "postgresql://pd@127.0.0.1:$PORT/empty" -o "$TMP/rep0"
has "$TMP/err" "no history store here"
for d in other empty; do
  n=$(psql -X -q -At -h 127.0.0.1 -p "$PORT" -U pd -d $d -c "select count(*) from information_schema.tables where table_schema = 'public'")
  want=1; [ $d = empty ] && want=0
  if [ "$n" = $want ]; then ok; else fail "database $d holds $n tables, want $want"; fi
done

# a store of a newer schema is refused, nothing changed
sql 'update pd_schema set version = 7'
expect_code 3 "$PERFDELTA" history add "$SEED/baseline-r2" --db "$DB"
has "$TMP/err" 'schema 7, newer than this perfdelta.s 1'
[ "$(sql 'select count(*) from runs')" = 4 ] && ok || fail "a refused store was changed"
finish
