# Hostile bundles: only regular files inside the bundle
# are read, a FIFO is an error and never a hang, a tarball is read in process (no tar, no
# rsh, nothing written anywhere) under --max-file-size and --max-bundle-size, and sample
# times out of 2000..2100 are input errors. Every run is under `timeout 20`, so that a
# hang fails instead of hanging the suite.
. "$(dirname "$0")/lib.sh"
PERFDELTA=$(realpath "$PERFDELTA")
# (200 under TSan: it runs 5 to 15 times slower, and its build looks for races, not speed)
secs=20 tsan=0
if grep -q __tsan_init "$PERFDELTA"; then secs=200 tsan=1; fi
PD() { timeout "$secs" "$PERFDELTA" "$@"; }
# cpu_ms CMD...: the CPU time (user + system) of CMD in ms, its output dropped: CPU, not
# wall-clock time, so that a loaded CI machine cannot make a bound on it fail
cpu_ms() {
  local TIMEFORMAT='%3U %3S' t
  t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
  set -- ${t//./}
  echo $((10#$1 + 10#$2))
}
# vlimit KB CMD...: CMD under ulimit -v KB, unless the binary cannot start so (ASan
# reserves terabytes of address space); then the timeout alone bounds it
vlimit() {
  local kb=$1
  shift
  if (ulimit -v "$kb" && "$PERFDELTA" --version >/dev/null 2>&1) 2>/dev/null; then
    (ulimit -v "$kb" && "$@")
  else
    "$@"
  fi
}

# mk_run DIR: a small bundle (2 nodes, 2 series of 120 samples at 5 s from 2025-11-02)
mk_run() {
  local d
  mkdir -p "$1/perfrunner"
  printf '[clusters]\nc =\n    10.0.0.1:kv\n    10.0.0.2:n1ql\n' >"$1/perfrunner/c.spec"
  for d in 10001 10002; do
    mkdir -p "$1/perfdb/atopc_1-2_access_abcd$d"
    awk 'BEGIN { printf "["; for (i = 0; i < 120; i++)
      printf "%s[%.0f,%d]", (i ? "," : ""), 1762107600000 + i * 5000, 50 + i % 7; printf "]" }' \
      >"$1/perfdb/atopc_1-2_access_abcd$d/memcached_cpu.json"
  done
}
db1=perfdb/atopc_1-2_access_abcd10001

mk_run "$TMP/good"
expect_code 0 PD inspect "$TMP/good"

# ---- FIFOs: a series, a .data, the spec; in a directory and as a tarball member
for what in "$db1/memcached_cpu.json" "$db1/memcached_rss.data" perfrunner/c.spec; do
  rm -rf "$TMP/fifo" "$TMP/fifo.tar"
  mk_run "$TMP/fifo"
  rm -f "$TMP/fifo/$what"
  mkfifo "$TMP/fifo/$what"
  expect_code 3 PD inspect "$TMP/fifo"
  lines "$TMP/err" 1
  hasf "$TMP/err" "perfdelta: $TMP/fifo/$what: not a regular file"
  tar -cf "$TMP/fifo.tar" -C "$TMP" fifo
  expect_code 3 PD inspect "$TMP/fifo.tar"
  lines "$TMP/err" 1
  hasf "$TMP/err" "perfdelta: $TMP/fifo.tar:fifo/$what: a FIFO: only regular files"
done

# ---- a gzip bomb: one gzip member of a tar header and 1 MiB of zeros, repeated 2000
# times (2 GiB inflated from about 2 MB), against a 64 MiB budget; nothing may be written
# anywhere, TMPDIR included
python3 - "$TMP/bomb-member.gz" <<'EOF'
import gzip, sys, tarfile
i = tarfile.TarInfo("run/perfdb/atopc_1-2_access_abcd10001/zeros.json")
i.size = 1 << 20
with open(sys.argv[1], "wb") as f:
    f.write(gzip.compress(i.tobuf(format=tarfile.USTAR_FORMAT) + bytes(i.size), 9))
EOF
for _ in $(seq 200); do cat "$TMP/bomb-member.gz"; done >"$TMP/bomb10.gz"
for _ in $(seq 10); do cat "$TMP/bomb10.gz"; done >"$TMP/bomb.tar.gz"
mkdir -p "$TMP/tmpdir"
TMPDIR="$TMP/tmpdir" expect_code 3 PD inspect "$TMP/bomb.tar.gz" --max-bundle-size 67108864
lines "$TMP/err" 1
has "$TMP/err" "bomb.tar.gz:run/perfdb/.*: the tarball holds more than 67108864 bytes uncompressed \(see --max-bundle-size\)"
ms=$(cpu_ms env TMPDIR="$TMP/tmpdir" timeout 20 "$PERFDELTA" inspect "$TMP/bomb.tar.gz" --max-bundle-size 67108864)
if [ "$ms" -lt 5000 ]; then ok; else fail "the bomb took $ms ms of CPU (want under 5 s, about 0.1 s)"; fi
if [ -z "$(ls -A "$TMP/tmpdir")" ]; then ok; else fail "files left in TMPDIR"; fi

# ---- the same at the default budget (4 GiB): one 2 GiB member of zeros, a tar header
# and 1 MiB in the first gzip member, 1 MiB of zeros in each of 2047 more; the inflation
# ratio gives it away after 64 MiB
python3 - "$TMP/big-head.gz" "$TMP/big-zeros.gz" <<'EOF'
import gzip, sys, tarfile
i = tarfile.TarInfo("run/perfdb/atopc_1-2_access_abcd10001/zeros.json")
i.size = 2048 << 20
with open(sys.argv[1], "wb") as f:
    f.write(gzip.compress(i.tobuf(format=tarfile.USTAR_FORMAT) + bytes(1 << 20), 9))
with open(sys.argv[2], "wb") as f:
    f.write(gzip.compress(bytes(1 << 20), 9))
EOF
{
  cat "$TMP/big-head.gz"
  for _ in $(seq 2047); do cat "$TMP/big-zeros.gz"; done
} >"$TMP/bigbomb.tar.gz"
TMPDIR="$TMP/tmpdir" expect_code 3 PD inspect "$TMP/bigbomb.tar.gz" --max-file-size 4294967296
lines "$TMP/err" 1
has "$TMP/err" "bigbomb.tar.gz:run/perfdb/.*: the tarball inflates more than 200 times past 64 MiB"
ms=$(cpu_ms env TMPDIR="$TMP/tmpdir" timeout 20 "$PERFDELTA" inspect "$TMP/bigbomb.tar.gz" --max-file-size 4294967296)
if [ "$ms" -lt 5000 ]; then ok; else fail "the default-budget bomb took $ms ms of CPU (want under 5 s)"; fi
if [ -z "$(ls -A "$TMP/tmpdir")" ]; then ok; else fail "files left in TMPDIR"; fi

# ---- one inflation bound for every format: 600 MiB of zeros as a .tar.gz, as a zip
# member deflated, bzip2ed and LZMA-packed (zip inflates inside the format, under no filter: a
# 597 KiB zip of it peaked at 605 MB), and as 600 zip members of 1 MiB each; each is
# refused as a bomb at 64 MiB, its peak resident memory under 200 MB (about 72 MB)
cat >"$TMP/mkbomb.py" <<'EOF'
import gzip, sys, tarfile, zipfile
out, kind = sys.argv[1], sys.argv[2]
member = "run/perfdb/atopc_1-2_access_abcd10001/zeros%s.json"
mib = bytes(1 << 20)
if kind == "tar.gz":
    i = tarfile.TarInfo(member % "")
    i.size = 600 << 20
    with open(out, "wb") as f:
        f.write(gzip.compress(i.tobuf(format=tarfile.USTAR_FORMAT), 9))
        z = gzip.compress(mib, 9)
        for _ in range(600):
            f.write(z)
else:
    method = {"deflate": zipfile.ZIP_DEFLATED, "bzip2": zipfile.ZIP_BZIP2,
              "lzma": zipfile.ZIP_LZMA, "members": zipfile.ZIP_DEFLATED}[kind]
    with zipfile.ZipFile(out, "w", method) as z:
        if kind == "members":
            for i in range(600):
                z.writestr(member % i, mib)
        else:
            with z.open(member % "", "w", force_zip64=True) as f:
                for _ in range(600):
                    f.write(mib)
EOF
# peak_kb CMD...: the peak resident set of CMD in KB (GNU time), empty without GNU time
peak_kb() {
  [ -x /usr/bin/time ] || return 0
  /usr/bin/time -f %M -o "$TMP/peak" "$@" >/dev/null 2>&1
  tail -n 1 "$TMP/peak"
}
for kind in tar.gz deflate bzip2 lzma members; do
  f=$TMP/bomb-$kind.zip
  [ $kind = tar.gz ] && f=$TMP/bomb600.tar.gz
  python3 "$TMP/mkbomb.py" "$f" $kind
  TMPDIR="$TMP/tmpdir" expect_code 3 PD inspect "$f"
  lines "$TMP/err" 1
  has "$TMP/err" "$(basename "$f"):run/perfdb/.*: the tarball inflates more than 200 times past 64 MiB"
  # TSan's shadow memory is resident (several times the program's): the bound is measured
  # by the plain and ASan builds
  kb=
  [ $tsan = 1 ] || kb=$(peak_kb timeout "$secs" "$PERFDELTA" inspect "$f")
  if [ -z "$kb" ]; then echo "note: TSan build or no GNU time: the peak memory of $kind is not measured" >&2
  elif [ "$kb" -lt 200000 ]; then ok
  else fail "the $kind bomb peaked at $kb KB (want under 200 MB, about 72 MB)"; fi
  rm -f "$f"
done
if [ -z "$(ls -A "$TMP/tmpdir")" ]; then ok; else fail "files left in TMPDIR"; fi

# ---- sparse members: holes come back as zeros that gzip never produced, and count
# against the budget as they are delivered (the extra/ files are not read otherwise)
mk_run "$TMP/sparse/run"
mkdir -p "$TMP/sparse/run/extra"
for i in 1 2 3; do
  truncate -s 99999999 "$TMP/sparse/run/extra/s$i"
  printf x >>"$TMP/sparse/run/extra/s$i"
done
tar -C "$TMP/sparse" -S -czf "$TMP/sparse.tar.gz" run
expect_code 0 PD inspect "$TMP/sparse.tar.gz" --max-bundle-size 400000000
expect_code 3 PD inspect "$TMP/sparse.tar.gz" --max-bundle-size 250000000
lines "$TMP/err" 1
has "$TMP/err" "sparse.tar.gz:run/extra/s[123]: the tarball holds more than 250000000 bytes uncompressed"

# ---- many empty members: each costs its name and 512 bytes of the budget, not a 64 KiB
# buffer (200 000 of them once took 13 GB); under 600 MB of address space the good
# bundle with them is read, and a 20 MB budget refuses them
python3 - "$TMP/good" "$TMP/many.tar.gz" <<'EOF2'
import io, sys, tarfile
with tarfile.open(sys.argv[2], "w:gz", compresslevel=1) as t:
    t.add(sys.argv[1], arcname="good")
    for i in range(200000):
        t.addfile(tarfile.TarInfo("good/extra/f%d" % i), io.BytesIO(b""))
EOF2
(vlimit 600000 timeout 20 "$PERFDELTA" inspect "$TMP/many.tar.gz" >"$TMP/out" 2>"$TMP/err")
rc=$?
if [ $rc = 0 ]; then ok; else fail "200 000 empty members: exit $rc (want 0)"; fi
expect_code 3 PD inspect "$TMP/many.tar.gz" --max-bundle-size 20000000
has "$TMP/err" "many.tar.gz:good/extra/f[0-9]+: the tarball holds more than 20000000 bytes uncompressed"

# ---- decoding grows linearly with the nodes: a spec of N kv hosts and one atop db per
# host, 10 000 then 40 000 (from a tarball: no file system in the time); 4x the hosts
# must cost under 8x the CPU time (nodes x series comparisons made it 13x)
mk_hosts() { # mk_hosts N OUT
  python3 - "$1" "$2" <<'EOF2'
import io, sys, tarfile
n = int(sys.argv[1])
hosts = ["172.1%02d.1%02d.1%02d" % (i // 10000 % 100, i // 100 % 100, i % 100) for i in range(n)]
with tarfile.open(sys.argv[2], "w") as t:
    def add(name, data):
        i = tarfile.TarInfo(name)
        i.size = len(data)
        t.addfile(i, io.BytesIO(data))
    add("run/perfrunner/iris.spec",
        ("[clusters]\niris =\n" + "".join("    %s:kv\n" % h for h in hosts)).encode())
    for h in hosts:
        add("run/perfdb/atopiris_710-1345_access_a7b6%s/memcached_cpu.json" % h.replace(".", ""),
            b"[[1762107600000,1],[1762107605000,2]]")
EOF2
}
mk_hosts 10000 "$TMP/h10k.tar"
mk_hosts 40000 "$TMP/h40k.tar"
expect_code 0 PD inspect "$TMP/h40k.tar"
has "$TMP/out" '^series +\(40000, 80000 samples'
t1=$(cpu_ms PD inspect "$TMP/h10k.tar")
t4=$(cpu_ms PD inspect "$TMP/h40k.tar")
if [ "$t4" -lt $((8 * t1 + 50)) ]; then ok; else fail "40 000 hosts took $t4 ms of CPU, 10 000 took $t1 ms"; fi

# ---- a bundle named host:run.tar.gz is a local file: no rsh, no ssh
mk_run "$TMP/colon/run"
tar -czf "$TMP/colon/host:run.tar.gz" -C "$TMP/colon" run
mkdir -p "$TMP/fakebin"
for sh in rsh ssh; do
  printf '#!/bin/sh\ntouch "%s/ran-%s"\nexit 1\n' "$TMP" "$sh" >"$TMP/fakebin/$sh"
  chmod +x "$TMP/fakebin/$sh"
done
(cd "$TMP/colon" && PATH="$TMP/fakebin:$PATH" TMPDIR="$TMP/tmpdir" \
  timeout 20 "$PERFDELTA" inspect host:run.tar.gz >"$TMP/out" 2>"$TMP/err")
if [ $? = 0 ]; then ok; else fail "host:run.tar.gz not read: $(cat "$TMP/err")"; fi
has "$TMP/out" '^series +\(2, 240 samples'
if ls "$TMP"/ran-* >/dev/null 2>&1; then fail "a remote shell ran"; else ok; fi
if [ -z "$(ls -A "$TMP/tmpdir")" ]; then ok; else fail "files left in TMPDIR"; fi

# ---- a tarball equals its directory, and its errors name TARBALL:member
tar -czf "$TMP/good.tar.gz" -C "$TMP" good
expect_code 0 PD inspect "$TMP/good"
sed "s|$TMP/good|X|" "$TMP/out" >"$TMP/dir.txt"
expect_code 0 PD inspect "$TMP/good.tar.gz"
sed "s|$TMP/good.tar.gz:good|X|; s|$TMP/good.tar.gz|X|" "$TMP/out" >"$TMP/tar.txt"
if cmp -s "$TMP/dir.txt" "$TMP/tar.txt"; then ok; else fail "tarball and directory differ"; fi
cp -r "$TMP/good" "$TMP/bad"
printf '[[1762107600000,1],\n [2000,]]' >"$TMP/bad/$db1/memcached_rss.json"
tar -czf "$TMP/bad.tar.gz" -C "$TMP" bad
expect_code 3 PD inspect "$TMP/bad.tar.gz"
lines "$TMP/err" 1
hasf "$TMP/err" "perfdelta: $TMP/bad.tar.gz:bad/$db1/memcached_rss.json:2:8: expected"

# ---- symbolic links: a member, and links in a directory bundle, pointing outside
mkdir -p "$TMP/outside"
printf '[clusters]\nc =\n    10.0.0.1:kv\n    10.0.0.2:n1ql\n' >"$TMP/outside/c.spec"
cp -r "$TMP/good/$db1" "$TMP/outside/db"
rm -rf "$TMP/ln" && cp -r "$TMP/good" "$TMP/ln" && rm "$TMP/ln/perfrunner/c.spec"
ln -s "$TMP/outside/c.spec" "$TMP/ln/perfrunner/c.spec"
expect_code 3 PD inspect "$TMP/ln"
lines "$TMP/err" 1
hasf "$TMP/err" "perfdelta: $TMP/ln/perfrunner/c.spec: a symbolic link"
tar -czf "$TMP/ln.tar.gz" -C "$TMP" ln
expect_code 3 PD inspect "$TMP/ln.tar.gz"
hasf "$TMP/err" "perfdelta: $TMP/ln.tar.gz:ln/perfrunner/c.spec: a symbolic link"
rm -rf "$TMP/ln2" && cp -r "$TMP/good" "$TMP/ln2" && rm -r "$TMP/ln2/perfdb/atopc_1-2_access_abcd10002"
ln -s "$TMP/outside/db" "$TMP/ln2/perfdb/atopc_1-2_access_abcd10002"
expect_code 3 PD inspect "$TMP/ln2"
hasf "$TMP/err" "perfdelta: $TMP/ln2/perfdb/atopc_1-2_access_abcd10002: a symbolic link"

# ---- crafted members: a hard link, a device (/dev/zero's numbers), absolute and '..'
craft() { # craft OUT KIND: the good bundle plus one crafted member
  python3 - "$TMP/good" "$1" "$2" <<'EOF'
import sys, tarfile
src, out, kind = sys.argv[1:]
with tarfile.open(out, "w") as t:
    t.add(src, arcname="good")
    i = tarfile.TarInfo()
    if kind == "hard":
        i.name, i.type = "good/perfdb/atopc_1-2_access_abcd10001/x.json", tarfile.LNKTYPE
        i.linkname = "good/perfdb/atopc_1-2_access_abcd10001/memcached_cpu.json"
    elif kind == "dev":
        i.name, i.type = "good/perfdb/atopc_1-2_access_abcd10001/x.json", tarfile.CHRTYPE
        i.devmajor, i.devminor = 1, 5
    elif kind == "abs":
        i.name = "/tmp/perfdelta-e2e-absolute.json"
    else:
        i.name = "good/../../perfdelta-e2e-dotdot.json"
    t.addfile(i)
EOF
}
for kind in hard dev abs dotdot; do
  craft "$TMP/$kind.tar" $kind
  expect_code 3 PD inspect "$TMP/$kind.tar" --max-file-size 1000000
  lines "$TMP/err" 1
  case $kind in
  hard) hasf "$TMP/err" "$TMP/hard.tar:good/$db1/x.json: a hard link" ;;
  dev) hasf "$TMP/err" "$TMP/dev.tar:good/$db1/x.json: a device" ;;
  abs) hasf "$TMP/err" "$TMP/abs.tar:/tmp/perfdelta-e2e-absolute.json: an absolute name" ;;
  dotdot) hasf "$TMP/err" "$TMP/dotdot.tar:good/../../perfdelta-e2e-dotdot.json: an absolute name or a '..'" ;;
  esac
done

# ---- time stamps: a sample dated 2100 (and one past int64 when read in s) is an input
# error at its place, under a memory limit that a grid sized by the span would break
mk_run "$TMP/t2100"
cp -r "$TMP/t2100" "$TMP/t2100b"
for f in "$TMP"/t2100b/perfdb/*/memcached_cpu.json; do sed -i 's/]$/,[4102444800000,1]]/' "$f"; done
(vlimit 4000000 timeout 20 "$PERFDELTA" compare "$TMP/t2100" "$TMP/t2100b" -o "$TMP/t-out" \
  >"$TMP/out" 2>"$TMP/err")
rc=$?
if [ $rc = 3 ]; then ok; else fail "a sample in 2100: exit $rc (want 3)"; fi
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: $TMP/t2100b/perfdb/.*/memcached_cpu.json:1:[0-9]+: timestamp 4102444800000 out of range"
printf '[[1762107600,1],[9223372036854775,2]]' >"$TMP/t2100/$db1/memcached_cpu.json"
expect_code 3 PD inspect "$TMP/t2100"
hasf "$TMP/err" "perfdelta: $TMP/t2100/$db1/memcached_cpu.json:1:18: timestamp 9223372036854775 out of range"

# a lone sample a year later in every series is a gap, not a year-long phase
mk_run "$TMP/year"
for f in "$TMP"/year/perfdb/*/memcached_cpu.json; do sed -i 's/]$/,[1793643600000,1]]/' "$f"; done
(vlimit 1000000 timeout 20 "$PERFDELTA" compare "$TMP/good" "$TMP/year" -o "$TMP/y-out" \
  >"$TMP/out" 2>"$TMP/err")
rc=$?
if [ $rc = 0 ]; then ok; else fail "a sample a year later: exit $rc (want 0)"; fi
expect_code 0 PD inspect "$TMP/year"
has "$TMP/out" 'phase start +2025-11-02T18:20:00.000Z, 595.0 s long'

# the unit is read from the median sample: a seconds stamp mixed into a ms series is
# the sample blamed (not a valid 2025 one), and a ms series whose first sample is from
# 2001 (under 10^12) is ms, its lone far sample a gap as a late one is; 1999 is refused
# at the start as 2100 is at the end
mk_run "$TMP/mixed"
sed -i 's/]$/,[1762107600,1]]/' "$TMP/mixed/$db1/memcached_cpu.json"
expect_code 3 PD inspect "$TMP/mixed"
lines "$TMP/err" 1
col=$(($(wc -c <"$TMP/mixed/$db1/memcached_cpu.json") - 13)) # at "1762107600,1]]"
hasf "$TMP/err" "perfdelta: $TMP/mixed/$db1/memcached_cpu.json:1:$col: timestamp 1762107600 out of range"
mk_run "$TMP/early"
for f in "$TMP"/early/perfdb/*/memcached_cpu.json; do sed -i 's/^\[/[[978307200000,1],/' "$f"; done
expect_code 0 PD inspect "$TMP/early"
has "$TMP/out" 'phase start +2025-11-02T18:20:00.000Z, 595.0 s long'
mk_run "$TMP/t1999"
sed -i 's/^\[/[[946684799000,1],/' "$TMP/t1999/$db1/memcached_cpu.json"
expect_code 3 PD inspect "$TMP/t1999"
hasf "$TMP/err" "perfdelta: $TMP/t1999/$db1/memcached_cpu.json:1:3: timestamp 946684799000 out of range"

# ---- jenkins/ that is a file or a FIFO is an input error, as perfrunner/ is, never
# taken as absent (in a directory and in a tarball)
for kind in file fifo; do
  rm -rf "$TMP/jk" && mk_run "$TMP/jk"
  if [ $kind = file ]; then echo x >"$TMP/jk/jenkins"; else mkfifo "$TMP/jk/jenkins"; fi
  expect_code 3 PD inspect "$TMP/jk"
  lines "$TMP/err" 1
  hasf "$TMP/err" "perfdelta: $TMP/jk/jenkins: not a directory"
done
rm "$TMP/jk/jenkins" && echo x >"$TMP/jk/jenkins"
tar -cf "$TMP/jk.tar" -C "$TMP" jk
expect_code 3 PD inspect "$TMP/jk.tar"
hasf "$TMP/err" "perfdelta: $TMP/jk.tar:jk/jenkins: not a directory"

# ---- as a user without rights: a jenkins/ of mode 000 is an error, never absent; a
# tarball whose directory has mode 000 leaves nothing behind. nobody runs a copy of the
# binary (nobody_copy): from a clone under a directory of mode 0750, as the binary here
# is put, it could not reach the build's (exit 126)
nobody_bin=
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
  echo "note: not root with setpriv: the cases as the user nobody are not run" >&2
else
  mkdir -p "$TMP/closed/build" && chmod 750 "$TMP/closed" && cp "$PERFDELTA" "$TMP/closed/build/"
  nobody_bin=$(nobody_copy "$TMP/closed/build/perfdelta")
  case $? in
  0) ok ;;
  2) nobody_bin= ;;
  *) fail "nobody cannot run a copy of the binary in $TMP/bin"; nobody_bin= ;;
  esac
fi
if [ -n "$nobody_bin" ]; then
  mk_run "$TMP/noperm"
  mkdir -p "$TMP/noperm/jenkins" && echo '{}' >"$TMP/noperm/jenkins/build.json"
  chmod 000 "$TMP/noperm/jenkins"
  setpriv --reuid=65534 --regid=65534 --clear-groups timeout 20 "$nobody_bin" inspect \
    "$TMP/noperm" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  if [ $rc = 3 ]; then ok; else fail "an unreadable jenkins/: exit $rc (want 3)"; fi
  hasf "$TMP/err" "perfdelta: $TMP/noperm/jenkins/build.json: cannot read: Permission denied"
  chmod 755 "$TMP/noperm/jenkins"
  chmod 000 "$TMP/good/perfrunner"
  tar -czf "$TMP/mode000.tar.gz" -C "$TMP" good
  chmod 755 "$TMP/good/perfrunner"
  chmod 644 "$TMP/mode000.tar.gz"
  mkdir -p "$TMP/tmpdir2" && chmod 777 "$TMP/tmpdir2"
  before=$(find /tmp -maxdepth 1 -user 65534 -name 'perfdelta-bundle-*' | wc -l)
  setpriv --reuid=65534 --regid=65534 --clear-groups env TMPDIR="$TMP/tmpdir2" \
    timeout 20 "$nobody_bin" inspect "$TMP/mode000.tar.gz" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  if [ $rc = 0 ]; then ok; else fail "a tarball with a mode-000 directory: exit $rc"; fi
  after=$(find /tmp -maxdepth 1 -user 65534 -name 'perfdelta-bundle-*' | wc -l)
  if [ "$after" = "$before" ] && [ -z "$(ls -A "$TMP/tmpdir2")" ]; then ok; else fail "files left behind"; fi
  chmod 700 "$TMP"
fi
finish
