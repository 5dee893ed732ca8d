# compare given a cbmonitor comparison URL (/reports/html/?snapshot=A&snapshot=B): each
# snapshot pulled from perfdb into the cache (docs/reference.md, "Comparing from URLs"),
# then compared as the bundles would be; a URL without snapshots is a usage error.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"
mkdir -p "$TMP/root/perfdb"
cp -r "$B/perfdb/." "$F/perfdb/." "$TMP/root/perfdb/"
serve cb "$TMP/root"
export PERFDELTA_CACHE=$TMP/cache
CURL="$URL/reports/html/?snapshot=iris_710-1345_access_a7b6&snapshot=iris_710-1345_failover_8a92"
"$PERFDELTA" compare "$CURL" --perfdb "$URL" -o "$TMP/out-url" --quiet >"$TMP/url.txt" 2>&1
code=$?
# each entry named by its snapshot and a hash of it and its perfdb
SA=$(echo "$TMP/cache/snapshots/iris_710-1345_access_a7b6~"*)
SF=$(echo "$TMP/cache/snapshots/iris_710-1345_failover_8a92~"*)
if [ -d "$SA/perfdb" ] && [ -d "$SF/perfdb" ]; then ok; else fail "cache: $(ls -R "$TMP/cache" | head -5)"; fi
# the same as comparing the pulled bundles by path
"$PERFDELTA" compare "$SA" "$SF" -o "$TMP/out-dir" --quiet >/dev/null 2>&1
if [ $? = $code ] && [ -s "$TMP/out-url/summary.json" ]; then ok; else fail "exit $code from the URL"; fi
a=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verdict"], len(d["findings"]))' "$TMP/out-url/summary.json")
b=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verdict"], len(d["findings"]))' "$TMP/out-dir/summary.json")
if [ "$a" = "$b" ]; then ok; else fail "from the URL: $a; from the bundles: $b"; fi
expect_code 2 "$PERFDELTA" compare "$URL/reports/html/?x=1" -o "$TMP/none"
has "$TMP/err" 'a cbmonitor URL without snapshot='
# one snapshot name from another perfdb is another run: pulled into an entry of its own
# (the name alone made the second reuse the first's series)
U1=$URL P1=$SERVER_PID
serve cb2 "$TMP/root"
"$PERFDELTA" compare "$CURL" --perfdb "$URL" -o "$TMP/out-url2" --quiet >"$TMP/url2.txt" 2>&1
n=$(find "$TMP/cache/snapshots" -mindepth 1 -maxdepth 1 -name 'iris_710-1345_access_a7b6~*' | wc -l)
if [ "$n" = 2 ]; then ok; else fail "the second perfdb's snapshot: $n entries"; fi
count "$TMP/cb2.log" "^GET / " 2
quit
URL=$U1 SERVER_PID=$P1
quit

# The comparison URL with --jenkins naming each snapshot's build: two loopback Jenkins
# (each serves one build) over the same perfdb; each snapshot is pulled with its build's
# outputs, and the comparison is the one of the seed's bundles.
pr=$TMP/perfrunner
mkdir -p "$pr/clusters" "$pr/tests/n1ql/collections"
cp "$F"/perfrunner/*.spec "$pr/clusters/"
cp "$B"/perfrunner/*.test "$F"/perfrunner/*.test "$pr/tests/n1ql/collections/"
for r in b f; do
  mkdir -p "$TMP/j$r"
  cp -r "$TMP/root/perfdb" "$TMP/j$r/perfdb"
done
cp -r "$F/jenkins" "$TMP/jf/jenkins"
# both builds answer api/xml (--jenkins-api applies to every pull): the baseline's
# build.json as Jenkins' XML API writes it (a list "actions" as repeated <action>)
mkdir -p "$TMP/jb/jenkins"
cp "$B/jenkins/consoleText" "$TMP/jb/jenkins/"
python3 - "$B/jenkins/build.json" >"$TMP/jb/jenkins/build.xml" <<'PY'
import json, sys
from xml.sax.saxutils import escape
def el(name, v):
    if isinstance(v, list):
        return "".join(el(name[:-1] if name.endswith("s") else name, x) for x in v)
    if isinstance(v, dict):
        attr = " _class='%s'" % escape(v["_class"]) if "_class" in v else ""
        inner = "".join(el(k, x) for k, x in v.items() if k != "_class")
        return "<%s%s>%s</%s>" % (name, attr, inner, name)
    if v is None:
        return ""
    return "<%s>%s</%s>" % (name, escape(str(v).lower() if isinstance(v, bool) else str(v)), name)
print(el("freeStyleBuild", json.load(open(sys.argv[1]))))
PY
serve jb "$TMP/jb"
UB=$URL PB=$SERVER_PID
serve jf "$TMP/jf"
UF=$URL PF=$SERVER_PID
export PERFDELTA_CACHE=$TMP/cache2
expect_code 2 "$PERFDELTA" compare "$UB/reports/html/?snapshot=iris_710-1345_access_a7b6&snapshot=iris_710-1345_failover_8a92" \
  --jenkins "$UB/$JOB/" -o "$TMP/nb"
has "$TMP/err" '1 build\(s\)'
"$PERFDELTA" compare "$UB/reports/html/?snapshot=iris_710-1345_access_a7b6&snapshot=iris_710-1345_failover_8a92" \
  --perfdb "$UB" --perfrunner-dir "$pr" --jenkins "$UB/$JOB/" --jenkins "$UF/$JOB/" --jenkins-api xml \
  -o "$TMP/out-jk" --quiet >"$TMP/jk.txt" 2>&1
code=$?
"$PERFDELTA" compare "$B" "$F" -o "$TMP/out-seed" --quiet >/dev/null 2>&1
if [ $? = $code ]; then ok; else fail "exit $code with --jenkins: $(head -3 "$TMP/jk.txt")"; fi
eb=$(ls -d "$TMP/cache2/builds/"*_snapshot_iris_710-1345_access_a7b6~* 2>/dev/null)
ef=$(ls -d "$TMP/cache2/builds/"*_snapshot_iris_710-1345_failover_8a92~* 2>/dev/null)
if [ -n "$eb" ] && cmp -s "$eb/jenkins/consoleText" "$B/jenkins/consoleText" &&
  [ -n "$ef" ] && cmp -s "$ef/jenkins/consoleText" "$F/jenkins/consoleText"; then ok; else fail "cache2: $(ls "$TMP/cache2/builds")"; fi
a=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verdict"], len(d["findings"]), d["target"]["snapshot"])' "$TMP/out-jk/summary.json")
b=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verdict"], len(d["findings"]), d["target"]["snapshot"])' "$TMP/out-seed/summary.json")
if [ "$a" = "$b" ]; then ok; else fail "with --jenkins: $a; from the bundles: $b"; fi

# Two compares of one build URL at once share its cache entry: the first pulls it (its
# console held 3 s by the server), the second waits on the entry's lock and reuses it;
# each process is waited on with a deadline.
serve jp "$TMP/jf" --slow-once "/$JOB/consoleText" --slow-ms 3000
UP=$URL PP=$SERVER_PID
export PERFDELTA_CACHE=$TMP/cache3
for i in 1 2; do
  "$PERFDELTA" compare "$B" "$UP/$JOB/" --perfdb "$UP" --perfrunner-dir "$pr" --jenkins-api xml \
    -o "$TMP/par$i" >"$TMP/par$i.txt" 2>&1 &
  eval "P$i=\$!"
  # the second starts once the first holds the entry's lock
  if [ $i = 1 ]; then
    for _ in $(seq 200); do ls "$TMP/cache3/locks/"*.lock >/dev/null 2>&1 && break; sleep 0.05; done
  fi
done
for p in "$P1" "$P2"; do
  for _ in $(seq 1200); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$p" 2>/dev/null; then kill "$p"; fail "compare $p still running after 120 s"; fi
done
wait "$P1"; c1=$?
wait "$P2"; c2=$?
if [ "$c1" = "$code" ] && [ "$c2" = "$code" ]; then ok; else fail "exits $c1 and $c2, want $code: $(grep perfdelta: "$TMP/par1.txt" "$TMP/par2.txt" | head -4)"; fi
n=$(find "$TMP/cache3/builds" -mindepth 1 -maxdepth 1 -type d | wc -l)
if [ "$n" = 1 ]; then ok; else fail "cache3 holds $n entries: $(ls -A "$TMP/cache3/builds")"; fi
count "$TMP/jp.log" "^GET /$JOB/consoleText " 1
cat "$TMP/par1.txt" "$TMP/par2.txt" >"$TMP/par.txt"
has "$TMP/par.txt" '^perfdelta: waiting for another perfdelta pulling .*/cache3/builds/'
has "$TMP/par.txt" '^perfdelta: reusing .*/cache3/builds/'
for s in "$UB $PB" "$UF $PF" "$UP $PP"; do
  URL=${s% *} SERVER_PID=${s#* }
  quit
done
finish
