#!/usr/bin/env bash
# One short run on a machine with an NVIDIA GPU: builds verbs-ffm, then (scripts/GpuCheck.java) loads the real
# libcuda.so.1 through the CUDA binding, allocates 2 MiB on the GPU, copies a pattern in and out, exports a
# dma-buf and tries ibv_reg_dmabuf_mr and ibv_reg_mr on the first RDMA device, printing what each gave. A
# machine without an RDMA NIC cannot register: the output says so. Then the doctor's GPUDirect checks when
# the perftest-java jar is there. Exit: 0 the GPU side worked, 1 a GPU step failed, 2 no driver or GPU.
#
# usage: scripts/gpu-check.sh [GPU-INDEX [RDMA-DEVICE]]   (RDMAFFM_LIBCUDA=PATH loads another libcuda)
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

find_jdk25
cd "$ROOT"
echo "== machine"
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: not available"
head -1 /proc/driver/nvidia/version 2>/dev/null || echo "/proc/driver/nvidia/version: absent (driver not loaded)"
ls /sys/class/infiniband 2>/dev/null | tr '\n' ' ' | sed 's/^/RDMA devices: /;s/$/\n/' || true
if [[ ! -d verbs-ffm/target/classes/io/rdmaffm/verbs/cuda ]]; then
	echo "== building verbs-ffm"
	mvn -B -ntp -q -o -pl verbs-ffm -am compile || mvn -B -ntp -q -pl verbs-ffm -am compile
fi
echo "== CUDA binding"
status=0
timeout 120 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp verbs-ffm/target/classes \
	scripts/GpuCheck.java "$@" || status=$?
if [[ -x bin/rdma-perftest ]] && compgen -G "perftest-java/target/perftest-java-*.jar" > /dev/null; then
	echo "== doctor (GPUDirect checks)"
	bin/rdma-perftest doctor 2>&1 | grep -E 'gpudirect|summary' || true
fi
exit "$status"
