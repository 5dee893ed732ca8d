# perfdelta pull against a fake perfdb and Jenkins on 127.0.0.1 (tests/pull/fake_server.c)
# that serves the seed bundles: the pulled bundle is the original, a 503 and a timeout are
# retried, failures name the URL and leave nothing, credentials go nowhere but Jenkins.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"
USER_SECRET=pd-user-Zq81 TOKEN_SECRET=pd-token-Xk52wq

# A perfrunner checkout holding the configs the build's parameters name.
pr=$TMP/perfrunner
mkdir -p "$pr/clusters" "$pr/tests/n1ql/collections"
cp "$F"/perfrunner/*.spec "$pr/clusters/"
cp "$F"/perfrunner/*.test "$pr/tests/n1ql/collections/"

# 1. The failover run (api/xml), with a 503 on a series and a metric list that answers
# after the client's timeout, both on their first try only.
S503=/n1ql_statsiris_710-1345_failover_8a92/query_requests
SLOW=/atopiris_710-1345_failover_8a921722310040
serve fo "$F" --fail-once "$S503" --slow-once "$SLOW" --slow-ms 6000
PERFDELTA_JENKINS_USER=$USER_SECRET PERFDELTA_JENKINS_TOKEN=$TOKEN_SECRET \
  expect_code 0 "$PERFDELTA" pull --jenkins "$URL/$JOB/" --jenkins-api xml --perfdb "$URL" \
  --perfrunner-dir "$pr" --timeout 2 -o "$TMP/run"
cp "$TMP/err" "$TMP/fo.err"
for part in perfdb jenkins perfrunner; do
  if diff -r "$F/$part" "$TMP/run/$part" >"$TMP/diff"; then ok; else fail "pulled $part differs: $(head -3 "$TMP/diff")"; fi
done
if [ "$(ls -A "$TMP/run")" = "$(printf 'jenkins\nperfdb\nperfrunner')" ]; then ok; else fail "extra files in the bundle: $(ls -A "$TMP/run")"; fi
# inspect reads the same run from both, but for where it is
"$PERFDELTA" inspect "$F" | sed "s#$F#RUN#g" >"$TMP/inspect.orig"
"$PERFDELTA" inspect "$TMP/run" | sed "s#$TMP/run#RUN#g" >"$TMP/inspect.pulled"
if [ -s "$TMP/inspect.orig" ] && cmp -s "$TMP/inspect.orig" "$TMP/inspect.pulled"; then ok; else fail "inspect differs: $(diff "$TMP/inspect.orig" "$TMP/inspect.pulled" | head -3)"; fi
# the server saw the 503 and the held answer, then a second try of each that succeeded
count "$TMP/fo.log" "^GET $S503 503 " 1
count "$TMP/fo.log" "^GET $S503 200 " 1
count "$TMP/fo.log" "^GET $SLOW 200 .* slow$" 1
count "$TMP/fo.log" "^GET $SLOW 200 noauth$" 1
has "$TMP/fo.err" "^perfdelta: $URL$S503: HTTP 503, try 2 of 4 in 0\.5 s$"
has "$TMP/fo.err" "^perfdelta: $URL$SLOW: .*timed out.*, try 2 of 4 in 0\.5 s$"
# each request once but the two retried: 2 Jenkins, 1 db list, a metric list per db
# and a series per file (46 and 199 in the seed; find counts them)
n=$((2 + 1 + $(find "$F/perfdb" -mindepth 1 -maxdepth 1 -type d | wc -l) + $(find "$F/perfdb" -name '*.json' | wc -l)))
has "$TMP/out" "^pulled $TMP/run: $n requests, [0-9.]+ MiB, 2 retried$"
lines "$TMP/fo.log" $((n + 2))
# credentials: sent to Jenkins only, written and printed nowhere
count "$TMP/fo.log" ' auth$' 2
count "$TMP/fo.log" "^GET /$JOB/api/xml 200 auth$" 1
for s in "$USER_SECRET" "$TOKEN_SECRET"; do
  if grep -rqF -- "$s" "$TMP/run" "$TMP/fo.err" "$TMP/out"; then fail "credential $s leaked"; else ok; fi
done
quit

# 1b. A checkout named by a short relative path ("." from inside it, "pr" beside it): the
# configs land under perfrunner/ by their own names (the name was formatted into the
# buffer it was read from: "perfrunner/er/er/er").
# The test config directly under tests/: "./tests/" is shorter than "perfrunner/".
T=n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i.test
mkdir -p "$TMP/pr/clusters" "$TMP/pr/tests"
cp "$F"/perfrunner/*.spec "$TMP/pr/clusters/"
cp "$F/perfrunner/$T" "$TMP/pr/tests/"
sed "s#n1ql/collections/$T#$T#" "$F/jenkins/build.xml" >"$TMP/short.xml"
serve short "$F" --serve "/$JOB/api/xml" "$TMP/short.xml"
for dir in . pr; do
  case $dir in .) at=$TMP/pr ;; *) at=$TMP ;; esac
  rm -rf "$TMP/short"
  cd "$at" || exit 1
  expect_code 0 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" \
    --perfrunner-dir "$dir" -o "$TMP/short" --quiet
  cd - >/dev/null || exit 1
  if diff -r "$F/perfrunner" "$TMP/short/perfrunner" >"$TMP/diff"; then ok; else fail "--perfrunner-dir $dir: $(head -3 "$TMP/diff")"; fi
done
quit

# 2. The baseline run (api/json), snapshot given, from a .netrc: every request carries it.
# (Its perfdb/ holds perfdb data files too: the server does not serve them.)
mkdir -p "$TMP/home"
serve base "$B"
printf 'machine 127.0.0.1\nlogin netrc-user\npassword %s\n' "$TOKEN_SECRET" >"$TMP/home/.netrc"
chmod 600 "$TMP/home/.netrc"
HOME=$TMP/home expect_code 0 "$PERFDELTA" pull --jenkins "$URL/$JOB" --perfdb "$URL/" \
  --snapshot iris_710-1345_access_a7b6 --netrc --parallel 3 -o "$TMP/base" --quiet
for part in perfdb jenkins; do
  if diff -r -x '*.data*' "$B/$part" "$TMP/base/$part" >"$TMP/diff"; then ok; else fail "pulled baseline $part differs: $(head -3 "$TMP/diff")"; fi
done
[ -e "$TMP/base/perfrunner" ] && fail "perfrunner/ without --perfrunner-dir" || ok
if [ -s "$TMP/out" ] || [ -s "$TMP/err" ]; then fail "--quiet printed: $(cat "$TMP/out" "$TMP/err")"; else ok; fi
hasnt "$TMP/base.log" ' noauth$'
if grep -rqF -- "$TOKEN_SECRET" "$TMP/base"; then fail "netrc password in the bundle"; else ok; fi
# an output that exists is left alone
expect_code 2 "$PERFDELTA" pull --jenkins "$URL/$JOB" --perfdb "$URL" -o "$TMP/base"
has "$TMP/err" "^perfdelta: $TMP/base: exists"

# 3. Names from the server that would leave the bundle or hide in it are refused.
bad() { # bad PATH BODY REGEX: the server answers PATH with BODY; the pull fails on it
  printf '%s' "$2" >"$TMP/body"
  serve bad "$F" --serve "$1" "$TMP/body"
  expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" \
    -o "$TMP/bad" --retries 0
  has "$TMP/err" "$3"
  lines "$TMP/err" 1
  left_nothing "$TMP/bad"
  quit
}
DB=ns_serveriris_710-1345_failover_8a92bucket-1
# every count from the server bounded before it is used: more databases of the
# snapshot than --max-series is refused before any metric list is asked for
python3 -c 'import json; print(json.dumps(["atopiris_710-1345_failover_8a92x%d" % i for i in range(50)]))' >"$TMP/dbs.json"
serve dbs "$F" --serve / "$TMP/dbs.json"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" \
  --max-series 20 --retries 0 -o "$TMP/dbs"
has "$TMP/err" "^perfdelta: http://127\.0\.0\.1:[0-9]+/: 50 databases of the snapshot, more than 20 series \(--max-series\)$"
lines "$TMP/err" 1
count "$TMP/dbs.log" "^GET /atop" 0
left_nothing "$TMP/dbs"
quit
# a server's name in a line of pull's is escaped as in an error line: a bidi override
# (U+202E, "Trojan Source") in a database name that the spec's nodes do not decode
printf '["atopiris_710-1345_failover_8a92\xe2\x80\xaex"]' >"$TMP/bidi.json"
serve bidi "$F" --serve / "$TMP/bidi.json"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" \
  --perfrunner-dir "$pr" --retries 0 -o "$TMP/bidi"
has "$TMP/err" '^perfdelta: 1 of 1 databases kept for their snapshot name do not decode with the spec.s nodes \(first: atopiris_710-1345_failover_8a92\\xe2\\x80\\xaex\)$'
hasnt "$TMP/err" "$(printf '\xe2\x80\xae')"
quit
bad / '["iris_710-1345_failover_8a92/../../x"]' "^perfdelta: http://127\.0\.0\.1:[0-9]+/: refusing database name 'iris_710-1345_failover_8a92/\.\./\.\./x': it holds '/'"
bad / '["..iris_710-1345_failover_8a92"]' "refusing database name '\.\.iris_710-1345_failover_8a92': it starts with '\.'"
bad / '{"dbs": []}' '/: expected a JSON array of names$'
bad / '["'"$DB"'", 7]' 'expected a JSON array of names, found a non-string$'
bad / '["other_snapshot_0000"]' "/: no database of snapshot 'iris_710-1345_failover_8a92' among the 1 listed$"
bad "/$DB" '["cpu", "a\u0000/../../etc/passwd"]' "/$DB:1:[0-9]+: refusing a string with a NUL character"
bad "/$DB" '["cpu\u0007"]' "refusing metric name 'cpu\\\\x07': it holds a control character"
bad "/$DB" '[".hidden"]' "refusing metric name '\.hidden': it starts with '\.'"
bad "/$DB" '["a..b"]' "refusing metric name 'a\.\.b': it holds '\.\.'"
bad "/$DB" '[""]' "refusing metric name '': it is empty"
# a body that is not what was asked for, even with 200: an HTML page, a gzip body, a
# series of another shape; each names the URL, and nothing is left
badf() { # badf PATH FILE REGEX: the server answers PATH with FILE (.html: text/html, .gz: gzip)
  serve bad "$F" --serve "$1" "$2"
  expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" \
    -o "$TMP/bad" --retries 0
  has "$TMP/err" "^perfdelta: $URL$3"
  lines "$TMP/err" 1
  left_nothing "$TMP/bad"
  quit
}
M=$(find "$F/perfdb/$DB" -name '*.json' -printf '%f\n' | LC_ALL=C sort | head -n 1)
M=${M%.json}
printf '<!DOCTYPE html><html><body>Service unavailable</body></html>\n' >"$TMP/page.html"
gzip -c "$F/perfdb/$DB/$M.json" >"$TMP/series.gz"
printf '{"error": "no such metric"}' >"$TMP/object"
printf '[[1, 2], [3, "x"]]' >"$TMP/strings"
badf "/$DB/$M" "$TMP/page.html" "/$DB/$M: an HTML page \(Content-Type text/html; charset=utf-8\), expected a perfdb series \(a JSON array of \[time, value\] pairs\)$"
badf "/$DB/$M" "$TMP/series.gz" "/$DB/$M: a gzip-compressed body \(never asked for\), expected a perfdb series"
badf "/$DB/$M" "$TMP/object" "/$DB/$M:1:1: expected '\[' to open the sample array"
badf "/$DB/$M" "$TMP/strings" "/$DB/$M:1:[0-9]+: expected a number"
badf "/$DB" "$TMP/page.html" "/$DB: an HTML page .*expected perfdb's list"
badf "/$JOB/consoleText" "$TMP/page.html" "/$JOB/consoleText: an HTML page .*expected Jenkins' console text"
long=$(printf 'm%.0s' $(seq 251))
bad "/$DB" "[\"$long\"]" "refusing metric name 'm{64}\.\.\.': it is too long \(max 250 bytes\)"

# 4. Failures name the request and leave nothing.
serve down "$F" --always-fail
expect_code 3 "$PERFDELTA" pull --jenkins "http://$USER_SECRET:$TOKEN_SECRET@127.0.0.1:$PORT/$JOB/" \
  --perfdb "$URL" --retries 1 -o "$TMP/down"
lines "$TMP/err" 4 # the warning that the URL's password is on the command line, then 3
has "$TMP/err" "^perfdelta: warning: $URL/$JOB/ was given with its password"
count "$TMP/err" "^perfdelta: $URL/$JOB/(api/json|consoleText): HTTP 503, try 2 of 2 in 0\.5 s$" 2
has "$TMP/err" "^perfdelta: $URL/$JOB/(api/json|consoleText): HTTP 503 after 2 tries$"
left_nothing "$TMP/down"
if grep -qF -e "$USER_SECRET" -e "$TOKEN_SECRET" "$TMP/err"; then fail "credentials of the URL printed"; else ok; fi

quit
serve big "$F"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" \
  --max-file-size 2000 -o "$TMP/big"
has "$TMP/err" "^perfdelta: $URL/.*: response over the limit of 2000 bytes \(--max-file-size\)$"
left_nothing "$TMP/big"
# every file under its limit, all of them over the bundle's (the seed's perfdb/ holds about
# 1 MB): the servers could fill the disk, 100 000 series of 1 GiB each
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" \
  --max-bundle-size 300000 -o "$TMP/big"
has "$TMP/err" "^perfdelta: $URL/.*: the servers sent more than 300000 bytes in all \(--max-bundle-size\)$"
left_nothing "$TMP/big"
# a 404 is not retried
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/job/nope/1" --perfdb "$URL" -o "$TMP/big"
has "$TMP/err" "^perfdelta: $URL/job/nope/1/(api/json|consoleText): HTTP 404$"
quit
# nobody listening: a connection error, retried, then named
expect_code 3 "$PERFDELTA" pull --snapshot x --perfdb "$URL" --retries 1 -o "$TMP/gone"
has "$TMP/err" "^perfdelta: $URL/: .*(onnect|refused).* after 2 tries$"
left_nothing "$TMP/gone"
# flags
expect_code 2 "$PERFDELTA" pull --snapshot x -o "$TMP/gone"
has "$TMP/err" 'needs --perfdb'
expect_code 2 "$PERFDELTA" pull --jenkins "$URL/$JOB" --parallel 65 -o "$TMP/gone"
has "$TMP/err" '--parallel needs a whole number from 1 to 64'
PERFDELTA_JENKINS_USER=u expect_code 2 "$PERFDELTA" pull --jenkins "$URL/$JOB" -o "$TMP/gone"
has "$TMP/err" 'PERFDELTA_JENKINS_USER and PERFDELTA_JENKINS_TOKEN go together'

# 5. The build's parameters name the configs: a path out of the checkout is refused, a
# missing file is named; without --perfdb, perfdb is the console's report host, port 8080.
printf '{"number": 7, "actions": [{"parameters": [{"name": "cluster", "value": "../../etc/x.spec"}]}]}' >"$TMP/build.json"
serve params "$F" --serve "/$JOB/api/json" "$TMP/build.json"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --perfdb "$URL" --perfrunner-dir "$pr" -o "$TMP/p"
has "$TMP/err" "^perfdelta: the build's parameters: refusing cluster name '\.\.': it starts with '\.'"
left_nothing "$TMP/p"
rm "$pr/clusters/iris_extra_n1ql.spec"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" --perfrunner-dir "$pr" -o "$TMP/p"
has "$TMP/err" "^perfdelta: $pr/clusters/iris_extra_n1ql\.spec"
left_nothing "$TMP/p"
sed "s#http://cbmonitor.sc.couchbase.com/#http://127.0.0.1:$PORT/#" "$F/jenkins/consoleText" >"$TMP/console"
quit
serve console "$F" --serve "/$JOB/consoleText" "$TMP/console"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --retries 0 -o "$TMP/p"
has "$TMP/err" "^perfdelta: http://127\.0\.0\.1:8080/: "
quit

# 6. perfdelta loads no libcurl: pull runs perfdelta-pull from perfdelta's own directory
# (through a symlink too), with the arguments as given; without it, one line and exit 3.
if ldd "$PERFDELTA" | grep -q libcurl; then fail "perfdelta loads libcurl"; else ok; fi
mkdir "$TMP/bin" "$TMP/alone"
ln -s "$PERFDELTA" "$TMP/bin/perfdelta"
expect_code 3 "$TMP/bin/perfdelta" pull --snapshot x --perfdb "$URL" --retries 0 \
  --max-line 4096 -o "$TMP/gone"
has "$TMP/err" "^perfdelta: $URL/: .*(onnect|refused)"
cp "$PERFDELTA" "$TMP/alone/perfdelta"
expect_code 3 "$TMP/alone/perfdelta" pull --snapshot x --perfdb "$URL" -o "$TMP/gone"
has "$TMP/err" "^perfdelta: $TMP/alone/perfdelta-pull: cannot run: No such file or directory \(pull needs perfdelta-pull installed beside perfdelta\)$"
lines "$TMP/err" 1
left_nothing "$TMP/gone"
expect_code 2 "$TMP/alone/perfdelta" pull --snapshot x --parallel 65 -o "$TMP/gone"
has "$TMP/err" '--parallel needs a whole number from 1 to 64'
expect_code 0 "$TMP/alone/perfdelta" pull --help
has "$TMP/out" '^pull options:$'
# a per-request latency below 0 (cbagent's spring_latency) is refused by pull as compare
# refuses it (was saved, and compare refused the pulled bundle)
LF=$TMP/latfo LDB=spring_latencyiris_710-1345_failover_8a92bucket-1
cp -r "$F" "$LF" && cp -r "$SRC/fixtures/perfdb/latency/failover/." "$LF/perfdb/"
printf '[[1793643700000,1.5],[1793643701000,-2.25]]' >"$LF/perfdb/$LDB/latency_get.json"
serve lat "$LF"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/$JOB" --jenkins-api xml --perfdb "$URL" \
  -o "$TMP/lat" --retries 0
has "$TMP/err" "/$LDB/latency_get:1:[0-9]+: negative latency -2.25"
lines "$TMP/err" 1
left_nothing "$TMP/lat"
quit
finish
