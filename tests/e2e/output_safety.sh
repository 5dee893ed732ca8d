# Nothing of the user's lost, nothing left behind: -o replaces only perfdelta's own
# output, a hanging or broken gnuplot and SIGINT/SIGTERM end cleanly (exit 3, 130, 143)
# with the old report intact, no temporary directory and no gnuplot left, and an error
# line is one line whatever bytes a path holds. gnuplot is found on PATH, so a fake one
# first on PATH stands in for a hanging or broken one.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
# leftovers DIR: what perfdelta may have left beside its outputs in DIR
leftovers() { ls -A "$1" | grep -E '\.(tmp|old)-' || true; }
no_leftovers() { local l; l=$(leftovers "$1"); if [ -z "$l" ]; then ok; else fail "left behind: $l"; fi; }
# gone PID WHAT: PID ends within 10 s (a zombie that init has not reaped yet has ended too)
alive() { kill -0 "$1" 2>/dev/null && [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
gone() {
  for _ in $(seq 200); do alive "$1" || break; sleep 0.05; done
  if alive "$1"; then fail "process $1 ($2) still runs after 10 s"; kill -9 "$1"; else ok; fi
}
same() { if cmp -s "$1" "$2"; then ok; else fail "$2 changed"; fi; }

# 1. a directory of the user's whose index.html mentions perfdelta is not a report
u=$TMP/user
mkdir -p "$u/sub" && echo notes >"$u/notes.txt" && echo kept >"$u/sub/x"
echo '<html><p>my perfdelta notes</p></html>' >"$u/index.html"
expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$u" --quiet
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: $u: refusing to replace it: it is not empty and not a perfdelta output"
has "$u/notes.txt" '^notes$'
has "$u/sub/x" '^kept$'
has "$u/index.html" 'my perfdelta notes'
no_leftovers "$TMP"

# 2. a hand-written page mentioning perfdelta is not replaced by --single-file
echo '<!DOCTYPE html><title>perfdelta</title><meta name="generator" content="perfdelta 0.1.0">' >"$TMP/x.html"
cp "$TMP/x.html" "$TMP/x.orig"
expect_code 3 "$PERFDELTA" compare "$B" "$F" --single-file -o "$TMP/x.html" --quiet
lines "$TMP/err" 1
has "$TMP/err" "refusing to replace it: it is not a page perfdelta wrote"
same "$TMP/x.orig" "$TMP/x.html"

# 3. perfdelta's own outputs are replaced, twice over; one with a file added is not
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet
has "$TMP/rep/.perfdelta-files" '^charts/$'
has "$TMP/rep/.perfdelta-files" $'^summary\\.json\t[0-9]+ [0-9]+\\.[0-9]{9}$'
# each file's stamp is its size and mtime, as stat(1) tells them
hasf "$TMP/rep/.perfdelta-files" "summary.json$(printf '\t')$(stat -c '%s %.9Y' "$TMP/rep/summary.json")"
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet --label-target second
has "$TMP/rep/summary.json" 'second'
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/page.html" --quiet
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/page.html" --single-file --quiet
if [ "$(tail -n 1 "$TMP/page.html")" = '<!-- written by perfdelta: perfdelta -o may replace this file -->' ]; then ok; else fail "page.html lacks its closing mark"; fi
echo mine >"$TMP/rep/charts/mine.svg"
expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet
has "$TMP/err" "refusing to replace it: it holds 'charts/mine.svg', which perfdelta did not write"
rm "$TMP/rep/charts/mine.svg"
cp "$TMP/rep/summary.json" "$TMP/summary.orig"
no_leftovers "$TMP"

# fake gnuplots, first on PATH
fake=$TMP/fakebin
mkdir -p "$fake"
cat >"$fake/hang" <<SH
#!/bin/sh
echo \$\$ >"$TMP/gnuplot.pid"
date +%s%N >>"$TMP/gnuplot.start"
exec sleep 600
SH
# writes garbage into every chart, then says it is done as gnuplot would
cat >"$fake/garbage" <<'SH'
#!/bin/sh
# (the path is a double-quoted string; this test's paths need no escape in it)
out() { sed -n 's/^set output "\(.*\)"$/\1/p' "$1" | while read -r f; do printf 'garbage' >"$f"; done; }
out /dev/stdin
cat /dev/fd/4 >/dev/null
out /dev/fd/6
echo pd-plot-done >&2
SH
chmod +x "$fake/hang" "$fake/garbage"
use_fake() { ln -sf "$fake/$1" "$fake/gnuplot"; rm -f "$TMP/gnuplot.pid" "$TMP/gnuplot.start"; }
# ended_within SECS WHAT: perfdelta ended (now) within SECS of the first fake gnuplot's start;
# measured from gnuplot's start, so the analysis before it (slow on a loaded machine) is
# not counted, only the watchdog
ended_within() {
  local end first took
  end=$(now_ns)
  if [ ! -s "$TMP/gnuplot.start" ]; then fail "$2: the fake gnuplot never ran"; return; fi
  first=$(sort -n "$TMP/gnuplot.start" | head -n 1)
  took=$(((end - first) / 1000000))
  if [ "$took" -lt $(($1 * 1000)) ]; then ok; else fail "$2 took $took ms after gnuplot started"; fi
}

# 4. a hanging gnuplot is ended by the watchdog
# (no progress for 2 s ends it: 10 s from its start leaves room for a loaded machine)
use_fake hang
PATH=$fake:$PATH expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet --gnuplot-timeout 2
ended_within 10 "the watchdog"
lines "$TMP/err" 1
has "$TMP/err" '^perfdelta: gnuplot made no progress for 2 s and was ended'
if [ -s "$TMP/gnuplot.pid" ]; then gone "$(cat "$TMP/gnuplot.pid")" "the hanging gnuplot"; else fail "the fake gnuplot never ran"; fi
same "$TMP/summary.orig" "$TMP/rep/summary.json"
no_leftovers "$TMP"

# 4b. noise is no progress: a gnuplot that floods its stderr, or copies /dev/zero to
# /dev/null, is ended as a hanging one; one that crawls through its script (a line per
# 50 ms: progress, but never done) is ended by the total cap, 20 times the timeout (perl sleeps
# without a fork per line, so a loaded machine cannot starve it of progress for 0.5 s); it
# crawls through the metric charts' script, the first it is given (/dev/fd/6: its stdin
# only waits for it)
started='echo $$ >"%s/gnuplot.pid"\ndate +%%s%%N >>"%s/gnuplot.start"\n'
printf "#!/bin/sh\n$started"'exec yes warning >&2\n' "$TMP" "$TMP" >"$fake/noisy"
printf "#!/bin/sh\n$started"'exec cat /dev/zero >/dev/null\n' "$TMP" "$TMP" >"$fake/zero"
printf "#!/bin/sh\n$started"'exec perl -e '"'"'open(my $f, "<", "/dev/fd/6") or die; while (1) { sysread($f, $c, 64); select(undef, undef, undef, 0.05) }'"'"'\n' "$TMP" "$TMP" >"$fake/crawl"
chmod +x "$fake/noisy" "$fake/zero" "$fake/crawl"
for f in noisy:2 zero:2 crawl:0.5; do
  use_fake "${f%:*}"
  PATH=$fake:$PATH expect_code 3 timeout 300 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet --gnuplot-timeout "${f#*:}"
  # ended 2 s after no progress, or by the 10 s total cap (crawl): 18 s from its start
  ended_within 18 "the ${f%:*} gnuplot"
  lines "$TMP/err" 1
  case ${f%:*} in
  crawl) hasf "$TMP/err" "perfdelta: gnuplot ran for 10 s and was ended (at most 20 times --gnuplot-timeout)" ;;
  *) hasf "$TMP/err" "perfdelta: gnuplot made no progress for 2 s and was ended" ;;
  esac
  if [ -s "$TMP/gnuplot.pid" ]; then gone "$(cat "$TMP/gnuplot.pid")" "the ${f%:*} gnuplot"; else fail "the fake gnuplot never ran"; fi
  same "$TMP/summary.orig" "$TMP/rep/summary.json"
  no_leftovers "$TMP"
done

# 5. a gnuplot that writes garbage SVG does not replace the report
use_fake garbage
PATH=$fake:$PATH expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet
lines "$TMP/err" 1
has "$TMP/err" 'gnuplot wrote no valid SVG for chart [a-z0-9]+\.svg \(7 bytes'
same "$TMP/summary.orig" "$TMP/rep/summary.json"
no_leftovers "$TMP"

# 6. SIGINT and SIGTERM mid-run (gnuplot hangs, so the run is surely mid-way)
set -m # background jobs get SIGINT as a terminal would give it, not ignored
for sig in INT:130 TERM:143 QUIT:131; do
  use_fake hang
  PATH=$fake:$PATH "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet 2>"$TMP/err" &
  pd=$!
  if wait_for 120 test -s "$TMP/gnuplot.pid"; then ok; else fail "SIG${sig%:*}: gnuplot never started"; fi
  kill -"${sig%:*}" "$pd"
  wait "$pd"; rc=$?
  if [ "$rc" = "${sig#*:}" ]; then ok; else fail "SIG${sig%:*}: exit $rc, want ${sig#*:}"; fi
  gone "$(cat "$TMP/gnuplot.pid")" "gnuplot after SIG${sig%:*}"
  same "$TMP/summary.orig" "$TMP/rep/summary.json"
  no_leftovers "$TMP"
done
set +m

# 6b. SIGKILL: nothing can run perfdelta's cleanup, yet gnuplot dies with it
# (PR_SET_PDEATHSIG)
use_fake hang
PATH=$fake:$PATH "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet 2>"$TMP/err" &
pd=$!
wait_for 120 test -s "$TMP/gnuplot.pid" || fail "SIGKILL: gnuplot never started"
kill -KILL "$pd"
wait "$pd" 2>/dev/null
gone "$(cat "$TMP/gnuplot.pid")" "gnuplot after SIGKILL"
# its temporary directory stays (a SIGKILL cannot be caught), marked with the dead pid;
# the next run on rep removes it, but not a look-alike of the user's nor one whose owner
# still runs (this shell)
left=$(leftovers "$TMP")
case $left in rep.tmp-??????) ok ;; *) fail "SIGKILL left '$left', want one rep.tmp-XXXXXX" ;; esac
hasf "$TMP/$left/.perfdelta-owner" "perfdelta temporary output of pid $pd"
mkdir "$TMP/rep.tmp-user01" "$TMP/rep.tmp-live01"
echo notes >"$TMP/rep.tmp-user01/notes.txt"
echo "perfdelta temporary output of pid $$" >"$TMP/rep.tmp-live01/.perfdelta-owner"
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet
if [ ! -e "$TMP/$left" ]; then ok; else fail "the dead run's $left stays"; fi
has "$TMP/rep.tmp-user01/notes.txt" '^notes$'
if [ -e "$TMP/rep.tmp-live01/.perfdelta-owner" ]; then ok; else fail "a live run's directory was removed"; fi
hasnt "$TMP/rep/.perfdelta-files" 'perfdelta-owner'
if [ -e "$TMP/rep/.perfdelta-owner" ]; then fail "the owner file reached the report"; else ok; fi
rm -rf "$TMP/rep.tmp-user01" "$TMP/rep.tmp-live01"
cp "$TMP/rep/summary.json" "$TMP/summary.orig"
no_leftovers "$TMP"

# 6c. past ulimit -f a write fails (SIGXFSZ ignored): exit 3 (the gnuplot script is
# the first file past 100 KiB), no temporary path named, and nothing left behind
(ulimit -f 100 && exec "$PERFDELTA" compare "$B" "$F" -o "$TMP/small" --quiet) >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 3 ]; then ok; else fail "ulimit -f: exit $rc (want 3)"; fi
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: .*: File too large$"
hasnt "$TMP/err" '\.tmp-'
if [ -e "$TMP/small" ]; then fail "a report was written past ulimit -f"; else ok; fi
no_leftovers "$TMP"

# 7. a newline and an ESC in a bundle's path: one error line, the bytes escaped
bad="$TMP/run
perfdelta: forged$(printf '\033')]0;title"
mkdir -p "$bad/perfdb"
expect_code 3 "$PERFDELTA" inspect "$bad"
lines "$TMP/err" 1
hasf "$TMP/err" 'run\x0aperfdelta: forged\x1b]0;title'
if grep -q "$(printf '\033')" "$TMP/err"; then fail "an ESC reached the terminal"; else ok; fi

# 9. a file added or edited while perfdelta runs is the user's: the output is checked
# again at commit (a slow gnuplot holds the run until the test has written: it waits for
# slow.go, 120 s at most)
real_gnuplot=$(command -v gnuplot)
cat >"$fake/slow" <<SH
#!/bin/sh
touch "$TMP/slow.started"
for _ in \$(seq 2400); do [ -e "$TMP/slow.go" ] && break; sleep 0.05; done
exec "$real_gnuplot" "\$@"
SH
chmod +x "$fake/slow"
# during OUT ACTION: compare into OUT with the slow gnuplot, ACTION (eval'd) once it runs
during() {
  use_fake slow
  rm -f "$TMP/slow.started" "$TMP/slow.go"
  PATH=$fake:$PATH "$PERFDELTA" compare "$B" "$F" -o "$1" --quiet "${@:3}" 2>"$TMP/err" &
  local pd=$!
  wait_for 120 test -e "$TMP/slow.started" || fail "the slow gnuplot never started"
  eval "$2"
  touch "$TMP/slow.go"
  wait "$pd"
  rc=$?
}
during "$TMP/rep" 'echo notes >"$TMP/rep/notes.txt"'
if [ "$rc" = 3 ]; then ok; else fail "a file added meanwhile: exit $rc (want 3)"; fi
lines "$TMP/err" 1
hasf "$TMP/err" "perfdelta: $TMP/rep: refusing to replace it: it holds 'notes.txt', which perfdelta did not write (changed while perfdelta ran"
has "$TMP/rep/notes.txt" '^notes$'
same "$TMP/summary.orig" "$TMP/rep/summary.json"
no_leftovers "$TMP"
rm "$TMP/rep/notes.txt"
# a new output directory the user makes meanwhile
during "$TMP/new" 'mkdir "$TMP/new" && echo mine >"$TMP/new/mine.txt"'
if [ "$rc" = 3 ]; then ok; else fail "a directory made meanwhile: exit $rc (want 3)"; fi
has "$TMP/new/mine.txt" '^mine$'
no_leftovers "$TMP"
# notes appended to a listed file: refused meanwhile, and by a later run
during "$TMP/rep" 'echo "<p>my notes</p>" >>"$TMP/rep/index.html"'
if [ "$rc" = 3 ]; then ok; else fail "index.html edited meanwhile: exit $rc (want 3)"; fi
hasf "$TMP/err" "perfdelta: $TMP/rep: refusing to replace it: 'index.html' changed since perfdelta wrote it"
has "$TMP/rep/index.html" 'my notes'
expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$TMP/rep" --quiet
hasf "$TMP/err" "'index.html' changed since perfdelta wrote it (choose a new output"
has "$TMP/rep/index.html" 'my notes'
same "$TMP/summary.orig" "$TMP/rep/summary.json"
# a single page edited meanwhile
during "$TMP/page.html" 'echo "my notes" >>"$TMP/page.html"' --single-file
if [ "$rc" = 3 ]; then ok; else fail "page.html edited meanwhile: exit $rc (want 3)"; fi
hasf "$TMP/err" "perfdelta: $TMP/page.html: refusing to replace it: it is not a page perfdelta wrote (changed while"
if [ "$(tail -n 1 "$TMP/page.html")" = 'my notes' ]; then ok; else fail "page.html lost its notes"; fi
no_leftovers "$TMP"

# 8. a count past 2^64 and a --metrics pattern that matches nothing are usage errors
expect_code 2 "$PERFDELTA" inspect "$B" --max-file-size 18446744073709551616
has "$TMP/err" "max-file-size needs a whole number from 1 to [0-9]+, not '18446744073709551616'"
expect_code 2 "$PERFDELTA" compare "$B" "$F" -o "$TMP/typo" --metrics 'atop/*,atpo/cpu' --quiet
has "$TMP/err" "^perfdelta: --metrics pattern 'atpo/cpu' matches no collector/metric of either run$"
if [ -e "$TMP/typo" ]; then fail "a report was written for a typo"; else ok; fi
# 8b. usage errors are one line, the argument's control bytes escaped; "--" ends the
# options; one number syntax (decimal) for every flag; an empty -o and a --threshold-for
# pattern that matches nothing are usage errors
esc=$(printf '\033')
expect_code 2 "$PERFDELTA" compare "$B" "$F" -o "$TMP/u" --fail-on "x${esc}[2J"
lines "$TMP/err" 1
hasf "$TMP/err" "perfdelta: --fail-on takes regression or never, not 'x\x1b[2J' (see perfdelta --help)"
expect_code 2 "$PERFDELTA" inspect "$B" "--bogus${esc}"
lines "$TMP/err" 1
hasf "$TMP/err" "unknown option '--bogus\x1b'"
if grep -q "$esc" "$TMP/err"; then fail "an ESC reached the terminal"; else ok; fi
mkdir -p "$TMP/dash" && cp -r "$B" "$TMP/dash/-run"
pd_abs=$(realpath "$PERFDELTA")
(cd "$TMP/dash" && "$pd_abs" inspect -- -run >"$TMP/out" 2>"$TMP/err")
if [ $? = 0 ]; then ok; else fail "inspect -- -run: $(cat "$TMP/err")"; fi
for v in 0x10 1e1 ' 5' +5 inf 5. .5; do
  expect_code 2 "$PERFDELTA" compare "$B" "$F" -o "$TMP/u" --threshold "$v"
  hasf "$TMP/err" "--threshold needs a percentage above 0, at most 1000, not '$v'"
done
expect_code 2 "$PERFDELTA" compare "$B" "$F" -o "$TMP/u" --gnuplot-timeout 0x3
expect_code 2 "$PERFDELTA" inspect "$B" --max-file-size 0x100000
# a time zone's hours and minutes are digits too: no second sign or space (sscanf's %d
# took "+-5:30" as -5 hours and 30 minutes) and two digits of minutes
for z in '+-5:30' '+ 5:30' '+5:3'; do
  expect_code 2 "$PERFDELTA" inspect "$B" --console-utc-offset "$z"
  hasf "$TMP/err" "perfdelta: --console-utc-offset needs +HH:MM or -HH:MM, not '$z'"
done
expect_code 0 "$PERFDELTA" inspect "$B" --console-utc-offset +5:30
expect_code 2 "$PERFDELTA" compare "$B" "$F" -o ''
hasf "$TMP/err" "perfdelta: --output needs a path, not ''"
expect_code 2 "$PERFDELTA" compare "$B" "$F" -o "$TMP/u" --quiet --threshold-for 'atpo/*=10'
hasf "$TMP/err" "perfdelta: --threshold-for pattern 'atpo/*' matches no collector/metric of either run"
if [ -e "$TMP/u" ]; then fail "a report was written for a typo"; else ok; fi
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/u" --quiet --threshold-for 'atop/*=10.5' --threshold 7
# the patterns' rule (fnmatch on "collector/metric") has one owner, analyze/align/views.c:
# the check above and the comparison cannot disagree on what a pattern matches
owners=$(cd "$SRC" && grep -rlE --include='*.[ch]' "fnmatch *\(|<fnmatch\.h>" core parse tree \
  analyze render cli history fetch | sort | tr '\n' ' ')
if [ "$owners" = "analyze/align/views.c " ]; then ok; else fail "fnmatch outside analyze/align/views.c: $owners"; fi
no_leftovers "$TMP"
finish
