//! Cargo, run from a test on this workspace.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

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

/// The target directory's profile folder (`target/debug`) once every binary
/// and example of the workspace is built: the examples, `mcp-host` and
/// `mcp-codegen` (other packages' binaries, which cargo does not build for
/// this one's tests). Built once per test binary, as the whole workspace:
/// a build of a few packages alone resolves other features than `cargo
/// test --workspace` and rebuilt much of the tree (3.5 minutes); this one
/// reuses the test build (seconds).
pub fn workspace_binaries() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let started = Instant::now();
        let status = cargo()
            .args(["build", "--quiet", "--workspace", "--bins", "--examples"])
            .status()
            .expect("run cargo build");
        assert!(status.success(), "building the workspace's binaries failed");
        eprintln!(
            "cargo build of the workspace's binaries took {:.1?}",
            started.elapsed()
        );
        // target/debug/deps/it-HASH -> target/debug
        let exe = std::env::current_exe().unwrap();
        exe.parent().unwrap().parent().unwrap().to_owned()
    })
}
