#!/usr/bin/env bash
# Side-by-side benchmark of SQLite schema migrations (see README.md).
#
# Usage: ./run.sh [N ...]            default sizes: 100000 1000000
#        PROJECT=DIR ./run.sh ...    whose `migrate` to time (lines naming $PROJECT; default: this checkout)
# Env:   RUNS        timed rounds for V1 -> V2 (default: 10 if N <= 100000, else 5)
#        MICRO_RUNS  timed rounds per micro case (default 20)
#        SKIP_MICRO=1, SKIP_BREAKDOWN=1 to leave those parts out
#
# Builds what is missing (Python venv, Swift release build, V1 databases), checks
# that every contestant produces the same data and schema, times each contestant
# with hyperfine (a fresh, synced copy of the V1 database before every run, not
# timed; contestants interleaved round by round) and prints tables. Tools used: sqlite3, hyperfine, /usr/bin/time,
# python3, swift.
set -euo pipefail
cd "$(dirname "$0")"
# In the SchemaMigrations repository (Benchmarks/peers/), the project is the checkout two levels up.
PROJECT=${PROJECT:-$(cd ../.. && pwd)}
SIZES=${*:-100000 1000000}
MICRO_RUNS=${MICRO_RUNS:-20}

need() { command -v "$1" >/dev/null 2>&1 || { echo "run.sh: missing $1 ($2)" >&2; exit 1; }; }
need sqlite3 "apt-get install sqlite3"
need hyperfine "apt-get install hyperfine"
need python3 "python 3.9+"
[ -x /usr/bin/time ] || { echo "run.sh: missing /usr/bin/time (apt-get install time)" >&2; exit 1; }

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }
slug() { printf '%s' "$1" | sed -E 's/[^A-Za-z0-9]+/-/g; s/^-+//; s/-+$//'; }

# contestants.txt -> NAMES[], CMDS[], BUILDS[]
NAMES=(); CMDS=(); BUILDS=()
while IFS='|' read -r name cmd build; do
  name=$(trim "$name"); [ -z "$name" ] && continue; case $name in \#*) continue;; esac
  if [[ "$cmd$build" == *'$PROJECT'* ]]; then   # a line for the project itself: needs PROJECT=path/to/checkout
    [ -n "${PROJECT:-}" ] || { echo "(skipping $name: set PROJECT to the project's checkout to include it)" >&2; continue; }
    cmd=${cmd//'$PROJECT'/$PROJECT}; build=${build//'$PROJECT'/$PROJECT}
  fi
  NAMES+=("$name"); CMDS+=("$(trim "$cmd")"); BUILDS+=("$(trim "${build:-}")")
done < contestants.txt

echo "== $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(uname -sr)"
echo "== build"
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
if ! cmp -s requirements.txt .venv/.installed-requirements; then
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
  cp requirements.txt .venv/.installed-requirements
fi
for i in "${!NAMES[@]}"; do
  if [ -n "${BUILDS[$i]}" ]; then echo "  ${NAMES[$i]}: ${BUILDS[$i]}"; bash -c "${BUILDS[$i]}" >/dev/null; fi
done
echo "  sqlite3 CLI $(sqlite3 --version | cut -d' ' -f1), Python sqlite3 $(.venv/bin/python -c 'import sqlite3; print(sqlite3.sqlite_version)')," \
     "$(.venv/bin/pip freeze | grep -iE '^(sqlite-utils|alembic|sqlalchemy)==' | tr '\n' ' ')GRDB 7.10.0, $(hyperfine --version)"

# bench PREFIX RUNS: times T_CMDS[i] (named T_NAMES[i], after T_PREPS[i]) in
# 1 warm-up round + RUNS rounds; each round is one hyperfine call doing one run of
# every command, the order rotated from round to round, so that drift of the
# machine's speed hits every contestant alike.
bench() {
  local prefix=$1 runs=$2 n=${#T_NAMES[@]} r k j out
  rm -f "$prefix"-r*.json; printf '%s\n' "${T_NAMES[@]}" > "$prefix.order"
  for ((r = 0; r <= runs; r++)); do
    local args=()
    for ((k = 0; k < n; k++)); do
      j=$(( (k + r) % n ))
      args+=(--prepare "${T_PREPS[$j]}" -n "${T_NAMES[$j]}" "${T_CMDS[$j]}")
    done
    out=$prefix-r$r.json; [ "$r" = 0 ] && out=$prefix-warmup.json
    hyperfine -N --style none --runs 1 --export-json "$out" "${args[@]}" </dev/null
  done
}

mkdir -p data work results
for N in $SIZES; do
  runs=${RUNS:-$([ "$N" -le 100000 ] && echo 10 || echo 5)}
  W=work/$N; R=results/$N; mkdir -p "$W" "$R"
  V1=data/v1-$N.db
  if [ ! -f "$V1" ]; then echo "== generate $V1"; scripts/gen-v1.sh "$N" "$V1"; fi

  echo "== N=$N: verification run of each contestant (peak memory from /usr/bin/time)"
  for i in "${!NAMES[@]}"; do
    s=$(slug "${NAMES[$i]}")
    scripts/fresh-copy.sh "$V1" "$W/$s.db"
    # shellcheck disable=SC2086
    /usr/bin/time -f '%M' -o "$W/$s.mem" ${CMDS[$i]} "$W/$s.db" </dev/null
    scripts/fingerprint.sh "$W/$s.db" > "$W/$s.fp"
    printf '  %-14s %s\n' "${NAMES[$i]}" "$(cat "$W/$s.fp")"
  done

  echo "== N=$N: timing V1 -> V2, $runs rounds (+1 warm-up round)"
  T_NAMES=("${NAMES[@]}"); T_CMDS=(); T_PREPS=()
  for i in "${!NAMES[@]}"; do
    T_CMDS+=("${CMDS[$i]} $W/timed.db"); T_PREPS+=("scripts/fresh-copy.sh $V1 $W/timed.db")
  done
  bench "$R/migrate" "$runs"
  scripts/report.py "V1 -> V2, N=$N (wall seconds, whole process; ratio to ${NAMES[0]})" "$R/migrate" "$W" --fp \
    | tee "$R/migrate.txt"

  if [ "${SKIP_BREAKDOWN:-0}" != 1 ]; then
    echo "== N=$N: where the LIMIT's time goes (one run, sqlite3 .timer)"
    scripts/fresh-copy.sh "$V1" "$W/breakdown.db"
    scripts/breakdown.sh "$W/breakdown.db" | tee "$R/breakdown.txt"
    echo
  fi

  if [ "${SKIP_MICRO:-0}" != 1 ]; then
    for case in $(grep -vE '^[[:space:]]*(#|$)' micro.txt | cut -d'|' -f1 | tr -d ' ' | uniq); do
      T_NAMES=(); T_CMDS=(); T_PREPS=(); i=0
      while IFS='|' read -r c name src fresh cmd; do
        c=$(trim "$c"); [ "$c" = "$case" ] || continue
        name=$(trim "$name"); src=$(slug "$(trim "$src")"); fresh=$(trim "$fresh"); cmd=$(trim "$cmd")
        if [[ "$cmd" == *'$PROJECT'* ]]; then [ -n "${PROJECT:-}" ] || continue; cmd=${cmd//'$PROJECT'/$PROJECT}; fi
        db=$W/micro-$case-$i.db; i=$((i + 1))
        scripts/fresh-copy.sh "$W/$src.db" "$db"
        /usr/bin/time -f '%M' -o "$W/micro-$case-$(slug "$name").mem" $cmd "$db" </dev/null   # one run for peak memory
        T_NAMES+=("$name"); T_CMDS+=("$cmd $db")
        if [ "$fresh" = yes ]; then T_PREPS+=("scripts/fresh-copy.sh $W/$src.db $db"); else T_PREPS+=(true); fi
      done < micro.txt
      bench "$R/micro-$case" "$MICRO_RUNS"
      scripts/report.py "micro case '$case', N=$N (wall seconds, whole process; ratio to ${T_NAMES[0]})" \
        "$R/micro-$case" "$W" --mem-prefix "micro-$case-" | tee "$R/micro-$case.txt"
    done
  fi
  rm -f "$W"/timed.db* "$W"/breakdown.db* "$W"/micro-*.db*   # keep only each contestant's V2 output
done

echo "== summary"
for N in $SIZES; do
  cat "results/$N/migrate.txt"
  [ "${SKIP_MICRO:-0}" = 1 ] || cat results/"$N"/micro-*.txt
done | tee results/summary.txt
