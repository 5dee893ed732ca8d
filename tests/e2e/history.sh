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
# one figure: the connections the removed node kept, as the signature stores it and as the
# report's lingering finding states it (the post-phase median; the seed generator keeps
# LINGER = 70 connections on the removed node, fixtures/seedgen.c, with noise: 70 +- 2)
expect_code 0 "$PERFDELTA" compare "$SEED/baseline" "$SEED/failover" -o "$TMP/cl" --quiet --fail-on never
if python3 -c 'import json, sys
sig = {f["name"]: f["value"] for f in json.load(open(sys.argv[1]))["features"]}
lin = [f["value"] for f in json.load(open(sys.argv[2]))["findings"] if f["kind"] == "lingering-connections"]
sys.exit(not (lin and sig["event/connections_left"] == lin[0] and abs(lin[0] - 70) <= 2))' "$TMP/sig.json" "$TMP/cl/summary.json"
then ok; else fail "signature's connections_left is not the lingering finding's figure"; fi

# a bad bundle among good ones: one line, exit 3, nothing stored
mkdir -p "$TMP/bad/perfdb/atopx" && printf '[[1, 2' >"$TMP/bad/perfdb/atopx/m.json"
expect_code 3 "$PERFDELTA" history add "$SEED/baseline" "$TMP/bad" --db "$DB"
lines "$TMP/err" 1
expect_code 3 "$PERFDELTA" history report --test n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i --db "$DB" -o "$TMP/r0"
has "$TMP/err" "holds no run of test 'n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i', nor of any test$"
[ ! -e "$TMP/r0" ] && ok || fail "a failed report left $TMP/r0"

expect_code 0 "$PERFDELTA" history add "$SEED/baseline" "$SEED/baseline-r2" --db "$DB"
has "$TMP/out" '^added iris-multi-client#12094 '
expect_code 0 "$PERFDELTA" history add "$SEED/baseline" --db "$DB"
has "$TMP/out" '^already stored iris-multi-client#12081 '
# any number of runs at once: 300, past one batch of 256 (one bundle
# 300 times: the first added, the other 299 already stored, in one line each)
many=(); for k in $(seq 300); do many+=("$SEED/baseline-r2"); done
expect_code 0 "$PERFDELTA" history add "${many[@]}" --db "sqlite:$TMP/many.sqlite"
lines "$TMP/out" 300
[ "$(grep -c '^already stored ' "$TMP/out")" = 299 ] && ok || fail "300 adds of one run: $(head -3 "$TMP/out")"
# a test the store lacks: the error names the tests it holds
expect_code 3 "$PERFDELTA" history report --test nosuch --db "$DB" -o "$TMP/r1"
has "$TMP/err" "^perfdelta: the history holds no run of test 'nosuch'; it holds n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i$"
lines "$TMP/err" 1
expect_code 2 "$PERFDELTA" history add "$SEED/baseline" --db "mysql://x"
has "$TMP/err" 'expects sqlite:PATH or postgresql://'
# Both stores take the same bytes (not_utf8_refused, tests/e2e/lib.sh)
not_utf8_refused "$DB"
expect_code 3 "$PERFDELTA" history add "$SEED/failover" "$LATIN" --db "$DB"
if ! command -v sqlite3 >/dev/null || [ "$(sqlite3 "$TMP/h.sqlite" 'select count(*) from runs')" = 2 ]; then ok; else fail "a refused add stored a run"; fi

# Only a writer makes a store, and only where there is none: a reader of
# a mistyped path leaves nothing there; a user's database (tables, no pd_schema) is
# refused by the writer, unchanged.
expect_code 3 "$PERFDELTA" history report --test t --db "sqlite:$TMP/typo.db" -o "$TMP/typo"
has "$TMP/err" "^perfdelta: $TMP/typo\.db: no history store here: perfdelta history add makes one$"
expect_code 3 "$PERFDELTA" compare --baseline-history 2 --db "sqlite:$TMP/typo.db" "$SEED/failover" -o "$TMP/typo"
has "$TMP/err" "no history store here"
if [ ! -e "$TMP/typo.db" ] && [ ! -e "$TMP/typo" ]; then ok; else fail "a reader left $(ls -d "$TMP"/typo*)"; fi
# nor the default store's directory
XDG_DATA_HOME=$TMP/xdg expect_code 3 "$PERFDELTA" history report --test t -o "$TMP/typo"
has "$TMP/err" "^perfdelta: $TMP/xdg/perfdelta/history\.sqlite: no history store here"
if [ ! -e "$TMP/xdg" ]; then ok; else fail "a reader made $(find "$TMP/xdg")"; fi
if command -v sqlite3 >/dev/null; then
  sqlite3 "$TMP/notes.db" 'CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('"'"'mine'"'"')'
  cp "$TMP/notes.db" "$TMP/notes.orig"
  expect_code 2 "$PERFDELTA" history add "$SEED/baseline" --db "sqlite:$TMP/notes.db"
  has "$TMP/err" "^perfdelta: $TMP/notes\.db: not a perfdelta history store: it holds 1 table and no pd_schema; refusing to write into it"
  if cmp -s "$TMP/notes.db" "$TMP/notes.orig"; then ok; else fail "notes.db changed: $(sqlite3 "$TMP/notes.db" .tables)"; fi
  expect_code 3 "$PERFDELTA" history report --test t --db "sqlite:$TMP/notes.db" -o "$TMP/typo"
  has "$TMP/err" "no history store here"
else
  ok # sqlite3 is scripts/deps': the refusal is also check_store's
fi

# No credential on the screen: a typo in the scheme, a URL libpq cannot
# parse (it quotes the URL), a password as a query parameter or a libpq keyword; every
# command that takes --db. Nothing listens on port 1.
for u in 'postgresq://me:S3cr3tPw@127.0.0.1:1/x' 'postgresql://me:S3cr3tPw@[::1/db' \
  'postgresql://me@127.0.0.1:1/db?password=S3cr3tPw&bad=1' 'host=127.0.0.1 password=S3cr3tPw'; do
  for cmd in "history add $SEED/baseline" "history report --test t -o $TMP/cred" \
    "compare --baseline-history 2 $SEED/failover -o $TMP/cred"; do
    # shellcheck disable=SC2086 # cmd is words
    "$PERFDELTA" $cmd --db "$u" >"$TMP/out" 2>"$TMP/err"
    code=$?
    if [ $code = 2 ] || [ $code = 3 ]; then ok; else fail "$cmd --db $u: exit $code"; fi
    if grep -qF S3cr3tPw "$TMP/out" "$TMP/err"; then fail "$cmd --db $u printed the password: $(cat "$TMP/err")"; else ok; fi
    has "$TMP/err" '^perfdelta: '
  done
done
expect_code 2 "$PERFDELTA" history report --db "$DB"

# --test takes perfrunner's test file too, as its test_config names it
expect_code 0 "$PERFDELTA" history report --test tests/n1ql/n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i.test \
  --db "$DB" -o "$TMP/byfile"
has "$TMP/byfile/index.html" '<h1>History of n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i</h1>'

# One number syntax for every flag of both programs (perfdelta's): no exponent, hex or
# fraction where a whole number is asked, each refused with exit 2 and one line naming
# the flag and the value, before any store is read or report written.
T=n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i
for bad in "--window 1e3" "--window 3.7" "--min-size 0x10" "--alpha 1e-3" "--window -1"; do
  # shellcheck disable=SC2086 # $bad is a flag and its value
  expect_code 2 "$PERFDELTA" history report --test $T --db "$DB" -o "$TMP/num" $bad
  lines "$TMP/err" 1
  has "$TMP/err" "^perfdelta: ${bad%% *} needs .*, not '${bad#* }' \(perfdelta history --help\)$"
  [ ! -e "$TMP/num" ] && ok || fail "history report $bad wrote $TMP/num"
done
expect_code 2 "$PERFDELTA" compare --baseline-history 3.7 --db "$DB" "$SEED/failover" -o "$TMP/num"
has "$TMP/err" "^perfdelta: --baseline-history needs a whole number from 1 to 16, not '3\.7'"
expect_code 2 "$PERFDELTA" demo --history --window 0x10 -o "$TMP/num"
[ ! -e "$TMP/num" ] && ok || fail "a refused number wrote $TMP/num"
# one spelling, --flag VALUE: --flag=VALUE is an unknown option, said (it exited 2 silently)
expect_code 2 "$PERFDELTA" compare --baseline-history=3 "$SEED/failover" -o "$TMP/num"
has "$TMP/err" "^perfdelta: unknown option '--baseline-history=3' "
# the same numbers written plainly are taken
expect_code 0 "$PERFDELTA" history report --test $T --db "$DB" -o "$TMP/num" --window 1000 \
  --min-size 16 --alpha 0.001
# a flag of another command is refused, naming the command
expect_code 2 "$PERFDELTA" history add "$SEED/baseline" --db "$DB" --window 3
has "$TMP/err" "^perfdelta: --window is not an option of history add "
expect_code 0 "$PERFDELTA" history report --help
has "$TMP/out" '^  --window N '

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
# the charts count runs (1 to 100), not seconds; the features that changed follow the
# table's order, largest first
hasnt <(cat "$TMP/demo/charts/"*.svg) '>[0-9.]+ s</text>'
has <(cat "$TMP/demo/charts/"*.svg) '>100</text>'
if python3 - "$TMP/demo/index.html" <<'PY'; then ok; else fail "features that changed: not in the table's order"; fi
import re, sys
html = open(sys.argv[1]).read()
table = re.findall(r'<tr><td class="n">\d+</td><td><a href="#c-f\d+">([^<]*)</a>', html)
sections = re.findall(r'<h3>([^<]*)</h3>', html)
seen = []
for f in table:
    if f not in seen:
        seen.append(f)
sys.exit(not (len(seen) == 3 and seen == sections))
PY
# the same history, the same bytes; a report replaces an earlier one
cp "$TMP/demo/summary.json" "$TMP/first.json"
expect_code 0 "$PERFDELTA" demo --history -o "$TMP/demo"
cmp -s "$TMP/first.json" "$TMP/demo/summary.json" && ok || fail "demo --history not deterministic"
# compare --db URL BASE TARGET: single-baseline verdicts take their run-to-run
# margin from the history: 1.96 sqrt(2) x the feature's relative sd over the target's
# earlier runs (baseline, baseline-aa, baseline-r2: build order, then number), worked
# out here from their signatures (sample sd, n - 1); a node's (an index's) view's 1.96
# is Phi^-1(1 - 0.025 / n) over the n nodes (indexes) of its metric (Python's own
# NormalDist).
H="sqlite:$TMP/spread.sqlite"
expect_code 0 "$PERFDELTA" history add "$SEED/baseline" "$SEED/baseline-aa" "$SEED/baseline-r2" \
  "$SEED/baseline-r3" --db "$H"
for r in baseline baseline-aa baseline-r2; do "$PERFDELTA" signature "$SEED/$r" >"$TMP/sig-$r.json"; done
"$PERFDELTA" compare --db "$H" "$SEED/baseline-r2" "$SEED/baseline-r3" -o "$TMP/hc" --quiet --fail-on never \
  >"$TMP/hc.txt" 2>&1 || fail "compare --db: $(head -3 "$TMP/hc.txt")"
validate "$SRC/docs/summary.schema.json" "$TMP/hc/summary.json"
got=$(python3 - "$TMP/hc/summary.json" "$TMP"/sig-baseline.json "$TMP"/sig-baseline-aa.json "$TMP"/sig-baseline-r2.json <<'PY'
import json, math, sys
from statistics import NormalDist
s = json.load(open(sys.argv[1]))
kind = lambda d: d["scope"].split(":")[0] if d["scope"].startswith(("node:", "index:")) else None
nodes = {}
for d in s["deltas"]:
    if kind(d):
        nodes.setdefault((kind(d), d["metric"]), set()).add(d["scope"])
runs = [{f["name"]: f["value"] for f in json.load(open(p))["features"]} for p in sys.argv[2:]]
bad = 0
for d in s["deltas"]:
    name = "%s|%s|%s" % (d["metric"], d["scope"], d["phase"])
    v = [r[name] for r in runs if name in r and r[name] is not None]
    if len(v) < 3 or d["baselines"] != 1:
        continue
    m = sum(v) / len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
    if m == 0:
        continue
    n = len(nodes[(kind(d), d["metric"])]) if kind(d) else 1
    want = 100 * NormalDist().inv_cdf(1 - 0.025 / n) * math.sqrt(2) * sd / abs(m)
    if d["noise"] != "history" or abs(d["margin_pct"] - want) > 1e-6 * max(1, want):
        bad += 1
print(s["inference"]["noise"], bad)
PY
)
if [ "$got" = "history 0" ]; then ok; else fail "compare --db: $got"; fi
hasf "$TMP/hc/summary.json" '"noise_text":"one baseline: a change'\''s interval, widened in quadrature by a run-to-run margin'
# without the history the same comparison takes the kinds' defaults
"$PERFDELTA" compare "$SEED/baseline-r2" "$SEED/baseline-r3" -o "$TMP/hc0" --quiet --fail-on never >/dev/null 2>&1
hasf "$TMP/hc0/summary.json" '"noise":"within-run"'
hasnt "$TMP/hc0/summary.json" '"noise":"history"'
# a run-spread file that is not one: exit 3, one line naming its line
printf 'atop/x|cluster|pre\t-1\t4\n' >"$TMP/bad.tsv"
expect_code 3 "$PERFDELTA" compare --run-spread "$TMP/bad.tsv" "$SEED/baseline-r2" "$SEED/baseline-r3" -o "$TMP/hc1"
has "$TMP/err" 'bad\.tsv:1:20: expected "<feature> TAB <relative sd> TAB <runs>"'  # col 20: the sd
lines "$TMP/err" 1
finish
