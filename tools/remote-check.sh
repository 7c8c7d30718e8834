#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# On a GPU machine, from the repository's root, with warpscope-cli and
# warpscope-gpu-worker built elsewhere in .device/remote/ and their libraries
# packed in .device/remote/rt.tar.xz (less NVRTC and CUPTI, which the GPU
# machine's CUDA has): the GPU worker reached through a command transport
# and, where an sshd can run here, through ssh to 127.0.0.1; a sweep whose
# worker (command) or connection (ssh) is killed halfway keeps the points it
# measured, and --resume measures the rest; the extra time per point through
# ssh. Within 3 minutes. Results in $OUT, a summary on standard output.
#
# Here, to prepare it (see HACKING.md):
#   mkdir -p .device/remote
#   cp _build-headless/app/warpscope-cli _build-headless/app/warpscope-gpu-worker .device/remote/
#   /work/shared/tools/device-runtime -o .device/remote/rt.tar.xz .device/remote/warpscope-*
#   (then drop libnvrtc* and libcupti* from the archive)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
REPO=$(pwd)
BIN=$REPO/.device/remote
RT=${RT:-/opt/ws-remote-rt}
W=/tmp/ws-remote
rm -rf "$W"; mkdir -p "$W/run" "$RT"; chmod 700 "$W/run"
export XDG_RUNTIME_DIR=$W/run              # ssh's shared connections
tar -C "$RT" -xJf "$BIN/rt.tar.xz" || { echo "FAIL: $BIN/rt.tar.xz"; exit 1; }
R=$RT/run
CLI="$R $BIN/warpscope-cli"
POINTS=32
SWEEP="sweep coalescing/strided-sweep --param stride --values 1:$POINTS"
START=$(date +%s)

# the worker as a login shell or srun would start it: with the packed
# libraries (REPLAY=RECORDING tries this script where there is no GPU: the
# worker plays the recording back instead, 20 ms a measurement)
REPLAY=${REPLAY:-}
cat > "$W/worker.sh" <<EOF
#!/bin/sh
exec $R $BIN/warpscope-gpu-worker ${REPLAY:+--replay $REPLAY --replay-delay 20} "\$@"
EOF
chmod 755 "$W/worker.sh"

say () { echo "$*" | tee -a "$OUT/summary.txt"; }
points () { [ -f "$1" ] && grep -o '"samples_ms"' "$1" | wc -l || echo 0; }

nvidia-smi --query-gpu=index,name,memory.total --format=csv > "$OUT/smi.txt" 2>&1
say "worker: $($R "$BIN/warpscope-gpu-worker" --version 2>&1)"
say "GPUs: $(tail -n +2 "$OUT/smi.txt" | tr '\n' ';')"

# Runs a sweep to FILE through the GPU options given, kills what KILL names
# once half its points are in, then resumes it. KILL: worker (the CLI's
# child) or connection (every process of our sshd but the listener).
killed_sweep () {
  local name=$1 kill=$2; shift 2
  local file=$OUT/sweep-$name.json start rc n
  rm -f "$file"
  timeout 100 $CLI $SWEEP --samples 5000 -o "$file" "$@" > "$OUT/sweep-$name-1.txt" 2> "$OUT/sweep-$name-1.err" &
  local cli=$!
  start=$(date +%s)
  while [ "$(points "$file")" -lt $((POINTS / 2)) ] && kill -0 $cli 2>/dev/null && [ $(( $(date +%s) - start )) -lt 60 ]; do
    sleep 0.05
  done
  n=$(points "$file")
  if [ "$kill" = worker ]; then
    # the only worker running is this sweep's, however deep the wrappers
    # that start it (timeout, run, sh, worker.sh) put it
    pkill -9 -f "$BIN/warpscope-gpu-worker"
  else
    for p in $(ps -o pid= --ppid "$SSHD_PID"); do kill -9 "$p"; done
  fi
  wait $cli; rc=$?
  local kept; kept=$(points "$file")
  say "$name: sweep of $POINTS points, $kill killed at $n points: exit $rc (4 expected), $kept points kept in $(basename "$file")"
  say "$name:   it said: $(tail -2 "$OUT/sweep-$name-1.err" | tr '\n' ' ')"
  timeout 100 $CLI $SWEEP --samples 5000 -o "$file" --resume "$@" > "$OUT/sweep-$name-2.txt" 2> "$OUT/sweep-$name-2.err"
  rc=$?
  say "$name: --resume: exit $rc (0 expected), $(points "$file") of $POINTS points ($(grep -c . "$OUT/sweep-$name-2.txt") lines printed)"
  if [ "$rc" = 0 ] && [ "$(points "$file")" = $POINTS ] && [ "$kept" -ge 1 ] && [ "$kept" -lt $POINTS ]; then
    say "$name: PASS: the points measured before the $kill was killed were kept, and the rest resumed"
  else
    say "$name: FAIL (see $OUT/sweep-$name-*)"
  fi
}

# Seconds a command takes (its output in $OUT/timed-NAME.*).
timed () {
  local name=$1 t0 t1; shift
  t0=$(date +%s.%N)
  timeout 60 "$@" > "$OUT/timed-$name.txt" 2> "$OUT/timed-$name.err"
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}

# ---------------------------------------------------------------- command
CMD=(--gpu-command "exec $W/worker.sh")
timeout 30 $CLI device "${CMD[@]}" > "$OUT/device-command.txt" 2>&1
say "command: device: exit $? — $(head -1 "$OUT/device-command.txt"); $(grep -E 'measured on|GPUs there' "$OUT/device-command.txt" | tr -s ' ' | tr '\n' ';')"
timeout 30 $CLI measure coalescing/offset --set offset=4 "${CMD[@]}" > "$OUT/measure-command.txt" 2>&1
say "command: measure: exit $? — $(grep -E 'measured now|median' "$OUT/measure-command.txt" | tr -s ' ' | tr '\n' ';')"
killed_sweep command worker "${CMD[@]}"

# ---------------------------------------------------------------- ssh
SSHD=$(command -v sshd || ls /usr/sbin/sshd 2>/dev/null)
if [ -z "$SSHD" ] || ! command -v ssh > /dev/null || ! command -v ssh-keygen > /dev/null; then
  say "ssh: skipped: no sshd (or ssh client) on this machine"
else
  D=$W/sshd; mkdir -p "$D"; mkdir -p /run/sshd
  ssh-keygen -q -t ed25519 -N '' -f "$D/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$D/id"
  cp "$D/id.pub" "$D/authorized_keys"; chmod 600 "$D/authorized_keys"
  PORT=$(( 20000 + RANDOM % 20000 ))
  echo "[127.0.0.1]:$PORT $(cat "$D/host_key.pub")" > "$D/known_hosts"
  cat > "$D/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $D/host_key
AuthorizedKeysFile $D/authorized_keys
PidFile $D/sshd.pid
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
MaxSessions 100
EOF
  cat > "$D/ssh_config" <<EOF
Host *
  IdentityFile $D/id
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile $D/known_hosts
  StrictHostKeyChecking yes
EOF
  "$SSHD" -D -f "$D/sshd_config" -E "$D/sshd.log" &
  SSHD_PID=$!
  for _ in $(seq 50); do (echo > /dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
  if ! kill -0 $SSHD_PID 2>/dev/null; then
    say "ssh: skipped: sshd did not start: $(tail -2 "$D/sshd.log" | tr '\n' ' ')"
  else
    export WS_SSH_COMMAND="ssh -F $D/ssh_config"
    SSH=(--gpu "ssh://$(id -un)@127.0.0.1:$PORT" --gpu-worker "$W/worker.sh")
    timeout 30 $CLI device "${SSH[@]}" > "$OUT/device-ssh.txt" 2>&1
    say "ssh: device: exit $? — $(head -1 "$OUT/device-ssh.txt"); $(grep -E 'measured on|GPUs there' "$OUT/device-ssh.txt" | tr -s ' ' | tr '\n' ';')"
    timeout 30 $CLI measure coalescing/offset --set offset=4 "${SSH[@]}" > "$OUT/measure-ssh.txt" 2>&1
    say "ssh: measure: exit $? — $(grep -E 'measured now|median' "$OUT/measure-ssh.txt" | tr -s ' ' | tr '\n' ';')"
    killed_sweep ssh connection "${SSH[@]}"
    # the extra time a point costs through ssh, warm (the shared connection
    # up): the slope between sweeps of 8 and of 32 points, the faster of two
    # each, so that starting the worker (a login shell's start-up files)
    # counts once, not per point
    timeout 30 $CLI device "${SSH[@]}" > /dev/null 2>&1
    slope () {
      local name=$1 a b c d; shift
      a=$(timed "$name-8a" $CLI sweep coalescing/strided-sweep --param stride --values 1:8 "$@")
      b=$(timed "$name-8b" $CLI sweep coalescing/strided-sweep --param stride --values 1:8 "$@")
      c=$(timed "$name-32a" $CLI $SWEEP "$@")
      d=$(timed "$name-32b" $CLI $SWEEP "$@")
      echo "$a $b $c $d $POINTS" | awk '{ s = ($3 < $4 ? $3 : $4); e = ($1 < $2 ? $1 : $2); printf "%.2f", (s - e) * 1000 / ($5 - 8) }'
    }
    pc=$(slope command "${CMD[@]}")
    ps_=$(slope ssh "${SSH[@]}")
    say "timing: a point takes $pc ms through the command, $ps_ ms through ssh (sweeps of 8 and $POINTS points)"
    say "timing: $(echo "$pc $ps_" | awk '{ printf "%.2f", $2 - $1 }') ms more a point through ssh, warm (the target: at most 20)"
    for p in $(ps -o pid= --ppid $SSHD_PID); do kill -9 "$p"; done
    kill $SSHD_PID 2>/dev/null
  fi
fi
say "done in $(( $(date +%s) - START )) s"
