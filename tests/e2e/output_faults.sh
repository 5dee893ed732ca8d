# Nothing lost: a full disk, a read-only directory and a symlinked output are clear
# errors (exit 3, one line naming the place), leave no temporary directory behind, and an
# existing report survives. Needs root for tmpfs mounts; skipped (77) otherwise.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
mnt=$TMP/mnt
mkdir -p "$mnt"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=200k tmpfs "$mnt" 2>/dev/null; then
  echo "skipped: tmpfs mounts need root"; exit 77
fi
trap 'umount "$mnt" 2>/dev/null; rm -rf "$TMP"' EXIT

# a full disk: the old report stays, nothing half-written stays
mkdir "$mnt/out" && echo old >"$mnt/out/summary.json" && echo '<title>perfdelta</title>' >"$mnt/out/index.html"
printf 'perfdelta output: the files below were written by perfdelta\nsummary.json\nindex.html\n' >"$mnt/out/.perfdelta-files"
expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$mnt/out" --quiet
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: $mnt/out/[^:]+: cannot write: No space left on device$"
has "$mnt/out/summary.json" '^old$'
left=$(ls -A "$mnt" | grep -v '^out$' || true)
if [ -z "$left" ]; then ok; else fail "left behind on a full disk: $left"; fi
umount "$mnt"

# a read-only directory
mount -t tmpfs -o size=10m,ro tmpfs "$mnt"
expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$mnt/out" --quiet
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: $mnt/out: cannot create the output beside it: Read-only file system"
umount "$mnt"

# an output path that is a symlink is not followed out of place
mkdir "$TMP/elsewhere" && echo keep >"$TMP/elsewhere/file"
ln -s "$TMP/elsewhere" "$TMP/link"
expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$TMP/link" --quiet
has "$TMP/err" 'exists and is not a directory'
has "$TMP/elsewhere/file" '^keep$'
if [ "$(ls -A "$TMP/elsewhere")" = file ]; then ok; else fail "wrote through the symlink"; fi

# an existing directory or file that is not a report is never replaced
mkdir "$TMP/home" && echo precious >"$TMP/home/notes.txt"
expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$TMP/home" --quiet
has "$TMP/err" 'refusing to replace it: it is not empty and not a perfdelta output'
has "$TMP/home/notes.txt" '^precious$'
echo '<html>mine</html>' >"$TMP/page.html"
expect_code 3 "$PERFDELTA" compare "$B" "$F" --single-file -o "$TMP/page.html" --quiet
has "$TMP/page.html" 'mine'
# an empty directory, and an earlier report, are fine
mkdir "$TMP/empty"
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/empty" --quiet
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/empty" --quiet
finish
