# Hostile URLs given to compare (issue 25): a URL naming no build (nothing after the
# scheme) is refused, never the cache directory itself read as a run.
. "$(dirname "$0")/lib.sh"
export PERFDELTA_CACHE=$TMP/cache
mkdir -p "$TMP/cache/builds/127.0.0.1_1_job_j_1"
for u in 'http:///' 'https://' 'http://///'; do
  expect_code 2 timeout 30 "$PERFDELTA" compare "$u" "$SEED/baseline" -o "$TMP/o"
  has "$TMP/err" "^perfdelta: $u: expected a Jenkins build URL or a cbmonitor comparison URL"
  hasnt "$TMP/err" "reusing"
  if [ ! -e "$TMP/o" ]; then ok; else fail "$u: output written"; fi
done
finish
