# Odd but legal values and hostile strings: samples at DBL_MAX, -DBL_MAX and
# subnormal are drawn (gnuplot never fails on them, in every series of both runs too); a KPI past the largest double is a
# KPI without a value, said, never "inf%"; a \u0000 in a Jenkins string is refused at its
# place; the INI interpolation bomb ends at once, in bounded memory, exit 3 at file:line
# where perfdelta reads it.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
# copy NAME RUN: a copy of a seed run in $TMP/NAME
copy() { rm -rf "${TMP:?}/$1"; cp -r "$2" "$TMP/$1"; }
# values RUN KIND: every memcached_rss sample of RUN set by KIND
values() {
  find "$1/perfdb" -path '*atop*' -name memcached_rss.json | while read -r f; do
    awk -v k="$2" 'BEGIN { RS = "],"; ORS = "" }
      { split($0, a, ","); v = k == "max" ? "1.7976931348623157e308" : k == "negmax" ? "-1.7976931348623157e308" : "4.9e-324"
        if (NR % 2 && k == "sub") v = "0"
        sub(/,[^,\]]*$/, "," v, $0); print (NR > 1 ? "]," : "") $0 }' "$f" >"$f.new" && mv "$f.new" "$f"
  done
}
for k in max:negmax sub:max negmax:sub; do
  copy vb "$B"; copy vf "$F"
  values "$TMP/vb" "${k%:*}"; values "$TMP/vf" "${k#*:}"
  has "$(find "$TMP/vb/perfdb" -path '*atop*' -name memcached_rss.json | head -1)" "(e308|e-324)"
  expect_code 1 "$PERFDELTA" compare "$TMP/vb" "$TMP/vf" -o "$TMP/rep-${k%:*}" --quiet
  hasnt "$TMP/err" 'gnuplot|chart'
  if [ -s "$TMP/rep-${k%:*}/index.html" ] && ls "$TMP/rep-${k%:*}/charts/"*.svg >/dev/null 2>&1; then ok
  else fail "$k: no report with charts"; fi
done

# every series of both runs at gnuplot's limits: varying just under DBL_MAX
# ("all points y value undefined!": gnuplot reads |y| >= DBL_MAX / 2 as undefined), DBL_MAX
# and -DBL_MAX in turn, and varying subnormals ("increment must be positive"): drawn in a
# unit of 10^e that the y axis names, never an error
cat >"$TMP/setall.py" <<'PY'
import glob, json, sys
run, kind = sys.argv[1], sys.argv[2]
f = {"nearmax": lambda i, v: 1.7e308 - (i % 7) * 1e306,
     "sign": lambda i, v: 1.79e308 if i % 2 else -1.79e308,
     "subnormal": lambda i, v: (i % 7) * 5e-324}[kind]
for p in glob.glob(run + "/perfdb/*/*.json"):
    json.dump([[t, f(i, v)] for i, (t, v) in enumerate(json.load(open(p)))], open(p, "w"))
PY
for k in nearmax sign subnormal; do
  copy vb "$B"; copy vf "$F"
  python3 "$TMP/setall.py" "$TMP/vb" $k; python3 "$TMP/setall.py" "$TMP/vf" $k
  "$PERFDELTA" compare "$TMP/vb" "$TMP/vf" -o "$TMP/all-$k" --quiet >"$TMP/out" 2>"$TMP/err"
  rc=$? # runs of equal series may find nothing
  if [ $rc = 0 ] || [ $rc = 1 ]; then ok; else fail "$k: exit $rc (want 0 or 1): $(head -1 "$TMP/err")"; fi
  hasnt "$TMP/err" 'gnuplot|chart'
  if grep -lq $'\xc3\x971e' "$TMP/all-$k/charts/"*.svg 2>/dev/null; then ok
  else fail "$k: no chart names its unit 10^e"; fi
done

# a doubling at 1e200: every memcached_rss sample times 1e190 in the baseline and
# 2e190 in the target (about 6e199 a node) is the seed's change doubled, a regression:
# 100 (2 (1 + d) - 1) % for the seed's own d, and summary.json stays JSON (no inf, no nan)
scale() {
  find "$1/perfdb" -path '*atop*' -name memcached_rss.json | while read -r f; do
    python3 -c 'import json, sys
p, k = sys.argv[1], float(sys.argv[2])
json.dump([[t, v * k] for t, v in json.load(open(p))], open(p, "w"))' "$f" "$2"
  done
}
copy vb "$B"; copy vf "$F"
scale "$TMP/vb" 1e190; scale "$TMP/vf" 2e190
has "$(find "$TMP/vb/perfdb" -path '*atop*' -name memcached_rss.json | head -1)" "e\+199"
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/seed" --quiet
expect_code 1 "$PERFDELTA" compare "$TMP/vb" "$TMP/vf" -o "$TMP/big" --quiet
if python3 - "$TMP/seed/summary.json" "$TMP/big/summary.json" <<'PY'; then ok; else fail "1e200 doubling"; fi
import json, sys
def strict(p):  # Python reads NaN and Infinity unless told not to
    return json.load(open(p), parse_constant=lambda c: sys.exit(p + ": " + c))
seed, big = (strict(p) for p in sys.argv[1:])
key = lambda d: (d["metric"], d["scope"], d["phase"])
ref = {key(d): d for d in seed["deltas"] if d["metric"] == "atop/memcached_rss"}
got = [d for d in big["deltas"] if d["metric"] == "atop/memcached_rss"]
assert got and len(got) == len(ref), (len(got), len(ref))
for d in got:
    want = 100 * (2 * (1 + ref[key(d)]["delta_pct"] / 100) - 1)
    assert d["verdict"] == "regression", (key(d), d["verdict"], d["reason"])
    assert abs(d["delta_pct"] - want) < 1e-6 * want, (key(d), d["delta_pct"], want)
PY

# a KPI of 1e400 (json.dumps of a Python int that large; cJSON reads +inf)
copy vf "$F"
sed -i '0,/^    "value": .*/s//    "value": 1e400/' "$TMP/vf/jenkins/consoleText"
has "$TMP/vf/jenkins/consoleText" '"value": 1e400'
expect_code 1 "$PERFDELTA" compare "$B" "$TMP/vf" -o "$TMP/kpi" --quiet
for f in "$TMP/kpi/summary.json" "$TMP/kpi/index.html" "$TMP/kpi/summary.md" "$TMP/kpi/junit.xml"; do
  hasnt "$f" 'inf%|nan%|[-+]?inf\b|Infinity'
done
has "$TMP/kpi/index.html" "has a value out of a double.{1,5}s range \(1\.8e308 or more\): a KPI with no value"

# a \u0000 in a Jenkins string: refused, naming the file and the place
copy vb "$B"
sed -i '0,/"fullDisplayName":"/s//"fullDisplayName":"cut\\u0000/' "$TMP/vb/jenkins/build.json"
hasf "$TMP/vb/jenkins/build.json" 'cut\u0000'
expect_code 3 "$PERFDELTA" compare "$TMP/vb" "$F" -o "$TMP/nul" --quiet
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: $TMP/vb/jenkins/build.json:[0-9]+:[0-9]+: refusing a string with a NUL character"
if [ ! -e "$TMP/nul" ]; then ok; else fail "an output was written"; fi

# the INI bomb: 1.7 KB, x9 would be 10^12 bytes; read through [access] time
copy vf "$F"
t=$(ls "$TMP/vf/perfrunner/"*.test)
{
  printf '[DEFAULT]\nx0 = %s\n' "$(printf 'A%.0s' $(seq 1000))"
  for k in 1 2 3 4 5 6 7 8 9; do
    printf 'x%d =' "$k"; for _ in 1 2 3 4 5 6 7 8 9 10; do printf ' %%(x%d)s' $((k - 1)); done; printf '\n'
  done
  sed 's/^time = .*/time = %(x9)s/' "$t"
} >"$t.new" && mv "$t.new" "$t"
line=$(grep -n '^time = %(x9)s' "$t" | cut -d: -f1)
[ -n "$line" ] && ok || fail "the test has no [access] time to read"
# limited FILE...: runs perfdelta in 1 GiB of address space (a compare of the seed takes
# far less; the bomb would take 1 TB)
# (ASan and TSan reserve terabytes of shadow memory: no limit there)
limited() {
  if grep -qE "__[at]san_init" "$PERFDELTA"; then "$PERFDELTA" "$@"; return; fi
  bash -c 'ulimit -v 1048576 && exec "$0" "$@"' "$PERFDELTA" "$@"
}
expect_code 3 limited compare "$B" "$TMP/vf" -o "$TMP/bomb" --quiet
has "$TMP/err" "^perfdelta: $t:$line: \[access\] time: interpolation expands past 1048576 bytes"
# unread, it costs nothing and the comparison runs
sed -i "s/^time = %(x9)s/time = 1200/" "$t"
expect_code 1 limited compare "$B" "$TMP/vf" -o "$TMP/bomb" --quiet
finish
