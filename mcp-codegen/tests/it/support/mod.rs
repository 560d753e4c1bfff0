//! Shared by the test crates that keep committed files (snapshots, corpus).

use std::ffi::OsStr;

/// Whether the run rewrites committed snapshot and corpus files instead of
/// comparing with them: only `UPDATE_SNAPSHOTS=1` does, any other value
/// (even `0`) compares.
pub fn updating_snapshots() -> bool {
    asks_to_update(std::env::var_os("UPDATE_SNAPSHOTS").as_deref())
}

fn asks_to_update(value: Option<&OsStr>) -> bool {
    value == Some(OsStr::new("1"))
}

#[test]
fn only_one_updates_snapshots() {
    assert!(asks_to_update(Some(OsStr::new("1"))));
    for other in ["0", "", "true", "yes", " 1"] {
        assert!(!asks_to_update(Some(OsStr::new(other))), "{other:?}");
    }
    assert!(!asks_to_update(None));
}
