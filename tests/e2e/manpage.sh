# The man page and --help name the same flags, and the man page renders cleanly.
. "$(dirname "$0")/lib.sh"
man=$SRC/cli/perfdelta.1
expect_code 0 "$PERFDELTA" --help
grep -oE -- '--[a-z][a-z-]+' "$TMP/out" | sort -u >"$TMP/help.flags"
sed 's/\\-/-/g' "$man" | grep -oE -- '--[a-z][a-z-]+' | sort -u >"$TMP/man.flags"
missing=$(comm -23 "$TMP/help.flags" "$TMP/man.flags" | tr '\n' ' ')
if [ -z "$missing" ]; then ok; else fail "in --help but not in the man page: $missing"; fi
missing=$(comm -13 "$TMP/help.flags" "$TMP/man.flags" | tr '\n' ' ')
if [ -z "$missing" ]; then ok; else fail "in the man page but not in --help: $missing"; fi
if groff -man -Tutf8 -ww -z "$man" 2>"$TMP/groff.err" && [ ! -s "$TMP/groff.err" ]; then ok
else fail "groff (groff-base) missing or warns: $(head -1 "$TMP/groff.err")"; fi
finish
