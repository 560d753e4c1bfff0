# What a run's figures depend on besides the code, printed in the header of
# run.sh and run-http.sh (sourced, not run).

# CPUs, load average and, on a KVM guest with the haltpoll idle driver, how
# long an idle CPU polls before it halts: with 0 every wake-up of a sleeping
# thread is a VM exit, which dominates a round trip at 1 in flight.
machine_summary() {
    local poll=/sys/module/haltpoll/parameters/guest_halt_poll_ns
    local summary
    summary="$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    if [[ -r "$poll" ]]; then
        summary+=", guest halt polling $(cat "$poll") ns"
    fi
    echo "$summary"
}

# Sets LG_PREFIX (an array, for loadgen) and SRV_PREFIX (a string, put before
# the server's command) from PIN: 0 leaves both to the scheduler; 1 puts
# loadgen on CPU 0 and the server on CPU 1; same puts both on CPU 0, where
# no wake-up crosses CPUs, so a round trip at 1 in flight costs CPU time
# rather than the wake-up latency of two CPUs (see bench/README.md).
pin_prefixes() {
    LG_PREFIX=()
    SRV_PREFIX=""
    case "$PIN" in
        0) return ;;
        1) LG_PREFIX=(taskset -c 0) SRV_PREFIX="taskset -c 1 " ;;
        same) LG_PREFIX=(taskset -c 0) SRV_PREFIX="taskset -c 0 " ;;
        *) echo "PIN must be 0, 1 or same" >&2; exit 1 ;;
    esac
    command -v taskset >/dev/null || { echo "PIN=$PIN needs taskset (util-linux)" >&2; exit 1; }
}

# WORKERS=N gives every Tokio server N worker threads (TOKIO_WORKER_THREADS,
# which #[tokio::main] reads: ours, rmcp's and the raw HTTP responder alike).
apply_workers() {
    if [[ -n "${WORKERS:-}" ]]; then
        [[ "$WORKERS" =~ ^[1-9][0-9]*$ ]] || { echo "WORKERS must be a positive number" >&2; exit 1; }
        export TOKIO_WORKER_THREADS=$WORKERS
    fi
}

# The run's settings besides the code: machine_summary, the pinning and the
# Tokio worker count.
run_summary() {
    echo "$(machine_summary), pin=$PIN, Tokio workers ${TOKIO_WORKER_THREADS:-one per CPU}"
}
