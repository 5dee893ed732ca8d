# perfdelta pull when things go wrong around it: a RUN_DIR someone
# makes while the pull runs is left as it was, and a perfdb that sends a body without
# end is cut at --max-file-size with memory far below the body (bodies go to files).
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"

# 1. The pull waits on a slow metric list; meanwhile RUN_DIR appears with a user's file.
# The pull must not replace it: exit 3, one line naming where the bundle was left.
SLOW=/atopiris_710-1345_failover_8a921722310040
serve race "$F" --slow-once "$SLOW" --slow-ms 3000
"$PERFDELTA" pull --jenkins "$URL/$JOB/" --jenkins-api xml --perfdb "$URL" \
  -o "$TMP/run" >"$TMP/out" 2>"$TMP/err" &
pull=$!
for _ in $(seq 200); do grep -q "^GET $SLOW 200 noauth slow$" "$TMP/race.log" && break; sleep 0.05; done
count "$TMP/race.log" "^GET $SLOW 200 noauth slow$" 1
mkdir "$TMP/run"
echo "the user's notes" >"$TMP/run/notes.txt"
wait "$pull"
rc=$?
if [ "$rc" = 3 ]; then ok; else fail "exit $rc (want 3) when RUN_DIR appeared"; fi
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: $TMP/run: appeared while pulling and is left as it was; the pulled bundle is beside it, in run\.tmp-[A-Za-z0-9]{6}$"
if [ "$(ls -A "$TMP/run")" = notes.txt ] && [ "$(cat "$TMP/run/notes.txt")" = "the user's notes" ]; then ok; else fail "RUN_DIR changed: $(ls -A "$TMP/run")"; fi
staged=$TMP/$(sed -n 's/.* beside it, in //p' "$TMP/err")
if [ -n "${staged#"$TMP"/}" ] && diff -r "$F/perfdb" "$staged/perfdb" >"$TMP/diff"; then ok; else fail "no whole bundle at '$staged': $(head -3 "$TMP/diff" 2>/dev/null)"; fi
quit

# 2. A series answers with spaces and no length, up to 2 GiB: the pull stops at the
# limit, says so in one line, leaves nothing, and its peak RSS stays far below the limit
# (main held the body in memory: peak RSS above the limit, times --parallel).
SERIES=/n1ql_statsiris_710-1345_failover_8a92/query_requests
LIMIT=$((256 * 1024 * 1024))
serve huge "$F" --endless "$SERIES"
"$BUILD/pd_bench_measure" "$PERFDELTA" pull --jenkins "$URL/$JOB/" --jenkins-api xml \
  --perfdb "$URL" --max-file-size "$LIMIT" -o "$TMP/huge" >"$TMP/measure" 2>"$TMP/err"
has "$TMP/measure" " status=3$"
has "$TMP/err" "^perfdelta: $URL$SERIES: response over the limit of $LIMIT bytes \(--max-file-size\)$"
lines "$TMP/err" 1
count "$TMP/huge.log" "^GET $SERIES 200 noauth endless$" 1
rss=$(sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$TMP/measure")
echo "pull_faults: peak RSS ${rss:-?} kB for a body cut at $((LIMIT / 1024)) kB"
if [ -n "$rss" ] && [ "$rss" -lt $((LIMIT / 1024 / 4)) ]; then ok; else fail "peak RSS ${rss:-?} kB, want under $((LIMIT / 1024 / 4)) kB"; fi
left_nothing "$TMP/huge"
quit
finish
