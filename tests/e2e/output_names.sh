# Any legal -o name works, and an output the report cannot replace is refused before any
# work: a Latin-1 byte, "\U", a newline or quotes in the path reach gnuplot
# intact; a 250-byte name has its temporary sibling; "." and "$PWD" (or a directory that
# holds the working directory) are refused at once; two runs writing one -o end with one
# complete report and nothing else.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
# report DIR: DIR is a whole report: index.html, summary.json, charts, every file its
# marker lists, nothing beside it
report() {
  local d=$1 name missing=0
  if [ -s "$d/index.html" ] && [ -s "$d/summary.json" ] && ls "$d/charts/"*.svg >/dev/null 2>&1; then ok
  else fail "$d: not a whole report"; fi
  while IFS= read -r name; do
    [ -e "$d/${name%%	*}" ] || missing=$((missing + 1))
  done < <(tail -n +2 "$d/.perfdelta-files")
  if [ "$missing" = 0 ]; then ok; else fail "$d: $missing listed files missing"; fi
  local left; left=$(ls -A "$(dirname "$d")" | grep -E '\.(tmp|old)-' || true)
  if [ -z "$left" ]; then ok; else fail "left beside it: $left"; fi
}
mkdir "$TMP/names"
for name in "$(printf 'r\351p')" 'a\Ub' "$(printf 'new\nline')" "q'\"z" "$(printf 'n%.0s' $(seq 250))"; do
  expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/names/$name" --quiet
  report "$TMP/names/$name"
  # and once more: the earlier report is replaced
  expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/names/$name" --quiet
  report "$TMP/names/$name"
  rm -rf "${TMP:?}/names/$name"
done

# the working directory, given as ".", as its path or as a directory holding it
mkdir -p "$TMP/cwd/here"
for out in . "$TMP/cwd/here" "$TMP/cwd" "$TMP/cwd/here/.."; do
  (cd "$TMP/cwd/here" && exec "$PERFDELTA" compare "$B" "$F" -o "$out" --quiet --timings) >"$TMP/out" 2>"$TMP/err"
  rc=$?
  if [ "$rc" = 3 ]; then ok; else fail "-o $out from the working directory: exit $rc (want 3)"; fi
  lines "$TMP/err" 1
  has "$TMP/err" "refusing to replace the working directory or one that holds it"
  hasnt "$TMP/err" 'timings' # refused before reading the runs
done
if [ -z "$(ls -A "$TMP/cwd/here")" ] && [ "$(ls -A "$TMP/cwd")" = here ]; then ok; else fail "something was written"; fi

# an output inside one of the runs (it would be read as part of that run next time) is
# refused before any work, made or not yet, relative or absolute; a sibling whose name
# only begins with the run's is not inside it
cp -r "$B" "$TMP/runb" && cp -r "$F" "$TMP/runf"
for out in "$TMP/runf/perfdb/out" "$TMP/runb/new/deeper" "$TMP/runf"; do
  expect_code 3 "$PERFDELTA" compare "$TMP/runb" "$TMP/runf" -o "$out" --quiet --timings
  lines "$TMP/err" 1
  has "$TMP/err" "refusing (an output inside the run|to replace it)"
  hasnt "$TMP/err" 'timings'
done
(cd "$TMP/runf" && exec "$PERFDELTA" compare ../runb . -o rep --quiet) >"$TMP/out" 2>"$TMP/err"
if [ $? = 3 ]; then ok; else fail "-o rep inside the run given as '.' was not refused"; fi
has "$TMP/err" "refusing an output inside the run \\.|refusing an output inside the run \\."
if [ ! -e "$TMP/runf/rep" ] && [ ! -e "$TMP/runf/perfdb/out" ]; then ok; else fail "an output was written into a run"; fi
expect_code 1 "$PERFDELTA" compare "$TMP/runb" "$TMP/runf" -o "$TMP/runf2" --quiet

# two runs on one -o at once: the test holds the commit turn (an flock on the directory
# that holds the output) until both are ready to commit (their marker written), then
# lets them go (they must not inherit the test's descriptor: its lock would be theirs); each ends 1, one whole report stays and nothing else
mkdir "$TMP/two"
exec 9<"$TMP/two"
flock 9
"$PERFDELTA" compare "$B" "$F" -o "$TMP/two/rep" --quiet 2>"$TMP/err.a" 9<&- &
pa=$!
"$PERFDELTA" compare "$B" "$F" -o "$TMP/two/rep" --quiet 2>"$TMP/err.b" 9<&- &
pb=$!
for _ in $(seq 600); do
  [ "$(ls "$TMP"/two/rep.tmp-*/.perfdelta-files 2>/dev/null | wc -l)" = 2 ] && break
  sleep 0.05
done
if [ "$(ls "$TMP"/two/rep.tmp-*/.perfdelta-files 2>/dev/null | wc -l)" = 2 ]; then ok; else fail "the runs never reached their commit"; fi
exec 9<&-
wait "$pa"; ra=$? ; wait "$pb"; rb=$?
if [ "$ra:$rb" = 1:1 ]; then ok; else fail "two writers: exit $ra and $rb (want 1 and 1): $(cat "$TMP/err.a" "$TMP/err.b")"; fi
report "$TMP/two/rep"
finish
