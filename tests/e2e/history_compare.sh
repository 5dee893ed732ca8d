#!/usr/bin/env bash
# The history report's suggested compare, run as printed, on a generated history of
# bundles (pd_seedgen --history, fixtures/seed-README.md): 20 failover runs, two a build,
# each metric's level its own from run to run (3 %, as baseline-r2 and -r3), and memcached
# CPU 20 % higher from run 13 on (#14013, the second run of build 7.1.0-1406). The planted
# findings are memcached CPU's and the CPU it adds up to (real_noise.py's STEP); the
# event's own (the removed node's connections, the live node, the KPI's scope) are in
# every run. One baseline alone reads run-to-run levels as changes; the suggested command
# takes the store's measured spreads as its margins, the whole run's included.
. "$(dirname "$0")/lib.sh"
GEN=$BUILD/pd_seedgen
[ -x "$GEN" ] || { echo "no $GEN" >&2; exit 1; }
TEST=n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i
DB="sqlite:$TMP/h.sqlite"
"$GEN" --history 20 --step-at 13 "$TMP/h" 2>"$TMP/err" || fail "pd_seedgen --history: $(cat "$TMP/err")"
expect_code 0 "$PERFDELTA" history add "$TMP"/h/run-* --db "$DB"
(cd "$TMP" && "$PERFDELTA" history report --test "$TEST" --db "sqlite:h.sqlite" -o rep >"$TMP/rep.txt" 2>"$TMP/err") ||
  fail "history report: $(head -3 "$TMP/err")"

# tally SUMMARY: "planted N other M": the findings of a comparison that are changes (not
# the event's own), about the planted metrics and about any other
tally() {
  python3 - "$1" <<'PY'
import json, sys
OWN = {"event-errors", "hard-failover-live-node", "kpi-scope", "kpi-change", "recovery",
       "lingering-connections", "data-gap"}
STEP = {"atop/memcached_cpu", "metrics_rest_api_processes/memcached_sysproc_cpu_utilization",
        "ns_server_system/cpu_utilization", "ns_server/cpu_utilization_rate"}
s = json.load(open(sys.argv[1]))
ch = [f for f in s["findings"] if f["kind"] not in OWN]
other = [f for f in ch if f.get("metric") not in STEP]
print("planted %d other %d" % (len(ch) - len(other), len(other)))
for f in other:
    print("  " + f["text"][:200], file=sys.stderr)
PY
}

# The change is named by build and run: both sides are build 7.1.0-1406
python3 - "$TMP/rep/summary.json" >"$TMP/cp" <<'PY' || fail "no change point of memcached CPU on the kv nodes: $(head -3 "$TMP/rep.txt")"
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["change_points"] if c["feature"] == "atop/memcached_cpu|role:kv|whole"]
print(c[0]["previous_run_name"], "|", c[0]["run_name"], "|", c[0]["compare"])
PY
hasf "$TMP/cp" "7.1.0-1406 #14012 | 7.1.0-1406 #14013 | "
# the terminal: the ten largest (all about CPU here), then how many more
has "$TMP/rep.txt" '^  1\. [a-z_/]*cpu[a-z_]*\|[^ ]* changed from [0-9.]+% to [0-9.]+% between 7\.1\.0-1406 #14012 and 7\.1\.0-1406 #14013 \(worse\)$'
has "$TMP/rep.txt" '^  10\. '
hasnt "$TMP/rep.txt" '^  11\. '
has "$TMP/rep.txt" '^  and [0-9]+ more in the report$'
has "$TMP/rep/index.html" '<td class="run">7\.1\.0-1406 #14012</td><td class="run">7\.1\.0-1406 #14013</td>'
# features whose every value is the same (index_items_count, query_invalid_requests, ...)
# are not in the family's m, and the page says how many
has "$TMP/rep/summary.json" '"features_constant":[1-9][0-9]*,'
has "$TMP/rep/index.html" ' features tested \([0-9]+ more constant: the same value in every run, not tested\)\.'
cmd=$(sed 's/^[^|]*|[^|]*| //' "$TMP/cp")
# the store is named so that the command runs from anywhere (the report was made from $TMP)
case $cmd in "perfdelta compare --db 'sqlite:$TMP/h.sqlite' '$TMP/h/run-12' '$TMP/h/run-13' -o "*) ok ;;
  *) fail "suggested: $cmd" ;; esac

# the suggested command, run as printed (from another directory): the planted findings,
# no other; every whole-run delta's margin the store's (noise "history")
mkdir -p "$TMP/elsewhere"
(cd "$TMP/elsewhere" && PATH="$(dirname "$PERFDELTA"):$PATH" bash -c "$cmd --quiet --fail-on never") \
  >"$TMP/c.txt" 2>&1 || fail "the suggested compare: $(head -3 "$TMP/c.txt")"
got=$(tally "$TMP"/elsewhere/compare-*/summary.json)
case $got in "planted 0 "*|*" other "[1-9]*) fail "suggested compare: $got" ;; *) ok ;; esac
echo "suggested compare: $got"
python3 - "$TMP"/elsewhere/compare-*/summary.json <<'PY' && ok || fail "whole-run deltas without the store's margin"
import json, sys
s = json.load(open(sys.argv[1]))
whole = [d for d in s["deltas"] if d["phase"] == "whole" and d["baselines"] == 1]
sys.exit(not (len(whole) > 100 and sum(d["noise"] == "history" for d in whole) > 0.95 * len(whole)))
PY
# the one-baseline compare of the same two runs (the report's suggestion before): false
# findings on metrics nothing touched
"$PERFDELTA" compare "$TMP/h/run-12" "$TMP/h/run-13" -o "$TMP/one" --quiet --fail-on never >/dev/null 2>&1
got=$(tally "$TMP/one/summary.json" 2>/dev/null)
case $got in *" other 0") fail "one baseline found nothing false: the case shows nothing" ;; *) ok ;; esac
echo "one baseline: $got"

# A store of runs added before signatures held the whole run (its features removed here):
# still read, the phases' margins the store's, the whole run's the kind's default
# (noise "within-run") until runs with them are stored
cp "$TMP/h.sqlite" "$TMP/old.sqlite"
python3 - "$TMP/old.sqlite" <<'PY' || fail "could not strip the whole run from the store"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
whole = {str(i) for i, n in db.execute("select id, name from feature_names") if n.endswith("|whole")}
for rid, data in db.execute("select run_id, data from run_features").fetchall():
    keep = "".join(l + "\n" for l in data.splitlines() if l.split(" ")[0] not in whole)
    db.execute("update run_features set data = ? where run_id = ?", (keep, rid))
db.commit()
PY
expect_code 0 "$PERFDELTA" compare --db "sqlite:$TMP/old.sqlite" "$TMP/h/run-12" "$TMP/h/run-13" \
  -o "$TMP/old" --quiet --fail-on never
python3 - "$TMP/old/summary.json" <<'PY' && ok || fail "an old store: not the phases' margins only"
import json, sys
s = json.load(open(sys.argv[1]))
one = [d for d in s["deltas"] if d["baselines"] == 1]
whole = [d["noise"] for d in one if d["phase"] == "whole"]
post = [d["noise"] for d in one if d["phase"] == "post"]
sys.exit(not (whole and set(whole) == {"within-run"} and post.count("history") > 0.95 * len(post)))
PY
expect_code 0 "$PERFDELTA" history report --test "$TEST" --db "sqlite:$TMP/old.sqlite" -o "$TMP/oldrep" --quiet
finish
