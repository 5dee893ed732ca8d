# Usage errors exit 2; unreadable or malformed input exits 3 with one line naming the
# file and the place; nothing goes to stdout then.
. "$(dirname "$0")/lib.sh"

expect_code 2 "$PERFDELTA"
has "$TMP/err" "a command is needed"
expect_code 2 "$PERFDELTA" frobnicate
expect_code 2 "$PERFDELTA" inspect
expect_code 2 "$PERFDELTA" inspect "$SEED/baseline" --bogus
expect_code 2 "$PERFDELTA" inspect "$SEED/baseline" --console-utc-offset 8
expect_code 2 "$PERFDELTA" inspect "$SEED/baseline" --event-time -5
expect_code 2 "$PERFDELTA" inspect "$SEED/baseline" --max-samples 0
expect_code 0 "$PERFDELTA" --help
has "$TMP/out" '^usage: perfdelta'
has "$TMP/out" 'max-file-size'
expect_code 0 "$PERFDELTA" --version
has "$TMP/out" '^perfdelta [0-9]+\.[0-9]+\.[0-9]+$'

expect_code 3 "$PERFDELTA" inspect "$TMP/nonexistent"
lines "$TMP/err" 1
lines "$TMP/out" 0

# a broken series file: exit 3, one line "path:line:col: expected ..."
cp -r "$SEED/baseline" "$TMP/run"
f=$(find "$TMP/run/perfdb" -name 'memcached_cpu.json' | sort | head -1)
printf '[[1762107600000, 1.5],\n [1762107605000, tru]]' >"$f"
expect_code 3 "$PERFDELTA" inspect "$TMP/run"
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: $f:2:18: expected a number"
lines "$TMP/out" 0

# a broken build.json
cp -r "$SEED/baseline" "$TMP/run2"
printf '{"number": 12, "result": ' >"$TMP/run2/jenkins/build.json"
expect_code 3 "$PERFDELTA" inspect "$TMP/run2"
has "$TMP/err" "^perfdelta: $TMP/run2/jenkins/build.json:1:[0-9]+: "

# a series over the stated limit
expect_code 3 "$PERFDELTA" inspect "$SEED/baseline" --max-samples 10
has "$TMP/err" 'max-samples'
# a gnuplot that fails: exit 3, one line naming the chart it was drawing, no output and
# no temporary directory left behind, no gnuplot left running
mkdir -p "$TMP/fakebin"
# (the metric charts are the first script gnuplot is given after its start: /dev/fd/6)
printf '#!/bin/sh\necho "\\"/dev/fd/6\\" line 2: boom" >&2\nexit 1\n' >"$TMP/fakebin/gnuplot"
chmod +x "$TMP/fakebin/gnuplot"
PATH="$TMP/fakebin:$PATH" expect_code 3 "$PERFDELTA" compare "$SEED/baseline" "$SEED/failover" -o "$TMP/gp-out"
lines "$TMP/err" 1
has "$TMP/err" '^perfdelta: gnuplot failed drawing [mn][0-9]+\.svg: boom$'
if [ -e "$TMP/gp-out" ] || ls -d "$TMP"/gp-out.* >/dev/null 2>&1; then fail "output left behind"; else ok; fi
if grep -qs "$TMP/fakebin" /proc/[0-9]*/cmdline; then fail "a gnuplot is still running"; else ok; fi
finish
