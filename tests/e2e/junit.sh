# junit.xml for Jenkins: valid against the xunit plugin's junit-10.xsd (fixtures/junit/,
# with its provenance); one testcase per question, named without a verdict or a finding's
# kind, so that the same runs judged differently (--threshold 100, --fail-on never) give the
# same testcase names; a delta's testcase fails when summary.json calls it a regression the
# topology does not explain; each testcase is short and links to the report.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
xsd=$SRC/fixtures/junit/junit-10.xsd
if ! command -v xmllint >/dev/null; then fail "xmllint is not installed (scripts/deps test installs libxml2-utils)"; finish; exit 1; fi
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/fwd" --quiet
expect_code 0 "$PERFDELTA" compare "$B" "$F" -o "$TMP/t100" --quiet --threshold 100
expect_code 0 "$PERFDELTA" compare "$B" "$F" -o "$TMP/never" --quiet --fail-on never
expect_code 0 "$PERFDELTA" compare "$B" "$SEED/baseline-aa" -o "$TMP/aa" --quiet \
  --report-url 'https://ci.example/job/x/7/perfdelta/'
for r in fwd t100 never aa; do
  if xmllint --noout --schema "$xsd" "$TMP/$r/junit.xml" 2>"$TMP/xsd.err"; then ok
  else fail "$r/junit.xml does not validate: $(head -3 "$TMP/xsd.err")"; fi
done
names() { grep -o '<testcase classname="[^"]*" name="[^"]*"' "$1" | sort; }
for r in t100 never; do
  if cmp -s <(names "$TMP/fwd/junit.xml") <(names "$TMP/$r/junit.xml"); then ok
  else fail "the testcases of $r differ from those of the default run: $(diff <(names "$TMP/fwd/junit.xml") <(names "$TMP/$r/junit.xml") | head -3)"; fi
  hasnt "$TMP/$r/junit.xml" '<failure'
done
# names that survive the fix: the graceful failover, the clean failover, the runs swapped
# and a target without its console raise the demo's testcases, every one (questions by
# what they ask, nodes by role label, findings in their question), passing or failing
mkdir -p "$TMP/nocon" && cp -r "$F" "$TMP/nocon/failover" && rm "$TMP/nocon/failover/jenkins/consoleText"
"$PERFDELTA" compare "$B" "$SEED/failover-graceful" -o "$TMP/grace" --quiet >/dev/null 2>&1
"$PERFDELTA" compare "$B" "$SEED/failover-clean" -o "$TMP/clean" --quiet >/dev/null 2>&1
"$PERFDELTA" compare "$F" "$B" -o "$TMP/swap" --quiet >/dev/null 2>&1
"$PERFDELTA" compare "$B" "$TMP/nocon/failover" -o "$TMP/nocon/out" --quiet >/dev/null 2>&1
for r in grace clean swap nocon/out; do
  if cmp -s <(names "$TMP/fwd/junit.xml") <(names "$TMP/$r/junit.xml"); then ok
  else fail "the testcases of $r differ from the demo's: $(diff <(names "$TMP/fwd/junit.xml") <(names "$TMP/$r/junit.xml") | head -4)"; fi
done
if grep -o ' name="[^"]*"' "$TMP/fwd/junit.xml" | grep -qE '172\.23\.|hard failover|^ name="[0-9]'; then
  fail "a testcase named by an address, the event's kind or a position"; else ok; fi

# no verdict and no finding kind in any name (the questions are named by what they ask)
grep -v 'classname="perfdelta\.questions"' "$TMP/fwd/junit.xml" >"$TMP/notq.xml"
hasnt "$TMP/notq.xml" ' name="[^"]*(regression|improvement|inconclusive|post-event-mismatch|metric-shift|lingering|kpi-|recovery|event-errors|hard-failover-live)'

# the deltas as summary.json gives them, read by python3: each has its testcase, which
# fails when it is a regression the topology does not explain
cat >"$TMP/deltas.py" <<'PY'
import json, re, sys, html
summary, junit = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
cases = {}
for m in re.finditer(r'<testcase classname="([^"]*)" name="([^"]*)"><(failure|error|system-out)', junit):
    cases[html.unescape(m.group(2))] = (m.group(1), m.group(3))
bad = []
drill_regressions = drill_failing = 0
stated = {}
for d in summary["deltas"]:
    name = "%s %s %s" % (d["metric"], d["case_scope"], d["phase"])
    stated[name] = any(f.get("metric") == d["metric"] and f.get("scope") == d["scope"] and
                       f.get("phase") == d["phase"] for f in summary["findings"])
for d in summary["deltas"]:
    name = "%s %s %s" % (d["metric"], d["case_scope"], d["phase"])
    want_class = "perfdelta." + d["metric"].split("/")[0]
    if name not in cases or cases[name][0] != want_class:
        bad.append("no testcase " + name)
    elif d["gates"] != (d["family"] == "top-level" and not d["topology"]):
        bad.append("gates is not top-level and not the topology's: " + name)
    elif d["verdict"] == "regression" and d["gates"] and cases[name][1] != "failure":
        bad.append("passes: " + name)
    elif cases[name][1] == "failure" and not (d["verdict"] == "regression" and d["gates"]) \
            and not stated[name]:
        bad.append("fails with no regression of its own nor finding: " + name)
    elif d["verdict"] == "regression" and not d["gates"]:
        drill_regressions += 1
        drill_failing += cases[name][1] == "failure"
print(len(summary["deltas"]), "deltas,", drill_regressions, "drill-down regressions,",
      drill_failing, "failing (a finding states them),", len(bad), "wrong:", "; ".join(bad[:4]))
sys.exit(1 if bad or len(summary["deltas"]) < 100 or drill_failing > len(summary["findings"]) else 0)
PY
for r in fwd aa; do
  if python3 "$TMP/deltas.py" "$TMP/$r/summary.json" "$TMP/$r/junit.xml" >"$TMP/deltas.out"; then ok
  else fail "$r: $(cat "$TMP/deltas.out")"; fi
done
# drill-downs do not gate (docs/reference.md, "Publishing in Jenkins"): the seed's memcached
# regression on the kv role fails its role's testcase, not one more per kv node; the kv
# nodes' drill-downs of the same metric and phase that regress too (summary.json says
# which: with one baseline, each node's interval holds its margin over the four nodes)
# pass
has "$TMP/fwd/junit.xml" 'name="metrics_rest_api_processes/memcached_sysproc_cpu_utilization role:kv whole"><failure'
nodes=$(python3 -c '
import json, sys
for d in json.load(open(sys.argv[1]))["deltas"]:
    if (d["metric"], d["phase"], d["verdict"]) == (
            "metrics_rest_api_processes/memcached_sysproc_cpu_utilization", "whole",
            "regression") and d["scope"].startswith("node:"):
        print(d["case_scope"])' "$TMP/fwd/summary.json")
[ -n "$nodes" ] && ok || fail "no kv node's memcached drill-down regresses"
for n in $nodes; do
  has "$TMP/fwd/junit.xml" "name=\"metrics_rest_api_processes/memcached_sysproc_cpu_utilization $n whole\"><system-out>[^<]*: regression"
done
# failing testcases: far fewer than the regressions (summary.json: the seed has 51
# regressions, 24 of them drill-downs; 37 testcases fail: the 27 top-level regressions,
# the drill-downs that a finding states, 6 of the 8 event questions, the findings')
nfail=$(grep -c '<failure' "$TMP/fwd/junit.xml")
if [ "$nfail" -lt 45 ] && [ "$nfail" -gt 20 ]; then ok; else fail "$nfail failing testcases"; fi
# the event's questions (analyze/tell/questions.c) are testcases of an event run; the runs'
# comparability always is
has "$TMP/fwd/junit.xml" 'classname="perfdelta.questions" name="questions.role-change.kv"><failure'
has "$TMP/fwd/junit.xml" 'classname="perfdelta.comparison" name="the runs are comparable"><system-out>'
hasnt "$TMP/aa/junit.xml" 'perfdelta.questions'
# short testcases linking to the report: the anchors exist in index.html
max=$(awk 'BEGIN { RS = "</testcase>" } { if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/fwd/junit.xml")
if [ "$max" -gt 100 ] && [ "$max" -lt 4000 ]; then ok; else fail "a testcase of $max bytes"; fi
for a in $(grep -o 'details: index\.html#[^<]*' "$TMP/fwd/junit.xml" | sed 's/.*#//' | sort -u); do
  hasf "$TMP/fwd/index.html" "id=\"$a\""
done
has "$TMP/aa/junit.xml" 'details: https://ci\.example/job/x/7/perfdelta/#metric-'
finish
