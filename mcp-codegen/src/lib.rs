//! Typed Rust clients generated from an MCP server's `tools/list` (and its
//! prompts and resources).
//!
//! Each tool's `inputSchema` and `outputSchema` (JSON Schema 2020-12) become
//! Rust types; a client type wraps `mcp_toolkit_runtime::client::Client` with one
//! method per tool, returning a future. From a server's whole [`Listing`]
//! ([`generate_listing`], and what [`Source`] fetches from a live server),
//! the client also gets one method per prompt (its arguments a struct of
//! strings, documented from the server's descriptions), one per resource
//! template (its variables as `&str` parameters, expanded by RFC 6570) and
//! a lookup of the static resources (an enum of the listed URIs read by
//! one method). [`Derives`] says which traits the
//! types implement (by default what a client uses, which keeps a large
//! generated client cheap to compile). The mapping never panics, never emits code that
//! does not compile, never fetches a remote `$ref`, and falls back to
//! `serde_json::Value` (with a note in the docs) for what it cannot type or
//! what lies beyond a [`Limits`] bound. Text from the server reaches the
//! code with invisible and direction-changing characters escaped.
//!
//! From `build.rs`:
//!
//! ```no_run
//! let options = mcp_toolkit_codegen::Options {
//!     client_name: "WeatherClient".into(),
//!     ..Default::default()
//! };
//! let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("weather.rs");
//! mcp_toolkit_codegen::generate_file("tools.json", &out, &options).unwrap();
//! ```
//!
//! # Features
//!
//! - `cli` (default): the `mcp-codegen` command; turns on the two below.
//! - `config` (default): [`Source::Config`], a server of a host
//!   configuration, started as `mcp-toolkit-host` does.
//! - `tls` (default): `https://` URLs in [`Source::Url`].
//!
//! With `default-features = false` the generator, drift checks and every
//! other source remain, at about a third of the compiled crates.

mod client;
mod docs;
pub mod drift;
mod emit;
mod error;
mod fingerprint;
mod generate;
mod input;
mod ir;
mod mapper;
mod naming;
mod options;
mod prompts;
mod resolve;
mod resources;
mod source;
mod syntax;
mod templates;
mod text;
mod usage;

pub use error::{At, Error};
pub use generate::{Generated, GeneratedMethod, GeneratedTool, HEADER, generate, generate_listing};
pub use input::{Listing, parse_listing, parse_tools};
pub use mcp_toolkit_runtime::canonical::canonical_json;
pub use options::{Derives, Limits, Options, Visibility};
pub use source::{DEFAULT_TIMEOUT, Source};

use std::path::Path;

/// Reads a saved listing (a `tools/list` result, with `prompts`,
/// `resources` and `resourceTemplates` beside `tools` when the server has
/// them: see [`parse_listing`]) from `input`, generates the module and
/// writes it to `output` (see [`generate_to`]).
pub fn generate_file(
    input: impl AsRef<Path>,
    output: impl AsRef<Path>,
    options: &Options,
) -> Result<Generated, Error> {
    generate_to(&Source::File(input.as_ref().to_owned()), output, options)
}

/// Gets the listing from `source`, generates the module and writes it to
/// `output`, only when it changed (so `build.rs` causes no needless rebuilds).
pub fn generate_to(
    source: &Source,
    output: impl AsRef<Path>,
    options: &Options,
) -> Result<Generated, Error> {
    write_if_changed(
        generate_listing(&source.listing_blocking()?, options)?,
        output,
    )
}

/// Writes `generated` to `output` unless the file holds that code already
/// (so `build.rs` causes no needless rebuilds).
pub fn write_if_changed(
    generated: Generated,
    output: impl AsRef<Path>,
) -> Result<Generated, Error> {
    let output = output.as_ref();
    if std::fs::read_to_string(output).ok().as_deref() != Some(generated.code.as_str()) {
        std::fs::write(output, &generated.code).map_err(|source| Error::Io {
            path: output.display().to_string(),
            source,
        })?;
    }
    Ok(generated)
}

/// Compares the listing from `source` (tools, prompts, resource templates)
/// with the one a generated file was made from.
pub fn check(source: &Source, generated: impl AsRef<Path>) -> Result<drift::Report, Error> {
    check_listing(&source.listing_blocking()?, generated)
}

/// Compares `tools` with those a generated file was made from (its prompts
/// and templates are not compared).
pub fn check_tools(
    tools: &[mcp_toolkit_runtime::protocol::Tool],
    generated: impl AsRef<Path>,
) -> Result<drift::Report, Error> {
    let old = drift::embedded_listing(&read(generated.as_ref())?)?;
    Ok(drift::compare(&old.tools, tools))
}

/// Compares `listing` with the one a generated file was made from: its
/// tools, prompts and resource templates.
pub fn check_listing(
    listing: &Listing,
    generated: impl AsRef<Path>,
) -> Result<drift::Report, Error> {
    let old = drift::embedded_listing(&read(generated.as_ref())?)?;
    Ok(drift::compare_listing(&old, listing))
}

fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.display().to_string(),
        source,
    })
}
