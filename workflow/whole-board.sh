#!/bin/sh
# shellcheck disable=SC2086 # $modern and $memory are options of separate words
# Solves and certifies a whole board as the README's results report it:
# first Schädler's reading (a throw before every move, chance inside the
# cycles of play), then on six and nine men's morris the game without dice
# under the modern rules (flying, men in mills safe, a double mill takes
# one: on rota and three a line wins and no man is taken), then the game
# without dice under the spec's default rules, then Bell's and Murray's
# readings (whose movement phase is that game's, shared with it); each
# database is checked by `ludus merels verify`, with its MANIFEST written
# beside the sector files, as soon as it is solved.
#
#   workflow/whole-board.sh [--memory GIB] BOARD DATA_DIR [LUDUS]
#   workflow/whole-board.sh --status [--memory GIB] BOARD DATA_DIR [LUDUS]
#   workflow/whole-board.sh --stop BOARD DATA_DIR
#
# (the options in either order)
#
# --memory is given to every solve and check (`ludus merels solve
# --memory`; without it the binary's default, 14 GiB): Schädler's reading on
# nine needs 22 for its largest groups.
#
# With --status it runs nothing and prints each step's state: done (with the
# binary that ran it), failed, started and not finished (with the last line
# of its progress), or not started; for a solve not done, the groups and
# indices its database holds (from `ludus merels plan`); then the room left
# on the disk. It exits 1 when a step failed.
#
# With --stop it asks the step running in DATA_DIR for BOARD to stop (SIGTERM,
# as a job system would: the solve or check saves its progress at its next
# chance and ends with exit 143), waits until it has, and exits 0; the run's
# script then ends with that exit code, and the same command resumes it. A
# stopped step is shown as stopped, not as failed. Nothing running: it says
# so and exits 0.
#
# Databases go to DATA_DIR/merels, each step's JSON report, progress and
# log to DATA_DIR/runs. Every step resumes where it stopped (the solves from
# their finished groups and checkpoints, the checks from their journal); a
# finished step leaves DATA_DIR/runs/BOARD-STEP.done (its command, and the
# binary's path, version and SHA-256) and is skipped when the script runs
# again. On nine men's morris the whole run takes days on two
# cores (see the README).
set -u
status=
stop=
memory=
# The options, in either order, before the board.
while [ $# -gt 0 ]; do
  case "$1" in
  --status)
    status=1
    shift
    ;;
  --stop)
    stop=1
    shift
    ;;
  --memory)
    case "${2:-}" in
    '' | *[!0-9.]* | *.*.* | .)
      echo "$0: --memory wants a number of GiB, not '${2:-}'" >&2
      exit 2
      ;;
    esac
    case "$2" in
    *[1-9]*) ;;
    *)
      echo "$0: --memory wants a number of GiB above 0, not '$2'" >&2
      exit 2
      ;;
    esac
    memory="--memory $2"
    shift 2
    ;;
  -*)
    echo "$0: no option '$1' (--status, --stop, --memory GIB)" >&2
    exit 2
    ;;
  *) break ;;
  esac
done
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 [--memory GIB] BOARD DATA_DIR [LUDUS]" >&2
  echo "       $0 --status [--memory GIB] BOARD DATA_DIR [LUDUS]" >&2
  echo "       $0 --stop BOARD DATA_DIR" >&2
  exit 2
fi
if [ -n "$status" ] && [ -n "$stop" ]; then
  echo "$0: --status or --stop, not both" >&2
  exit 2
fi
board=$1
db=$2/merels
runs=$2/runs
ludus=${3:-ludus}
modern="--flying --no-take-from-mills --double-mill-one"
case "$board" in
rota | three | six | nine) ;;
*)
  echo "$0: no board '$board' (rota, three, six or nine)" >&2
  exit 2
  ;;
esac
# The step running now writes its process's id and name here.
pidfile=$runs/$board.pid

# running: whether the process in $pidfile (run_pid, run_name) is alive
# and is a step of this run (a solve or check on this database).
running() {
  [ -r "$pidfile" ] || return 1
  read -r run_pid run_name <"$pidfile" || return 1
  case "$run_pid" in '' | *[!0-9]*) return 1 ;; esac
  case "$(ps -ww -o args= -p "$run_pid" 2>/dev/null)" in
  *" merels "*"--db $db "*) return 0 ;;
  *) return 1 ;;
  esac
}

if [ -n "$stop" ]; then
  if ! running; then
    echo "no step of $board is running in $2"
    exit 0
  fi
  kill -TERM "$run_pid" || exit 2
  echo "asked $run_name (pid $run_pid) to stop: it saves its progress at its next chance"
  waited=0
  while kill -0 "$run_pid" 2>/dev/null; do
    sleep 1
    waited=$((waited + 1))
    [ $((waited % 60)) -eq 0 ] && echo "still saving after ${waited} s"
  done
  echo "$run_name stopped after ${waited} s; the same command resumes the run"
  exit 0
fi

# Stopping needs no binary; the rest runs one.
if ! command -v "$ludus" >/dev/null 2>&1; then
  echo "$0: no ludus binary '$ludus' (give its path as the third argument)" >&2
  exit 2
fi
failed=
[ -n "$status" ] || mkdir -p "$db" "$runs" || exit 2

# progress NAME: step NAME's last progress line, indented, if it left one.
progress() {
  line=$(tr '\r' '\n' <"$runs/$1.err" 2>/dev/null | grep . | tail -1)
  [ -z "$line" ] || echo "  $line"
}

# show NAME: one line on step NAME's state, then its last progress line
# where it is not done.
show() {
  if [ -e "$runs/$1.done" ]; then
    echo "$1: done ($(sed -n 's/^binary: //p' "$runs/$1.done"))"
    return
  fi
  last=$(grep -E " (start|end) $1:" "$runs/log" 2>/dev/null | tail -1)
  case "$last" in
  *" end $1: stopped "*)
    echo "$1: stopped ${last%% *}, resumable"
    progress "$1"
    ;;
  *" end $1: exit "*)
    echo "$1: failed (exit ${last##* }, see $runs/$1.err)"
    failed=1
    ;;
  *" start $1:"*)
    if running && [ "$run_name" = "$1" ]; then
      echo "$1: started ${last%% *}, running (pid $run_pid)"
    else
      echo "$1: started ${last%% *}, not finished"
    fi
    progress "$1"
    ;;
  *) echo "$1: not started" ;;
  esac
}

# step NAME COMMAND...: runs `COMMAND --db DB --json` unless NAME is done.
step() {
  name=$board-$1
  shift
  if [ -n "$status" ]; then
    show "$name"
    # A solve not done: how much of the whole game its database holds.
    if [ "$3" = solve ] && [ ! -e "$runs/$name.done" ] && command -v "$1" >/dev/null; then
      bin=$1
      shift 3
      "$bin" merels plan "$@" --db "$db" 2>/dev/null | sed -n 's/^\([0-9]* groups, .* indices ([0-9.]*%)\).*/  \1/p'
    fi
    return 0
  fi
  [ -e "$runs/$name.done" ] && return 0
  printf '%s start %s: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$name" "$*" >>"$runs/log"
  # The command runs in the foreground, as itself (the inner shell execs
  # it), so that a signal reaches it as it would without the script; its
  # pid is left for --stop.
  sh -c 'echo "$$ $1" >"$2" && shift 2 && exec "$@"' sh "$name" "$pidfile" "$@" --db "$db" --json \
    >"$runs/$name.json" 2>"$runs/$name.err"
  rc=$?
  rm -f "$pidfile"
  case $rc in
  130 | 143)
    # Stopped by SIGINT or SIGTERM: its progress is saved.
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) end $name: stopped (exit $rc)" >>"$runs/log"
    echo "$name stopped (exit $rc): its progress is saved, the same command resumes it" >&2
    exit $rc
    ;;
  esac
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) end $name: exit $rc" >>"$runs/log"
  if [ $rc -ne 0 ]; then
    echo "$name failed (exit $rc): see $runs/$name.err" >&2
    exit $rc
  fi
  # What ran, with which binary (its version and SHA-256).
  bin=$(command -v "$ludus")
  {
    printf 'command: %s\n' "$*"
    printf 'binary: %s (%s)\n' "$bin" "$("$ludus" --version)"
    printf 'sha256: %s\n' "$(sha256sum <"$bin" | cut -d' ' -f1)"
  } >"$runs/$name.done.part" && mv "$runs/$name.done.part" "$runs/$name.done"
}

# Each database is checked before the next solve: a run cut short leaves
# every finished database certified. Schädler's reading comes first (on
# nine the longest: about 15 hours of solving on two cores); then the
# modern rules, as the shortest way to a certified database without dice
# (on nine about 3.5 hours of solving and 2 of checking); then the game
# under the default rules, whose movement sectors Bell's and Murray's
# readings take; then Bell's reading before Murray's, which has three times
# the placement groups.
step schaedler-solve "$ludus" merels solve --board "$board" --dice schaedler $memory
step schaedler-verify "$ludus" merels verify --board "$board" --dice schaedler $memory --resume --manifest
case "$board" in
six | nine)
  step modern-solve "$ludus" merels solve --board "$board" --dice none $modern $memory
  step modern-verify "$ludus" merels verify --board "$board" --dice none $modern $memory --resume --manifest
  ;;
esac
step none-solve "$ludus" merels solve --board "$board" --dice none $memory
step none-verify "$ludus" merels verify --board "$board" --dice none $memory --resume --manifest
# Murray's and Bell's checks take the shared movement sectors from the
# journal of the check without dice.
step bell-solve "$ludus" merels solve --board "$board" --dice bell $memory
step bell-verify "$ludus" merels verify --board "$board" --dice bell $memory --resume --manifest
step murray-solve "$ludus" merels solve --board "$board" --dice murray $memory
step murray-verify "$ludus" merels verify --board "$board" --dice murray $memory --resume --manifest
[ -n "$status" ] || echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $board: every step done" >>"$runs/log"
# With --status, the room left for the databases: on the file system of
# DATA_DIR (of its parent before a run made it).
if [ -n "$status" ]; then
  where=$2
  [ -d "$where" ] || where=$(dirname "$where")
  df -Pk "$where" 2>/dev/null | awk 'NR == 2 { printf "disk: %.1f GB free\n", $4 * 1024 / 1e9 }'
  [ -z "$failed" ] || exit 1
fi
