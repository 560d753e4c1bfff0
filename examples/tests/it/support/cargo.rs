//! Cargo, run from a test on this workspace.

use std::process::Command;

use super::interop::repo;

// The rule of the `tests` crate's tests, from its one home.
#[path = "../../../../tests/tests/it/support/cargo_env.rs"]
mod cargo_env;
#[allow(unused_imports)] // each test file uses a different part
pub use cargo_env::without_test_env;

/// `cargo` in the workspace root, without the variables cargo sets for the
/// test that runs it (see `without_test_env`).
pub fn cargo() -> Command {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.current_dir(repo());
    without_test_env(&mut cargo);
    cargo
}
