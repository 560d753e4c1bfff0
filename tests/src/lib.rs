//! Workspace-level tests live in `tests/tests/`. This library holds only
//! the README of every published crate, so that `cargo test` runs their
//! examples as doctests (`cfg(doctest)`: nothing here is ever compiled into
//! a build or documented).

/// `mcp-uri-template/README.md`.
#[cfg(doctest)]
#[doc = include_str!("../../mcp-uri-template/README.md")]
pub struct UriTemplateReadme;

/// `mcp-names/README.md`.
#[cfg(doctest)]
#[doc = include_str!("../../mcp-names/README.md")]
pub struct NamesReadme;

/// `mcp-macros/README.md`.
#[cfg(doctest)]
#[doc = include_str!("../../mcp-macros/README.md")]
pub struct MacrosReadme;

/// `mcp-runtime/README.md`.
#[cfg(doctest)]
#[doc = include_str!("../../mcp-runtime/README.md")]
pub struct RuntimeReadme;

/// `mcp-codegen/README.md`.
#[cfg(doctest)]
#[doc = include_str!("../../mcp-codegen/README.md")]
pub struct CodegenReadme;

/// `mcp-host/README.md`.
#[cfg(doctest)]
#[doc = include_str!("../../mcp-host/README.md")]
pub struct HostReadme;
