# Sourced by test.sh and test-cpp.sh.
# timed LANE "title" command...: runs the command, printing its wall-clock time
# after it and noting it, under its lane, in $timings (the table test.sh prints).
timed() {
  local lane=$1 title=$2 started=$SECONDS status=0
  shift 2
  echo "== [$lane] $title"
  "$@" || status=$?
  local took=$((SECONDS - started))
  printf '%5d s  [%s] %s%s\n' "$took" "$lane" "$title" "$([ "$status" = 0 ] || echo '  FAILED')" >>"$timings"
  echo "== [$lane] $title: ${took} s$([ "$status" = 0 ] || echo ", FAILED (exit $status)")"
  return "$status"
}
