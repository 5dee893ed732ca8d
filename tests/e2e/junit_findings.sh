# Every finding is visible in Jenkins' test report (render/junit.c): its text in a testcase
# (a finding that states a delta in that delta's testcase, with every other finding that
# states it; one that states none in its own), every reason the runs are not comparable,
# no two testcases of one name (Jenkins would keep one), the text escaped, and the file
# valid against the xunit plugin's junit-10.xsd. Cases: the seed (its kpi-scope,
# kpi-change and recovery findings state a passing delta), both runs with a hole in the
# same series (two data-gap findings, phase null, about the same series and node), two
# workload keys that differ, one of them holding markup, quotes and a control byte.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
xsd=$SRC/fixtures/junit/junit-10.xsd
if ! command -v xmllint >/dev/null; then fail "xmllint is not installed (scripts/deps test installs libxml2-utils)"; finish; exit 1; fi
# hole RUN: a 100 s hole (20 samples) in one kv node's memcached CPU of RUN
hole() {
  local f
  f=$(find "$1/perfdb" -path '*17223100211/memcached_cpu.json')
  tr -d '\n' <"$f" | sed 's/\],\[/]\n[/g' >"$TMP/samples"
  n=$(wc -l <"$TMP/samples")
  { sed -n "1,$((n / 2))p" "$TMP/samples"; sed -n "$((n / 2 + 21)),\$p" "$TMP/samples"; } |
    paste -sd, >"$f"
}
cp -r "$B" "$TMP/bgap" && hole "$TMP/bgap"
cp -r "$F" "$TMP/tgap" && hole "$TMP/tgap"
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/seed" --quiet
expect_code 1 "$PERFDELTA" compare "$TMP/bgap" "$TMP/tgap" -o "$TMP/gaps" --quiet
cp -r "$TMP/bgap" "$TMP/other"
sed -i "s/^workers = 20\$/workers = <w\&\"x'\x01]]>/; s/^time = \\(.*\\)\$/time = 1\\1/" "$TMP/other"/perfrunner/*.test
expect_code 4 "$PERFDELTA" compare "$TMP/other" "$TMP/tgap" -o "$TMP/nc" --quiet
# a series no estimate can be made of (values near DBL_MAX: every mean overflows): its
# testcase's line still reads ("no estimate (adjusted p 1)", not "no estimate (, adjusted")
cp -r "$F" "$TMP/huge"
f=$(find "$TMP/huge/perfdb" -path '*17223100211/memcached_cpu.json')
sed -i 's/,[0-9.]*\]/,1.7e308]/g' "$f"
expect_code 1 "$PERFDELTA" compare "$B" "$TMP/huge" -o "$TMP/huge-rep" --quiet
has "$TMP/huge-rep/junit.xml" 'memcached_cpu node:172\.23\.100\.211 whole: no estimate \(adjusted p'
hasnt "$TMP/huge-rep/junit.xml" '\(, '
cat >"$TMP/visible.py" <<'PY'
import json, re, sys, html, collections
summary, junit = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
names = re.findall(r'<testcase classname="([^"]*)" name="([^"]*)"', junit)
dup = [k for k, n in collections.Counter(names).items() if n > 1]
text = html.unescape(junit)
# the control byte becomes U+FFFD, as XML 1.0 cannot hold it
missing = [f["kind"] + ": " + f["text"][:70] for f in summary["findings"]
           if f["text"].replace("\x01", "\ufffd") not in text]
kinds = collections.Counter(f["kind"] for f in summary["findings"])
print(len(summary["findings"]), "findings", dict(kinds), "; not in junit.xml:", missing[:4],
      "; testcases named twice:", dup[:3])
sys.exit(1 if missing or dup else 0)
PY
for r in seed gaps nc huge-rep; do
  if xmllint --noout --schema "$xsd" "$TMP/$r/junit.xml" 2>"$TMP/xsd.err"; then ok
  else fail "$r/junit.xml does not validate: $(head -3 "$TMP/xsd.err")"; fi
  if python3 "$TMP/visible.py" "$TMP/$r/summary.json" "$TMP/$r/junit.xml" >"$TMP/v.out"; then ok
  else fail "$r: $(cat "$TMP/v.out")"; fi
done
# the cases exist: two data-gap findings and two not-comparable ones
has "$TMP/gaps/summary.json" '"kind":"data-gap".*"kind":"data-gap"'
has "$TMP/nc/summary.json" '"kind":"not-comparable".*"kind":"not-comparable"'
has "$TMP/seed/summary.json" '"kind":"kpi-change"'
hasf "$TMP/nc/junit.xml" "&lt;w&amp;&quot;x&apos;"
finish
