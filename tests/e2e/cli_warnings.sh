# What the reader most likely did not mean is said on stderr, atop the report and in
# summary.json: the runs given the wrong way round (the baseline holds the failover, the
# target none), a run compared with itself, a single-file report written in a Jenkins
# build (its CSP blocks the file's inline style and charts); a right comparison says
# nothing of the kind. pull --help describes -o as the bundle it writes.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
expect_code 0 "$PERFDELTA" compare "$F" "$B" -o "$TMP/swapped" --quiet
has "$TMP/err" '^perfdelta: warning: the baseline holds the event \(a hard-failover of 172\.23\.100\.40\) and the target has none: did you mean to swap them\?'
has "$TMP/swapped/summary.json" '"warnings":\["the baseline holds the event[^"]*did you mean to swap them\?'
has "$TMP/swapped/index.html" '<div class="card warn"><b>Warning:</b> the baseline holds the event'
has "$TMP/swapped/summary.md" '^\*\*Warning\*\*: the baseline holds the event'
expect_code 0 "$PERFDELTA" compare "$B" "$B" -o "$TMP/self" --quiet
has "$TMP/err" '^perfdelta: warning: the baseline and the target are the same run'
has "$TMP/self/summary.json" '"warnings":\["the baseline and the target are the same run'
# a copy without its Jenkins build: the same samples
cp -r "$B" "$TMP/copy" && rm -rf "$TMP/copy/jenkins"
cp -r "$B" "$TMP/copy2" && rm -rf "$TMP/copy2/jenkins"
expect_code 0 "$PERFDELTA" compare "$TMP/copy" "$TMP/copy2" -o "$TMP/samples" --quiet
has "$TMP/err" 'the same run \(the same samples\)'
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/right" --quiet
hasnt "$TMP/err" 'warning'
has "$TMP/right/summary.json" '"warnings":\[\]'
hasnt "$TMP/right/index.html" 'card warn'
expect_code 0 "$PERFDELTA" compare "$B" "$SEED/baseline-aa" -o "$TMP/aa" --quiet
has "$TMP/aa/summary.json" '"warnings":\[\]'
# a single file (--single-file, -o FILE.html) in a Jenkins build (BUILD_URL set): said on
# stderr and in every output's warnings; not for a directory, nor outside Jenkins
jw="in a Jenkins build \(BUILD_URL is set\): Jenkins' Content-Security-Policy blocks a single file's inline style and data: charts; publish the report directory there, and attach the single file to a ticket or open it in a browser"
ci=https://ci.example/job/iris/7/
expect_code 1 env BUILD_URL=$ci "$PERFDELTA" compare "$B" "$F" --single-file -o "$TMP/sf" --quiet
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: warning: --single-file $jw\$"
has "$TMP/sf/summary.json" "\"warnings\":\\[\"--single-file $jw\""
has "$TMP/sf/index.html" '<div class="card warn"><b>Warning:</b> --single-file in a Jenkins build'
has "$TMP/sf/summary.md" '^\*\*Warning\*\*: --single-file in a Jenkins build'
expect_code 1 env BUILD_URL=$ci "$PERFDELTA" compare "$B" "$F" -o "$TMP/sf.html" --quiet
has "$TMP/err" "^perfdelta: warning: -o FILE.html $jw\$"
has "$TMP/sf.html" '<b>Warning:</b> -o FILE.html in a Jenkins build'
expect_code 1 env BUILD_URL=$ci "$PERFDELTA" compare "$B" "$F" -o "$TMP/dir" --quiet
hasnt "$TMP/err" 'warning'
expect_code 1 env -u BUILD_URL "$PERFDELTA" compare "$B" "$F" --single-file -o "$TMP/sf2" --quiet
hasnt "$TMP/err" 'warning'
expect_code 1 env BUILD_URL= "$PERFDELTA" compare "$B" "$F" -o "$TMP/sf2.html" --quiet
hasnt "$TMP/err" 'warning'
expect_code 0 "$PERFDELTA" pull --help
has "$TMP/out" '^  -o, --output DIR +the run bundle to write'
hasnt "$TMP/out" 'index\.html'
finish
