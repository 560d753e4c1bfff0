//! The macros' compile-time checks live in `tests/ui.rs`; this crate has no code.
