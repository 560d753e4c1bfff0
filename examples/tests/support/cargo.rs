//! Cargo, run from a test on this workspace.

use std::process::Command;

use super::interop::repo;

/// `cargo` in the workspace root, without the variables cargo sets for the
/// test that runs it: build scripts that watch them (ring's watches
/// `CARGO_MANIFEST_DIR` and `CARGO_PKG_*`) would see them change and
/// rebuild half the dependency tree, here and again in the next ordinary
/// cargo command.
pub fn cargo() -> Command {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.current_dir(repo());
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if is_set_by_cargo_for_tests(&name) {
            cargo.env_remove(&*name);
        }
    }
    cargo
}

/// Whether cargo sets `name` in the environment of the tests it runs.
fn is_set_by_cargo_for_tests(name: &str) -> bool {
    name.starts_with("CARGO_PKG_")
        || name.starts_with("CARGO_BIN_EXE_")
        || matches!(
            name,
            "CARGO_MANIFEST_DIR"
                | "CARGO_MANIFEST_PATH"
                | "CARGO_MANIFEST_LINKS"
                | "CARGO_CRATE_NAME"
                | "CARGO_BIN_NAME"
                | "CARGO_PRIMARY_PACKAGE"
                | "CARGO_TARGET_TMPDIR"
                | "OUT_DIR"
        )
}

/// The variable that asks for the checks too slow for CI's 30 minutes.
pub const FULL_CHECKS: &str = "MCP_TOOLKIT_FULL_CHECKS";

/// Whether `MCP_TOOLKIT_FULL_CHECKS=1` asks for the slow checks; says on
/// stderr what is skipped when it does not.
pub fn full_checks(what: &str) -> bool {
    let asked = std::env::var(FULL_CHECKS).is_ok_and(|value| value == "1");
    if !asked {
        eprintln!("skipped: {what} (set {FULL_CHECKS}=1 to run it)");
    }
    asked
}
