# Sourced by the tests/apps/check_*.sh scripts called as `check_X.sh NOETHER WORK_DIR`: sets
# program and work (emptied), and fail, which prints its message and the last run's stdout and
# stderr ($work/out, $work/err) and exits 1.
set -u
program=$1
work=$2
rm -rf "$work"
mkdir -p "$work"

fail() {
  echo "FAIL: $*"
  for f in "$work"/out "$work"/err; do [ -e "$f" ] && { echo "--- $f"; cat "$f"; }; done
  exit 1
}
