# An index metric's page section charts the indexes that moved most, as it says it does
# (at real scale: "the top movers charted"). The generator plants a move on some
# indexes; which ones moved is read from summary.json's per-index deltas by python3 (the
# regressions and improvements of scope index:...), and each must appear in its metric's
# chart, which names the index in its title.
. "$(dirname "$0")/lib.sh"
"$BUILD/pd_seedgen" --bench --nodes 7 --hours 1 --indexes 12 "$TMP/ix" >/dev/null 2>&1 ||
  { echo "FAIL: pd_seedgen"; exit 1; }
"$PERFDELTA" compare "$TMP/ix/baseline" "$TMP/ix/failover" -o "$TMP/rep" --quiet 2>"$TMP/err"
rc=$?
if [ "$rc" = 1 ] || [ "$rc" = 0 ]; then ok; else fail "compare exit $rc"; cat "$TMP/err" >&2; fi
python3 - "$TMP/rep" >"$TMP/moved" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/summary.json"))
moved = {}
for x in d["deltas"]:
    if x["scope"].startswith("index:") and x["verdict"] in ("regression", "improvement"):
        moved.setdefault(x["metric"], set()).add(x["scope"].split(":", 1)[1])
for m, names in sorted(moved.items()):
    print(m, " ".join(sorted(names)))
PY
if [ -s "$TMP/moved" ]; then ok; else fail "the generator planted no index move"; fi
# the page says so, and each moved index's name is in a chart of the report
has "$TMP/rep/index.html" 'charted: the total and the [0-9]+ that moved most'
while read -r metric names; do
  for n in $names; do
    # the whole name, not a prefix of another (myindex1 of myindex12)
    if grep -lqE "$(printf '%s' "$n" | sed 's/[][\.*^$]/\\&/g')([^A-Za-z0-9_]|\$)" "$TMP"/rep/charts/*.svg; then ok; else fail "$metric: $n moved but no chart names it"; fi
  done
done <"$TMP/moved"
finish
