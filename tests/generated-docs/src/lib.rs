//! Every full snapshot mcp-codegen's tests generate, public in a crate of
//! its own, so that the workspace's `RUSTDOCFLAGS="-D warnings" cargo doc
//! --no-deps --workspace` (tests/tests/it/workspace_docs.rs) documents them,
//! as many users' CI does. Server descriptions full of brackets, `<T>` and
//! URLs must not become broken intra-doc links, HTML tags or bare URLs.
//! (A member of the workspace, so that the doc build shares the
//! workspace's dependencies rather than checking them all again.)

include!(concat!(env!("OUT_DIR"), "/snapshots.rs"));
