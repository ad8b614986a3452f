#!/usr/bin/env bash
# The same 12-point sweep run locally and as a Slurm job array (scripts/slurm_single_node.sh
# start, SLURM_CONF exported): wall time of both and the Slurm route's overhead per item.
#   tests/bench/bench_cluster.sh BUILD/app/ppsynth-cli [WORKDIR]
# Prints: items, local seconds, array seconds (plan + submit + wait + assemble), overhead
# per item = (array - local) / items x (items run at once, the node's CPUs).
set -euo pipefail
CLI=$(readlink -f "${1:?usage: $0 path/to/ppsynth-cli [workdir]}")
WORK=${2:-$(mktemp -d)}
EXAMPLES=$(cd "$(dirname "$0")/../../resources/examples" && pwd)
mkdir -p "$WORK"
cd "$WORK"
rm -rf local array
points=""
for c in 0.9 0.8 0.7 0.6 0.5 0.4; do
  for g in 0.0 -0.2; do points+="${points:+,}{\"c\": $c, \"g\": $g}"; done
done
cat >sweep.json <<JSON
{"data": {"path": "$EXAMPLES/poisson.csv", "target": "y"},
 "model": {"family": "poisson-means"},
 "mcmc": {"chains": 2, "warmup": 0, "draws": 2000, "seed": 7},
 "synthesis": {"m": 5}, "risk": {"L": 4}, "utility": {"bootstrap": 200},
 "sweep": {"points": [$points], "threads": $(nproc)}}
JSON
now() { date +%s.%N; }
t0=$(now)
"$CLI" sweep sweep.json --out local >/dev/null 2>&1
t1=$(now)
"$CLI" sweep sweep.json --out array --plan 2>/dev/null
"$CLI" cluster submit array --engine slurm >/dev/null
until "$CLI" cluster status array | grep -q '^13 of 13 done'; do
  if "$CLI" cluster status array | grep -q ' [1-9][0-9]* failed'; then
    "$CLI" cluster status array
    exit 1
  fi
  sleep 0.5
done
"$CLI" sweep sweep.json --out array >/dev/null 2>&1
t2=$(now)
cmp local/sweep.csv array/sweep.csv && echo "sweep.csv: identical"
awk -v l="$(echo "$t1 - $t0" | bc)" -v a="$(echo "$t2 - $t1" | bc)" -v n=13 -v p="$(nproc)" \
  'BEGIN { printf "items %d  local %.1f s  array %.1f s  overhead per item %.2f s (%d at once)\n", n, l, a, (a - l) / n * p, p }'
