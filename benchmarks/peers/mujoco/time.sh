#!/bin/sh
# MuJoCo's mj_step on this machine (Debian's libmujoco-dev, MuJoCo 2.2.2), for issue 37's contact step measured
# beside SymDyn's: solo12 standing on four feet (../shared/models/solo12.urdf), the same with its feet merged into
# the lower legs, and the samples' quadruped (the robot of ContactStepBenchmark). Run from the repository root in a
# quiet window:
#   apt-get install -y libmujoco-dev        # once (root)
#   sh benchmarks/peers/mujoco/time.sh [batches segments steps]   (default 20 20 1000)
#   MODELS=solo12.xml sh benchmarks/peers/mujoco/time.sh          (one model)
# The models and the program are built into benchmarks/target/mujoco; the run is pinned to CPU 1.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
shared=${SYMDYN_SHARED:-$root/../shared}
out=$root/benchmarks/target/mujoco
mkdir -p "$out"
cd "$out"
[ -f solo12.xml ] || python3 "$here/urdf2mjcf.py" "$shared/models/solo12.urdf" solo12.xml
[ -f solo12_fused.xml ] || python3 "$here/urdf2mjcf.py" "$shared/models/solo12.urdf" solo12_fused.xml --fuse
[ -f quadruped.xml ] || python3 "$here/urdf2mjcf.py" "$root/samples/src/main/symdyn/quadruped.urdf" quadruped.xml
[ mjstep -nt "$here/mjstep.c" ] || gcc -O2 -Wall -o mjstep "$here/mjstep.c" -lmujoco
echo "== $(date -u '+%F %T UTC')  load: $(uptime | sed 's/.*load average: //')  CPU: $(lscpu | sed -n 's/^Model name: *//p')"
for model in ${MODELS:-solo12.xml solo12_fused.xml quadruped.xml}; do
  echo "== $model"
  taskset -c 1 ./mjstep "$model" "$@"
done
echo "== done $(date -u '+%T UTC')  load: $(uptime | sed 's/.*load average: //')"
