//! In a build without the `http` feature, `Server::serve_http` and
//! `serve_http_with` still exist, so that a call to one fails with what to
//! do (turn the feature on) rather than with "no method named `serve_http`"
//! and a hint towards `serve_io`. They cannot be called: their argument must
//! implement [`HttpFeature`], which no type does.

use std::future::Future;
use std::io;

use crate::server::Server;

/// Implemented by no type: the bound that makes a call to an HTTP entry
/// point of a build without the `http` feature a compile error naming it.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "serving Streamable HTTP needs the `http` feature of mcp-toolkit-runtime",
    label = "`Server::serve_http` and `serve_http_with` exist only with the `http` feature",
    note = "turn it on: `cargo add mcp-toolkit-runtime --features http`, or `features = [\"http\"]` on its line in Cargo.toml"
)]
pub trait HttpFeature {}

impl Server {
    /// Needs the `http` feature (see its docs for what it serves).
    #[doc(hidden)]
    pub fn serve_http<A: HttpFeature>(self, addr: A) -> impl Future<Output = io::Result<()>> {
        let _ = addr;
        std::future::pending()
    }

    /// Needs the `http` feature (see its docs for what it serves).
    #[doc(hidden)]
    pub fn serve_http_with<L: HttpFeature, C, S>(
        self,
        listener: L,
        config: C,
        shutdown: S,
    ) -> impl Future<Output = io::Result<()>> {
        let _ = (listener, config, shutdown);
        std::future::pending()
    }
}
