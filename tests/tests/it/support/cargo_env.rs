//! The two rules every test that runs cargo follows, in one file that both
//! the `tests` and the `examples` test crates include (`#[path]`).

use std::process::Command;

/// Removes from `command` the variables cargo sets for the test running it:
/// build scripts that watch them (ring's watches `CARGO_MANIFEST_DIR` and
/// `CARGO_PKG_*`) would see them change and rebuild half the dependency
/// tree, here and again in the next ordinary cargo command.
pub fn without_test_env(command: &mut Command) -> &mut Command {
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_BIN_EXE_")
            || matches!(
                &*name,
                "CARGO_MANIFEST_DIR"
                    | "CARGO_MANIFEST_PATH"
                    | "CARGO_MANIFEST_LINKS"
                    | "CARGO_CRATE_NAME"
                    | "CARGO_BIN_NAME"
                    | "CARGO_PRIMARY_PACKAGE"
                    | "CARGO_TARGET_TMPDIR"
                    | "OUT_DIR"
            )
        {
            command.env_remove(&*name);
        }
    }
    command
}
