#!/usr/bin/env bash
# perfdelta signature / history add / history report / demo --history on SQLite: outputs
# against their schemas, the report CSP-clean, bad input refused whole.
. "$(dirname "$0")/lib.sh" "$@"
DB="sqlite:$TMP/h.sqlite"
validate() { # validate SCHEMA FILE
  python3 -c 'import jsonschema' 2>/dev/null || { ok; return; }
  if python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' "$1" "$2" 2>"$TMP/v"; then ok; else fail "$2 against $1: $(head -3 "$TMP/v")"; fi
}

expect_code 0 "$PERFDELTA" signature "$SEED/failover"
cp "$TMP/out" "$TMP/sig.json"
validate "$SRC/docs/signature.schema.json" "$TMP/sig.json"
hasf "$TMP/sig.json" '"key":"iris-multi-client#12520"'
hasf "$TMP/sig.json" '"name":"event/connections_left"'

# a bad bundle among good ones: one line, exit 3, nothing stored
mkdir -p "$TMP/bad/perfdb/atopx" && printf '[[1, 2' >"$TMP/bad/perfdb/atopx/m.json"
expect_code 3 "$PERFDELTA" history add "$SEED/baseline" "$TMP/bad" --db "$DB"
lines "$TMP/err" 1
expect_code 3 "$PERFDELTA" history report --test n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i --db "$DB" -o "$TMP/r0"
has "$TMP/err" 'holds no run of test'
[ ! -e "$TMP/r0" ] && ok || fail "a failed report left $TMP/r0"

expect_code 0 "$PERFDELTA" history add "$SEED/baseline" "$SEED/baseline-r2" --db "$DB"
has "$TMP/out" '^added iris-multi-client#12094 '
expect_code 0 "$PERFDELTA" history add "$SEED/baseline" --db "$DB"
has "$TMP/out" '^already stored iris-multi-client#12081 '
expect_code 2 "$PERFDELTA" history add "$SEED/baseline" --db "mysql://x"
has "$TMP/err" 'expects sqlite:PATH or postgresql://'
expect_code 2 "$PERFDELTA" history report --db "$DB"

# the default store is in the user's data directory
expect_code 0 env XDG_DATA_HOME="$TMP/xdg" "$PERFDELTA" history add "$SEED/baseline"
[ -s "$TMP/xdg/perfdelta/history.sqlite" ] && ok || fail "no store in XDG_DATA_HOME"

# the demo's generated history: the planted changes found, the page CSP-clean
expect_code 0 "$PERFDELTA" demo --history -o "$TMP/demo"
validate "$SRC/docs/history.schema.json" "$TMP/demo/summary.json"
for f in event/connections_left event/recovery_s event/failed_requests; do
  hasf "$TMP/demo/summary.json" "\"feature\":\"$f\""
done
hasf "$TMP/demo/index.html" '<link rel="stylesheet" href="style.css">'
hasnt "$TMP/demo/index.html" '<script| style=|<style'
[ -s "$TMP/demo/style.css" ] && ok || fail "no style.css"
n=$(ls "$TMP/demo/charts" | wc -l); [ "$n" = 3 ] && ok || fail "$n charts, want 3"
has "$TMP/demo/junit.xml" '<testsuite name="perfdelta.history.n1ql_thr_Q3'
# the same history, the same bytes; a report replaces an earlier one
cp "$TMP/demo/summary.json" "$TMP/first.json"
expect_code 0 "$PERFDELTA" demo --history -o "$TMP/demo"
cmp -s "$TMP/first.json" "$TMP/demo/summary.json" && ok || fail "demo --history not deterministic"
finish
