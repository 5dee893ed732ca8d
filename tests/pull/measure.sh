#!/usr/bin/env bash
# The time of `perfdelta pull` against the same requests made by curl in parallel
# (xargs -P 8, one curl per request as the README's recipe does, and one curl per 32
# requests, which reuses connections), from the fake server on 127.0.0.1 serving a
# bundle. Prints the median of interleaved runs and the ratios; not a test.
# usage: tests/pull/measure.sh BUILD_DIR [RUNS] [BUNDLE]   (default 15, the seed failover)
set -euo pipefail
BUILD=$(cd "$1" && pwd) RUNS=${2:-15} BUNDLE=${3:-$BUILD/fixtures/seed/failover}
SERVER=$BUILD/pd_fake_server PERFDELTA=$BUILD/perfdelta MEASURE=$BUILD/pd_bench_measure
TMP=$(mktemp -d /tmp/perfdelta-measure-XXXXXX)
"$SERVER" --root "$BUNDLE" --port-file "$TMP/port" --lifetime 600 &
spid=$!
trap 'kill $spid 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.05; done
URL=http://127.0.0.1:$(cat "$TMP/port")
api=json
[ -f "$BUNDLE/jenkins/build.json" ] || api=xml

# the requests pull makes, as "-o DEST URL" triples for curl
{
  echo "-o jenkins/build.$api $URL/job/j/1/api/$api"
  echo "-o jenkins/consoleText $URL/job/j/1/consoleText"
  echo "-o dbs.json $URL/"
  for d in "$BUNDLE"/perfdb/*/; do
    db=$(basename "$d")
    echo "-o lists/$db.json $URL/$db"
    for f in "$d"*.json; do
      [ -e "$f" ] && echo "-o perfdb/$db/$(basename "$f") $URL/$db/$(basename "$f" .json)"
    done
  done
} >"$TMP/requests"
n=$(wc -l <"$TMP/requests")

run_pull() { rm -rf "$TMP/pulled"; "$MEASURE" "$PERFDELTA" pull --jenkins "$URL/job/j/1" \
  --jenkins-api "$api" --perfdb "$URL" -o "$TMP/pulled" --quiet; }
run_curl() { # run_curl REQUESTS_PER_CURL
  rm -rf "$TMP/curled"; mkdir "$TMP/curled"
  (cd "$TMP/curled" && "$MEASURE" sh -c "xargs -P 8 -n $((3 * $1)) curl -fsS --create-dirs \
    <'$TMP/requests'")
}
wall() { sed -n 's/^wall_s=\([0-9.]*\) .* status=0$/\1/p'; }
: >"$TMP/pull.t"; : >"$TMP/curl1.t"; : >"$TMP/curl32.t"
for _ in $(seq "$RUNS"); do
  run_pull | wall >>"$TMP/pull.t"
  run_curl 1 | wall >>"$TMP/curl1.t"
  run_curl 32 | wall >>"$TMP/curl32.t"
done
diff -r "$TMP/pulled/perfdb" "$TMP/curled/perfdb" >/dev/null || { echo "pull and curl differ" >&2; exit 1; }
median() { sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
p=$(median "$TMP/pull.t") c1=$(median "$TMP/curl1.t") c32=$(median "$TMP/curl32.t")
for f in pull curl1 curl32; do
  [ "$(wc -l <"$TMP/$f.t")" = "$RUNS" ] || { echo "$f: a run failed" >&2; exit 1; }
done
echo "requests $n, $(du -sk "$BUNDLE" | cut -f1) KiB; median of $RUNS runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "perfdelta pull                  ${p} s"
echo "xargs -P 8 curl (1 per curl)    ${c1} s   pull/curl = $(awk -v a="$p" -v b="$c1" 'BEGIN {printf "%.2f", a / b}')"
echo "xargs -P 8 curl (32 per curl)   ${c32} s   pull/curl = $(awk -v a="$p" -v b="$c32" 'BEGIN {printf "%.2f", a / b}')"
