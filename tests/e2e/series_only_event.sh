# An event seen only in the series (a target bundle without perfrunner/ and jenkins/: the
# seed's hard-failover run with those folders left out): active_tasks shows only that a
# rebalance started, and a failover is followed by one too. Its kind is unknown: every
# output says "rebalance" and "kind unknown without the console", none "rebalance-out"
# or a failover, and summary.json's event.kind is "rebalance" (docs/summary-json.md).
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/t"
cp -r "$SEED/failover/perfdb" "$TMP/t/perfdb"
expect_code 1 "$PERFDELTA" compare "$SEED/baseline" "$TMP/t" -o "$TMP/rep"
cp "$TMP/out" "$TMP/terminal.txt"
python3 - "$TMP/rep/summary.json" <<'PY' || fail "summary.json event"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["event"]
assert e["kind"] == "rebalance", e
assert e["source"] == "series" and e["node"] is None, e
assert any("kind unknown without the console" in w for w in d["warnings"]), d["warnings"]
for q in d["questions"]:
    assert "rebalance-out" not in json.dumps(q), q
PY
ok
for f in terminal.txt err rep/index.html rep/summary.md rep/summary.jira rep/junit.xml rep/summary.json; do
  hasnt "$TMP/$f" 'rebalance-out|failover and rebalance|the failover'
  hasf "$TMP/$f" 'kind unknown without the console'
done
has "$TMP/terminal.txt" 'were requests lost at the rebalance of a node\?'
# a failover run as the baseline: the recovery finding compares the two dips as the
# event's effect, not the failover's (the target's event may be none)
expect_code 1 "$PERFDELTA" compare "$SEED/failover-graceful" "$TMP/t" -o "$TMP/rep2" --quiet
hasf "$TMP/rep2/summary.json" "the event's effect on the query rate"
hasnt "$TMP/rep2/summary.json" "the failover's effect"
# inspect says the same
expect_code 0 "$PERFDELTA" inspect "$TMP/t"
has "$TMP/out" 'event +rebalance( |$)'
hasnt "$TMP/out" 'rebalance-out'
finish
