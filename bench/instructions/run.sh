#!/bin/bash
# Instructions per request for one bench workload, counted by valgrind's callgrind: what does not depend on the
# machine's load, for a difference too small for timed runs to show (docs/speed.md). Needs valgrind.
#
#   bench/instructions/run.sh <letter> <path to dist/bin/main.cjs> <label>
#
# The server runs under callgrind with one output per thread; 2,000 requests warm it up, the counters are zeroed,
# 3,000 requests are counted, and the main thread's count per request is printed (and appended to results.txt in the
# output folder's parent). Compare main threads: the garbage collector's helper threads vary by several per cent
# from run to run of one build, the main thread by under one. GET workloads with at most one header only.
set -e
L=$1; ENTRY=$(realpath "$2"); LABEL=$3
HERE=$(cd "$(dirname "$0")" && pwd)
SCN="$HERE/../lib/scenarios.mjs"
ROOT=${INSTRUCTIONS_DIR:-/tmp/mock-instructions}
W=$ROOT/ws-$L
mkdir -p "$ROOT"
if [ ! -d "$W" ]; then node -e "
import('$SCN').then(m=>{const s=m.SCENARIOS.find(x=>x.letter==='$L');const d=m.buildWorkspaces('$W',[s],{apimock:false});console.log(d[s.id].mock)})" > "$ROOT/ws-$L.path"; fi
DIR=$(cat "$ROOT/ws-$L.path")
REQ=$(node -e "import('$SCN').then(m=>{const s=m.SCENARIOS.find(x=>x.letter==='$L');const h=Object.entries(s.request.headers??{})[0];console.log(s.request.path+' '+(h?h[0]+':'+h[1]:''))})")
P=${REQ%% *}; H=${REQ#* }
PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
OUT=$ROOT/out-$L-$LABEL
rm -rf "$OUT"; mkdir -p "$OUT"
cd "$DIR"
XDG_CACHE_HOME=$OUT/cache valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$OUT/cg.%p" \
  node "$ENTRY" -c mock.toml -p "$PORT" > "$OUT/server.log" 2> "$OUT/vg.log" &
VP=$!
for _ in $(seq 1 600); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 1; done
node "$HERE/load.mjs" "$PORT" "$P" 2000 "$H"
callgrind_control -z $VP > /dev/null
node "$HERE/load.mjs" "$PORT" "$P" 3000 "$H"
callgrind_control -d $VP > /dev/null
sleep 2
kill $VP; wait $VP 2>/dev/null || true
MAIN=$(ls "$OUT"/cg.*.1-01 | head -1)
IR=$(grep -m1 '^summary:\|^totals:' "$MAIN" | awk '{print $2}')
echo "$L $LABEL instructions/request (main thread)=$((IR / 3000))" | tee -a "$ROOT/results.txt"
