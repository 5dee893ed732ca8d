# A spec whose cluster lists one host twice is refused at its [clusters] line (exit 3): read,
# the host was two servers of its role (n1ql#1 and n1ql#2 both 172.23.100.55), its series
# counted twice in the role's totals. (Among perfrunner's 785 published clusters none
# repeats a host: fixtures/formats/perfrunner-configs.tar.gz, the templates aside.)
. "$(dirname "$0")/lib.sh"
cp -r "$SEED/failover" "$TMP/s"
sed -i 's/^    172\.23\.100\.40:n1ql$/    172.23.100.55:n1ql/' "$TMP/s"/perfrunner/*.spec
grep -q '^    172\.23\.100\.40:n1ql$' "$TMP/s"/perfrunner/*.spec && fail "the spec was not changed"
expect_code 3 "$PERFDELTA" compare "$SEED/baseline" "$TMP/s" -o "$TMP/rep" --quiet
lines "$TMP/err" 1
has "$TMP/err" '\.spec:2: host 172\.23\.100\.55 listed twice in cluster .iris. \(\[clusters\]\): expected each server once'
if [ -e "$TMP/rep" ]; then fail "a report was written"; else ok; fi
expect_code 3 "$PERFDELTA" inspect "$TMP/s"
finish
