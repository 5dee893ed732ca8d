# A bundle as a zip (Jenkins' "all files in zip" of a build's artifacts: archive.zip, the
# run under archive/): read in process through libarchive like a tarball, its single
# top-level directories stepped into, with the tarball's checks (no "..", the size budget,
# a damaged archive named).
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
cat >"$TMP/mkzip.py" <<'PY'
import os, sys, zipfile
out, run, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in sorted(os.walk(run)):
        for f in sorted(files):
            p = os.path.join(root, f)
            z.write(p, prefix + os.path.relpath(p, run))
    for extra in sys.argv[4:]:
        z.writestr(extra, "x")
PY
python3 "$TMP/mkzip.py" "$TMP/archive.zip" "$F" archive/failover/
python3 "$TMP/mkzip.py" "$TMP/flat.zip" "$B" ''
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/dirs" --quiet
expect_code 1 "$PERFDELTA" compare "$TMP/flat.zip" "$TMP/archive.zip" -o "$TMP/zips" --quiet
# the same comparison as from the directories
if python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in ("baseline", "target"):
    a[r].pop("bundle", None); b[r].pop("bundle", None)
a.pop("baselines", None); b.pop("baselines", None)
sys.exit(a != b)' "$TMP/dirs/summary.json" "$TMP/zips/summary.json"; then ok
else fail "the zips compare otherwise than the directories"; fi
expect_code 0 "$PERFDELTA" inspect "$TMP/archive.zip"
# a member that climbs out, a damaged zip, the size budget: exit 3, the archive named
python3 "$TMP/mkzip.py" "$TMP/evil.zip" "$F" '' '../evil'
expect_code 3 "$PERFDELTA" compare "$B" "$TMP/evil.zip" -o "$TMP/evil" --quiet
has "$TMP/err" 'evil\.zip'
head -c 100000 "$TMP/archive.zip" >"$TMP/cut.zip"
expect_code 3 "$PERFDELTA" compare "$B" "$TMP/cut.zip" -o "$TMP/cut" --quiet
has "$TMP/err" 'cut\.zip'
expect_code 3 "$PERFDELTA" compare "$B" "$TMP/archive.zip" -o "$TMP/big" --quiet --max-bundle-size 100000
has "$TMP/err" 'archive\.zip'
for d in evil cut big; do if [ -e "$TMP/$d" ]; then fail "$d: an output was left"; else ok; fi; done
finish
