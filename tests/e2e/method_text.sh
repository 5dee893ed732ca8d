# The method the code uses, in every place that describes it: summary.json's
# inference.method and .family are the one source (analyze/judge/verdict.c); the HTML's Changes
# note, summary.md, docs/report.md, docs/CONTRIBUTING.md and the man page must hold both
# strings (whitespace and markup aside). And CONTRIBUTING's table of where the rules live
# names functions that exist in the files it names.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
"$PERFDELTA" compare "$SEED/baseline" "$SEED/failover" -o "$TMP/out" --fail-on never >/dev/null 2>&1 ||
  fail "compare failed"
python3 - "$TMP/out" "$SRC" "$BUILD/perfdelta.1" <<'PY' || fail "the method text differs somewhere (above)"
import html, json, re, sys
out, src, man = sys.argv[1], sys.argv[2], sys.argv[3]
inf = json.load(open(f"{out}/summary.json"))["inference"]
def norm(text):
    text = re.sub(r"\\f[BIRP]|\\&", "", text)        # roff fonts
    text = text.replace("\\-", "-")
    text = re.sub(r"^\.(B|BR|RB|I|TP|PP)\b ?", "", text, flags=re.M)
    text = re.sub(r"^> ?", "", text, flags=re.M)      # Markdown quotes
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return re.sub(r"\s+", " ", text)
bad = 0
places = [f"{out}/index.html", f"{out}/summary.md", f"{src}/docs/report.md",
          f"{src}/docs/CONTRIBUTING.md", man]
for path in places:
    text = norm(open(path).read())
    for key in ("method", "family"):
        if norm(inf[key]) not in text:
            print(f"FAIL: {path} does not state inference.{key}: {inf[key]!r}", file=sys.stderr)
            bad += 1
for stale in ("Mann-Whitney", "Holm", "median</th>", "95% CI</th>"):
    for path in (f"{out}/index.html", man):
        if stale in open(path).read():
            print(f"FAIL: {path} still says {stale!r}", file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY
ok
# CONTRIBUTING's table: "| rule | path/file.c `fn`, `fn2` ... |"
python3 - "$SRC" <<'PY' || fail "CONTRIBUTING.md names a function that does not exist"
import re, sys
src = sys.argv[1]
text = open(f"{src}/docs/CONTRIBUTING.md").read()
table = text[text.index("| rule | where |"):].split("\n\n")[0]
bad = n = 0
for row in table.splitlines()[2:]:
    cell = row.split("|")[2]
    for m in re.finditer(r"((?:core|parse|tree|analyze|render|fetch|cli)/[\w/]+\.c)((?:[ ,]+`\w+`)+)", cell):
        body = open(f"{src}/{m.group(1)}").read()
        for fn in re.findall(r"`(\w+)`", m.group(2)):
            n += 1
            if not re.search(rf"^[a-z].*\b{fn}\(", body, re.M):
                print(f"FAIL: {m.group(1)} has no function {fn}", file=sys.stderr)
                bad += 1
print(f"{n} functions named")
sys.exit(1 if bad or n < 10 else 0)
PY
ok
finish
