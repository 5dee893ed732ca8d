# The man page, --help and the parser name the same flags, the man page's FINDINGS the
# finding kinds the code has, and the man page renders cleanly. The page is the build's
# (pd_mangen writes its options from the flag tables into cli/perfdelta.1.in's markers).
. "$(dirname "$0")/lib.sh"
man=$BUILD/perfdelta.1
# every option is written from a table: the template's option sections hold no entry of
# their own, and the page has each table's (as many entries as --help has flag lines)
awk '/^\.SH /{on = ($0 ~ /OPTIONS|LIMITS/)} on && /^\.TP/' "$SRC/cli/perfdelta.1.in" >"$TMP/tmpl.tp"
if [ ! -s "$TMP/tmpl.tp" ]; then ok; else fail "the template's option sections hold $(wc -l <"$TMP/tmpl.tp") entries by hand"; fi
for m in '@OPTIONS@' '@PULL OPTIONS@' '@LIMITS@' '@HISTORY OPTIONS@'; do
  hasf "$SRC/cli/perfdelta.1.in" ".\\\" $m"
  if grep -qF "$m" "$man"; then fail "$m left in the page"; else ok; fi
done
expect_code 0 "$PERFDELTA" --help
n_help=$(grep -cE '^  (-[a-z], )?--[a-z]' "$TMP/out")
expect_code 0 "$PERFDELTA" history --help
n_help=$((n_help + $(grep -cE '^  (-[a-z], )?--[a-z]' "$TMP/out")))
n_man=$(awk '/^\.SH /{on = ($0 ~ /OPTIONS|LIMITS/)} on && /^\.TP/' "$man" | wc -l)
if [ "$n_man" = "$n_help" ]; then ok; else fail "the page has $n_man option entries, --help $n_help flag lines"; fi
sed 's/\\-/-/g' "$man" | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u >"$TMP/man.flags"

# every --help: the whole one, each command's, and perfdelta-history's
: >"$TMP/help.all"
for cmd in "" compare inspect demo pull history; do
  # shellcheck disable=SC2086 # an empty $cmd is no argument
  expect_code 0 "$PERFDELTA" $cmd --help
  cat "$TMP/out" >>"$TMP/help.all"
done
grep -oE -- '--[a-z][a-z0-9-]+' "$TMP/help.all" | sort -u >"$TMP/help.flags"
missing=$(comm -23 "$TMP/help.flags" "$TMP/man.flags" | tr '\n' ' ')
if [ -z "$missing" ]; then ok; else fail "in --help but not in the man page: $missing"; fi
missing=$(comm -13 "$TMP/help.flags" "$TMP/man.flags" | tr '\n' ' ')
if [ -z "$missing" ]; then ok; else fail "in the man page but not in --help: $missing"; fi

# every flag of the man page is taken by some command's parser: given it (and a value, in
# case it takes one) before a flag that exists nowhere, some command objects to the
# latter or to the value, never calls the flag itself unknown. Run in $TMP: nothing runs
# past the unknown flag, and nothing may be written elsewhere if it did.
refused=
while read -r flag; do
  taken=0
  for cmd in compare inspect demo pull "history add" "history report" signature \
    "demo --history"; do
    # shellcheck disable=SC2086 # $cmd is one or two words
    (cd "$TMP" && timeout 20 "$PERFDELTA" $cmd "$flag" 1 --no-such-flag-anywhere \
      </dev/null >/dev/null 2>"$TMP/flag.err")
    if ! grep -qF -- "unknown option '$flag'" "$TMP/flag.err"; then taken=1; break; fi
  done
  [ "$taken" = 1 ] || refused="$refused $flag"
done <"$TMP/man.flags"
if [ -z "$refused" ]; then ok; else fail "in the man page, refused by every command:$refused"; fi

# FINDINGS lists exactly the kinds of pd_finding_kind_name (tree/tree.c)
sed -n '/pd_finding_kind_name(enum/,/return names/p' "$SRC/tree/tree.c" |
  grep -oE '= "[a-z-]+"' | tr -d '= "' | sort >"$TMP/code.kinds"
awk '/^\.SH /{on = ($2 == "FINDINGS")} on' "$man" | sed -n '/^\.TP/{n;p}' |
  sed 's/^\.BR* //; s/\\-/-/g' | sort >"$TMP/man.kinds"
if [ -s "$TMP/code.kinds" ] && cmp -s "$TMP/code.kinds" "$TMP/man.kinds"; then ok
else fail "FINDINGS and pd_finding_kind_name differ: $(diff "$TMP/code.kinds" "$TMP/man.kinds" | grep '^[<>]' | tr '\n' ' ')"; fi
if grep -qi 'planned' "$man"; then fail "the man page calls something planned"; else ok; fi

# The exit codes: cli/exit.h's enum is the only table of them in cli/, and the man page's
# EXIT STATUS, --help and docs/reference.md list exactly its codes (the signals' 128 + N
# apart, core/cleanup.h).
sed -n 's/^[[:space:]]*PD_EXIT_[A-Z]* = \([0-9]*\).*/\1/p' "$SRC/cli/exit.h" | sort >"$TMP/code.exits"
owners=$(grep -lE '(EXIT_[A-Z]+|_HX_(OK|USAGE|INPUT)) *= *[0-9]|define [A-Z_]*EXIT[A-Z_]* [0-9]' "$SRC"/cli/*.[ch] |
  grep -v '/cli/exit\.h$' | tr '\n' ' ')
if [ -z "$owners" ]; then ok; else fail "exit codes defined beside cli/exit.h: $owners"; fi
awk '/^\.SH /{on = ($2 == "EXIT")} on' "$man" | sed -n '/^\.TP/{n;p}' |
  grep -oE '^\.B [0-9]$' | tr -dc '0-9\n' | sort >"$TMP/man.exits"
sed -n '/^| code | meaning/,/^$/p' "$SRC/docs/reference.md" | grep -oE '^\| [0-9] \|' |
  tr -dc '0-9\n' | sort >"$TMP/doc.exits"
expect_code 0 "$PERFDELTA" --help
sed -n '/^exit codes:/,$p' "$TMP/out" | grep -oE '(^|[:,] )[0-9] ' | tr -dc '0-9\n' | sort >"$TMP/help.exits"
for f in man doc help; do
  if [ -s "$TMP/code.exits" ] && cmp -s "$TMP/code.exits" "$TMP/$f.exits"; then ok
  else fail "$f's exit codes differ from cli/exit.h: $(diff "$TMP/code.exits" "$TMP/$f.exits" | grep '^[<>]' | tr '\n' ' ')"; fi
done

if groff -man -Tutf8 -ww -z "$man" 2>"$TMP/groff.err" && [ ! -s "$TMP/groff.err" ]; then ok
else fail "groff (groff-base) missing or warns: $(head -1 "$TMP/groff.err")"; fi
finish
