//! Memory and CPU time of a process, from `/proc` (Linux only).

/// `VmHWM`, `VmRSS` (KiB) and `Threads` from `/proc/<pid>/status`.
pub fn status(pid: u32) -> Result<(u64, u64, u64), String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("/proc/{pid}/status: {e}"))?;
    let field = |name: &str| -> Result<u64, String> {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("no {name} in /proc/{pid}/status"))
    };
    Ok((field("VmHWM:")?, field("VmRSS:")?, field("Threads:")?))
}

fn clock_ticks() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as u64 } else { 100 }
}

/// User + system CPU time of a process (all its threads), in milliseconds.
pub fn cpu_ms(pid: u32) -> Result<u64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    let after_comm = stat
        .rsplit_once(") ")
        .map(|(_, rest)| rest)
        .ok_or("bad /proc stat")?;
    let fields: Vec<&str> = after_comm.split_whitespace().collect();
    let ticks: u64 = fields
        .get(11)
        .zip(fields.get(12))
        .and_then(|(u, s)| Some(u.parse::<u64>().ok()? + s.parse::<u64>().ok()?))
        .ok_or("bad /proc stat")?;
    Ok(ticks * 1000 / clock_ticks())
}

/// This process's CPU time in milliseconds (0 if `/proc` cannot tell).
pub fn self_cpu_ms() -> u64 {
    cpu_ms(std::process::id()).unwrap_or(0)
}
