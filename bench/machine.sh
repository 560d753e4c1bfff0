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
