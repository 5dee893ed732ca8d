# Odd series bodies the readers must refuse naming the right file and place (exit 3, one
# line): a .data of deltas (first timestamp 0) without its .data.1, or whose .data.1 is no
# time 2000..2100 (the error names the .data.1, not the .data without a place); the
# smallest int64 as a JSON timestamp (named where it is, not at the end of the input).
. "$(dirname "$0")/lib.sh"
T=1793643700000
mk() {
  rm -rf "$TMP/r"
  mkdir -p "$TMP/r/perfdb"
  cp -r "$SEED/failover/perfrunner" "$SEED/failover/jenkins" "$TMP/r/"
  cp -r "$SEED/failover/perfdb/"atopiris* "$SEED/failover/perfdb/"active_tasks* "$TMP/r/perfdb/"
  F=$(find "$TMP/r/perfdb" -path '*17223100211/memcached_cpu.json')
  D=${F%.json}.data
  rm "$F"
}
refused() { # refused REGEX: inspect exits 3 with one line matching REGEX
  expect_code 3 "$PERFDELTA" inspect "$TMP/r"
  lines "$TMP/err" 1
  has "$TMP/err" "$1"
}
# the delta layout read right: 0 then +5000 from .data.1's time
mk; printf '0 1.5\n5000 2\n' >"$D"; printf '%s\n' $T >"$D.1"
expect_code 0 "$PERFDELTA" inspect "$TMP/r"
# no .data.1
mk; printf '0 1.5\n5000 2\n' >"$D"
refused 'memcached_cpu\.data:1:1: .*delta.*expected .*memcached_cpu\.data\.1'
# a .data.1 of 0, of ns, of a negative time
for first in 0 $((T * 1000000)) -5; do
  mk; printf '0 1.5\n5000 2\n' >"$D"; printf '%s\n' "$first" >"$D.1"
  refused "memcached_cpu\\.data\\.1:1:1: .*expected .*2000-01-01 to 2100-01-01"
done
# INT64_MIN as a timestamp: named at its column (3), not at the end (27)
mk; printf '[[-9223372036854775808,1]]' >"$F"
refused 'memcached_cpu\.json:1:3: '
finish
