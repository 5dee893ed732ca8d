# The pathological set (fixtures/pathological/README.md): each case is the skeleton bundle
# with one file replaced. Malformed input exits 3 with exactly one stderr line naming the
# file and the place, and nothing on stdout; odd but valid input exits 0 and says the
# oddity in the output. Every expected message and count is worked out in the README.
. "$(dirname "$0")/lib.sh"

P=$SRC/fixtures/pathological
S1=perfdb/atoptiny_100-1_access_0a1b10001/memcached_cpu.json

# bundle NAME [FILE DEST]...: B=$TMP/NAME, a copy of the skeleton with each FILE put at DEST
bundle() {
  B=$TMP/$1
  shift
  rm -rf "$B"
  cp -r "$P/skeleton" "$B"
  while [ $# -ge 2 ]; do
    cp "$1" "$B/$2"
    shift 2
  done
}

# malformed MESSAGE [FLAGS...]: inspect $B exits 3, stdout is empty and stderr is exactly
# the line "perfdelta: MESSAGE"
malformed() {
  local want="perfdelta: $1"
  shift
  expect_code 3 "$PERFDELTA" inspect "$B" "$@"
  lines "$TMP/out" 0
  if [ "$(cat "$TMP/err")" = "$want" ]; then ok; else
    fail "$(basename "$B"): stderr is not the one line wanted"
    echo "  want: $want" >&2
    sed 's/^/  got:  /' "$TMP/err" | head -3 | cut -c1-300 >&2
  fi
}

# valid [FLAGS...]: inspect $B exits 0 (stdout in $TMP/out for has/hasnt)
valid() { expect_code 0 "$PERFDELTA" inspect "$B" "$@"; }

# brackets N: N '[' and no newline
brackets() { head -c "$1" /dev/zero | tr '\0' '['; }

# ---- malformed series ------------------------------------------------------------------
bundle empty-series "$P/empty.json" "$S1"
malformed "$B/$S1:1:1: expected '[' to open the sample array, found the end of the input"

bundle truncated "$P/truncated.json" "$S1"
malformed "$B/$S1:1:38: expected a number (the value), found the end of the input"

bundle value-string "$P/value-string.json" "$S1"
malformed "$B/$S1:1:17: expected a number (the value), found '\"'"

bundle timestamp-string "$P/timestamp-string.json" "$S1"
malformed "$B/$S1:1:3: expected a number (the timestamp), found '\"'"

bundle timestamp-null "$P/timestamp-null.json" "$S1"
malformed "$B/$S1:1:3: expected a number (the timestamp), found 'n'"

bundle value-true "$P/value-true.json" "$S1"
malformed "$B/$S1:1:17: expected a number (the value), found 't'"

bundle value-nan "$P/value-nan.json" "$S1"
malformed "$B/$S1:1:17: expected a number (the value), found 'N'"

bundle value-infinity "$P/value-infinity.json" "$S1"
malformed "$B/$S1:1:17: expected a number (the value), found 'I'"

bundle value-1e999 "$P/value-1e999.json" "$S1"
malformed "$B/$S1:1:17: number out of range: expected a finite double"

bundle timestamp-30-digits "$P/timestamp-30-digits.json" "$S1"
malformed "$B/$S1:1:3: timestamp out of range: expected an integer within int64"

bundle deep-series
brackets 100000 >"$B/$S1"
malformed "$B/$S1:1:3: expected a number (the timestamp), found '['"

bundle deep-seriesly
{ printf '{"1762107600000":'; brackets 100000; } >"$B/$S1"
malformed "$B/$S1:1:19: expected a number: seriesly's {\"<ts ms>\": [value]} nests 2 levels deep, found '['"

# ---- malformed Jenkins, console and configs ---------------------------------------------
bundle build-empty "$P/build-empty.json" jenkins/build.json
malformed "$B/jenkins/build.json:1:1: empty file: expected a JSON object"

bundle build-number-string "$P/build-number-string.json" jenkins/build.json
malformed "$B/jenkins/build.json:1:12: expected a whole number of 0 or more for 'number'"

bundle deep-build
brackets 100000 >"$B/jenkins/build.json"
malformed "$B/jenkins/build.json:1:65: JSON nested deeper than 64 levels"

doctype="a Jenkins build has none, and this reader declares no entity and reads no DTD"
bundle entity-bomb "$SRC/fixtures/jenkins/billion-laughs.xml" jenkins/build.xml
rm "$B/jenkins/build.json"
malformed "$B/jenkins/build.xml:2: unexpected DOCTYPE 'lolz': $doctype"

bundle external-entity "$SRC/fixtures/jenkins/xxe.xml" jenkins/build.xml
rm "$B/jenkins/build.json"
malformed "$B/jenkins/build.xml:1: unexpected DOCTYPE 'x': $doctype"

bundle spec-empty "$P/spec-empty.spec" perfrunner/tiny.spec
# perfrunner reads a spec without [clusters] as no cluster: accepted, but then no
# server-scope db names a node
malformed "$B/perfdb: no series: expected perfdb/<db>/<metric>.json of a known snapshot"

# a 1.5 MiB line: over the default --max-line of 1 MiB, within 4 MiB
bundle long-line
{ echo 'Started by user perf'; head -c 1572864 /dev/zero | tr '\0' 'x'; echo
  echo 'Finished: SUCCESS'; } >"$B/jenkins/consoleText"
malformed "$B/jenkins/consoleText:2: line 2 is longer than the limit of 1048576 bytes (see --max-line)"
valid --max-line 4194304
has "$TMP/out" '^result +SUCCESS$'

# ---- stated size limits -------------------------------------------------------------------
bundle over-limit
{ cat "$P/one-sample.json"; head -c $((2000 - $(wc -c <"$P/one-sample.json"))) /dev/zero |
  tr '\0' ' '; } >"$B/$S1"
malformed "$B/$S1: file of 2000 bytes is larger than the limit of 1000 bytes (see --max-file-size)" \
  --max-file-size 1000

# a sparse 2 GiB series is refused by its size (fstat), without being read
bundle sparse-2g
if truncate -s 2G "$B/$S1" 2>/dev/null; then
  malformed "$B/$S1: file of 2147483648 bytes is larger than the limit of 1073741824 bytes (see --max-file-size)"
  # CPU time, not wall-clock (a loaded machine cannot fail it); refused by its size it is
  # about 0 ms, reading and holding 2 GiB would be about a second
  t=$({ TIMEFORMAT='%3U %3S'; time "$PERFDELTA" inspect "$B" >/dev/null 2>&1; } 2>&1)
  set -- ${t//./}
  if [ $((10#$1 + 10#$2)) -le 1000 ]; then ok; else fail "sparse 2 GiB file took $t s of CPU (user, system) to refuse"; fi
else
  echo "SKIP: truncate -s 2G is not possible here" >&2
fi
rm -rf "$B"

# ---- odd but valid --------------------------------------------------------------------------
bundle one-sample "$P/one-sample.json" "$S1"
valid
has "$TMP/out" '^  atop/memcached_cpu  server server=10\.0\.0\.1  n=1 2025-11-02T18:20:00\.000Z \+0\.0 s$'

bundle all-equal "$P/all-equal.json" "$S1"
valid
has "$TMP/out" '^  atop/memcached_cpu  server server=10\.0\.0\.1  n=13 2025-11-02T18:20:00\.000Z \+60\.0 s constant=7$'
has "$TMP/out" '; 1 constant: every sample the same\)$'

bundle unsorted "$P/unsorted.json" "$S1"
valid
has "$TMP/out" 'server=10\.0\.0\.1  n=13 2025-11-02T18:20:00\.000Z \+60\.0 s duplicates=0 unsorted=2$'

bundle duplicates "$P/duplicates.json" "$S1"
valid
has "$TMP/out" 'server=10\.0\.0\.1  n=11 2025-11-02T18:20:00\.000Z \+50\.0 s duplicates=3 unsorted=0$'

bundle seconds "$P/timestamp-seconds.json" "$S1"
valid
has "$TMP/out" "^  $S1: timestamps in s, read as ms\$"
has "$TMP/out" 'server=10\.0\.0\.1  n=13 2025-11-02T18:20:00\.000Z \+60\.0 s$'

bundle console-empty "$P/console-empty.txt" jenkins/consoleText
valid
has "$TMP/out" '^snapshot +tiny_100-1_access_0a1b$'
has "$TMP/out" '^  snapshot names taken from the perfdb db names \(no console\)$'
has "$TMP/out" '^console events \(0,'

bundle console-garbage "$P/console-garbage.txt" jenkins/consoleText
valid
has "$TMP/out" '^console events \(1,'
has "$TMP/out" '^  2025-11-02T18:21:10  line 6      snapshot tiny_100-1_access_0a1b$'
has "$TMP/out" '^result +SUCCESS$'

bundle spec-host-without-series "$P/spec-host-without-series.spec" perfrunner/tiny.spec
sed -i 's/^initial_nodes = 2$/initial_nodes = 3/' "$B/perfrunner/tiny.test"
valid
has "$TMP/out" '^nodes \(3\)$'
has "$TMP/out" '^  index#1   10\.0\.0\.3 +index$'
has "$TMP/out" '^series \(2, 26 samples'
has "$TMP/out" '^  10\.0\.0\.3 \(index#1\) is in the spec but has no series$'

# a series of a host that is in no spec: listed as undecoded, the rest is read
bundle host-without-spec
cp -r "$B/perfdb/atoptiny_100-1_access_0a1b10001" "$B/perfdb/atoptiny_100-1_access_0a1b10009"
valid
has "$TMP/out" '^undecoded perfdb databases \(1\)$'
has "$TMP/out" "^  no node or client of the spec ends db name 'atoptiny_100-1_access_0a1b10009' \(collector 'atop' writes per server; after the snapshot: '10009'\)\$"
has "$TMP/out" '^series \(2, 26 samples'

# two snapshot names, one the other plus "1": a bucket db name that reads both ways
bundle two-ways "$P/console-two-snapshots.txt" jenkins/consoleText
mkdir "$B/perfdb/ns_servertiny_100-1_access_0a1b1bucket"
cp "$P/one-sample.json" "$B/perfdb/ns_servertiny_100-1_access_0a1b1bucket/ops.json"
valid
has "$TMP/out" '^undecoded perfdb databases \(1\)$'
has "$TMP/out" "^  db name 'ns_servertiny_100-1_access_0a1b1bucket' decodes two ways: snapshot tiny_100-1_access_0a1b \+ bucket '1bucket'; snapshot tiny_100-1_access_0a1b1 \+ bucket 'bucket'\$"
has "$TMP/out" '^series \(2, 26 samples'

finish
