# Hostile URLs given to compare (issues 25, 36): a URL naming no build (nothing after the
# scheme) is refused, never the cache directory itself read as a run; two URLs are two
# cache entries however long; a failed pull says why.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"
export PERFDELTA_CACHE=$TMP/cache
mkdir -p "$TMP/cache/builds/127.0.0.1_1_job_j_1"
for u in 'http:///' 'https://' 'http://///'; do
  expect_code 2 timeout 30 "$PERFDELTA" compare "$u" "$SEED/baseline" -o "$TMP/o"
  has "$TMP/err" "^perfdelta: $u: expected a Jenkins build URL or a cbmonitor comparison URL"
  hasnt "$TMP/err" "reusing"
  if [ ! -e "$TMP/o" ]; then ok; else fail "$u: output written"; fi
done

# 2. Builds 7 and 8 of a job whose URL is longer than 200 characters: two entries, each
# pulled (the cache name kept the first 200 characters: 8 was never asked for, and the
# report compared #7 with #7).
long=job/$(printf 'x%.0s' $(seq 240))
serve long "$SEED/failover"
expect_code 0 timeout 120 "$PERFDELTA" compare "$URL/$long/7/" "$URL/$long/8/" \
  --jenkins-api xml --perfdb "$URL" --retries 0 -o "$TMP/long" --quiet
for n in 7 8; do count "$TMP/long.log" "^GET /$long/$n/api/xml 200 " 1; done
n=$(find "$TMP/cache/builds" -mindepth 1 -maxdepth 1 -name "127.0.0.1_${PORT}_*" | wc -l)
if [ "$n" = 2 ]; then ok; else fail "the cache holds $n entries of the two builds: $(ls "$TMP/cache/builds")"; fi
# every name within NAME_MAX, its lock too
if [ -z "$(find "$TMP/cache" -regextype egrep -regex '.*/[^/]{256,}')" ]; then ok; else fail "a name over 255 bytes"; fi
# the lock holds its URL: an entry of another URL of the same name (two URLs, one hash)
# is refused, not reused as this one
lock=$(grep -l -- "$long/7" "$TMP/cache/locks/"*)
printf '127.0.0.1/another/url' >"$lock"
expect_code 3 "$PERFDELTA" compare "$URL/$long/7/" "$URL/$long/8/" --jenkins-api xml \
  --perfdb "$URL" -o "$TMP/long2" --quiet
has "$TMP/err" "^perfdelta: $TMP/cache/builds/127\.0\.0\.1_[0-9]+_job_x+~[0-9a-f]{16}: the cache entry is another URL's"
quit

# 3. A pull that fails says why, before the line saying it failed (perfdelta-pull's
# stderr was closed: "perfdelta-pull said why above" with nothing above).
serve down "$SEED/failover" --always-fail
for q in "" --quiet; do
  expect_code 3 timeout 60 "$PERFDELTA" compare "$URL/job/j/1/" "$SEED/baseline" --retries 0 \
    -o "$TMP/down" $q
  # the build's page and its console are asked for at once: the first to fail is said
  has "$TMP/err" "^perfdelta: $URL/job/j/1/(api/json|consoleText): HTTP 503"
  has "$TMP/err" "^perfdelta: $TMP/cache/builds/127\.0\.0\.1_${PORT}_job_j_1~[0-9a-f]{16}: pulling $URL/job/j/1/ failed: perfdelta-pull exited 3 \(its reason above\)$"
done
# a URL of 70 000 characters: its lock holds it, and the second compare reads it back
# (a 64 KiB limit refused the lock itself)
huge="$URL/job/$(head -c 70000 /dev/zero | tr '\0' x)/7/"
for i in 1 2; do
  expect_code 3 timeout 60 "$PERFDELTA" compare "$huge" "$SEED/baseline" --retries 0 -o "$TMP/down"
  has "$TMP/err" "^perfdelta: .*/builds/127\.0\.0\.1_${PORT}_job_x+~[0-9a-f]{16}: pulling http://127\.0\.0\.1:$PORT/job/xxxx"
  hasnt "$TMP/err" "larger than the limit"
  # each line longer than an error holds loses the URL's middle, not its end nor what the
  # line says of it (the end was cut: "...xxxx[...]")
  has "$TMP/err" "^perfdelta: http://127\.0\.0\.1:$PORT/job/x+\[\.\.\.\]x+/7/(api/json|consoleText): [^[]+$"
  has "$TMP/err" "^perfdelta: .*: pulling http://127\.0\.0\.1:$PORT/job/x+\[\.\.\.\]x+/7/ failed: perfdelta-pull exited 3 \(its reason above\)$"
done
# a password in the URL is in no message, no cache name and no lock
expect_code 3 timeout 60 "$PERFDELTA" compare "http://me:S3cr3tPw@127.0.0.1:$PORT/job/j/2/" \
  "$SEED/baseline" --retries 0 -o "$TMP/down"
has "$TMP/err" "^perfdelta: .*: pulling http://127\.0\.0\.1:$PORT/job/j/2/ failed"
if grep -rqF S3cr3tPw "$TMP/out" "$TMP/err" "$TMP/cache"; then fail "the password was shown or written"; else ok; fi
if find "$TMP/cache" | grep -q S3cr3t; then fail "the password in a cache name"; else ok; fi
quit

# 4. compare's limits bound its pull as they bound pull's own: more databases of the
# snapshot than --max-series is refused before any is asked for (the pull was given none
# of compare's limits, and asked for all 50)
python3 -c 'import json; print(json.dumps(["atopiris_710-1345_failover_8a92x%d" % i for i in range(50)]))' >"$TMP/dbs.json"
serve dbs "$SEED/failover" --serve / "$TMP/dbs.json"
expect_code 3 timeout 60 "$PERFDELTA" compare "$URL/job/j/5/" "$SEED/baseline" --jenkins-api xml \
  --perfdb "$URL" --max-series 20 --retries 0 -o "$TMP/dbs"
has "$TMP/err" "^perfdelta: $URL/: 50 databases of the snapshot, more than 20 series \(--max-series\)$"
count "$TMP/dbs.log" "^GET /atop" 0
quit

# 5. A lock that is never let go (a stopped or hung compare, or any process holding it):
# the second compare waits at most --timeout, then names the lock and its holder, exit 3
# (it waited forever).
serve held "$SEED/failover" --always-fail
expect_code 3 timeout 60 "$PERFDELTA" compare "$URL/job/j/3/" "$SEED/baseline" --retries 0 -o "$TMP/held"
lock=$(grep -l -- "job/j/3" "$TMP/cache/locks/"*)
flock -F "$lock" sh -c ': >"$1"; exec sleep 120' sh "$TMP/holding" &
holder=$!
pids="$pids $holder"
wait_for 10 test -e "$TMP/holding" || fail "the holder did not start"
start=$(now_ns)
expect_code 3 timeout 60 "$PERFDELTA" compare "$URL/job/j/3/" "$SEED/baseline" --retries 0 \
  --timeout 2 -o "$TMP/held"
took=$(( ($(now_ns) - start) / 1000000 ))
if [ "$took" -ge 2000 ] && [ "$took" -lt 20000 ]; then ok; else fail "gave up after $took ms, want 2 s"; fi
has "$TMP/err" "^perfdelta: waiting for another perfdelta pulling .*/builds/127\.0\.0\.1_${PORT}_job_j_3~[0-9a-f]{16} \(pid $holder, sleep\)$"
has "$TMP/err" "^perfdelta: $TMP/cache/locks/builds_127\.0\.0\.1_${PORT}_job_j_3~[0-9a-f]{16}\.lock: held by another process \(pid $holder, sleep\) for 2 s \(--timeout\): gave up waiting for its pull of .*; end that process or try again$"
kill "$holder"; wait "$holder" 2>/dev/null
# once the holder has ended, the lock is taken at once
expect_code 3 timeout 60 "$PERFDELTA" compare "$URL/job/j/3/" "$SEED/baseline" --retries 0 \
  --timeout 2 -o "$TMP/held"
hasnt "$TMP/err" "waiting for another"
has "$TMP/err" "pulling $URL/job/j/3/ failed: perfdelta-pull exited 3"
quit
finish
