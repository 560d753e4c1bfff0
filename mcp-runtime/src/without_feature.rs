//! What a build without a feature still declares, so that code written for
//! the feature fails to compile with what to do (turn it on) rather than
//! with "no method named ..." and a hint towards something else. Modules and
//! types a feature gates need nothing here: rustc names their feature
//! itself. None of these can be called: each takes an argument that must
//! implement a trait no type implements, nor can (each is sealed).

#[cfg(not(feature = "http"))]
use std::future::Future;
#[cfg(not(feature = "http"))]
use std::io;

#[cfg(not(feature = "http"))]
use crate::server::Server;
#[cfg(all(feature = "http", not(feature = "jwt")))]
use crate::server::auth::{AuthConfig, AuthSetupError};

/// Implemented by no type: the bound that makes a call to an HTTP entry
/// point of a build without the `http` feature a compile error naming it.
#[cfg(not(feature = "http"))]
#[diagnostic::on_unimplemented(
    message = "serving Streamable HTTP needs the `http` feature of mcp-toolkit-runtime",
    label = "`Server::serve_http` and `serve_http_with` exist only with the `http` feature",
    note = "turn it on: `cargo add mcp-toolkit-runtime --features http`, or `features = [\"http\"]` on its line in Cargo.toml"
)]
pub trait HttpFeature: sealed::Sealed {}

#[cfg(not(feature = "http"))]
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

/// Implemented by no type: the bound that makes `AuthConfig::jwt` in a
/// build without the `jwt` feature a compile error naming it.
#[cfg(all(feature = "http", not(feature = "jwt")))]
#[diagnostic::on_unimplemented(
    message = "verifying JWT access tokens needs the `jwt` feature of mcp-toolkit-runtime",
    label = "`AuthConfig::jwt` exists only with the `jwt` feature",
    note = "turn it on: `cargo add mcp-toolkit-runtime --features jwt`, or give `AuthConfig::new` a verifier of your own"
)]
pub trait JwtFeature: sealed::Sealed {}

#[cfg(all(feature = "http", not(feature = "jwt")))]
impl AuthConfig {
    /// Needs the `jwt` feature (see its docs for what it verifies).
    #[doc(hidden)]
    pub fn jwt<R: JwtFeature>(resource: R, issuer: &str) -> Result<Self, AuthSetupError> {
        let _ = (resource, issuer);
        Err(AuthSetupError::new("the `jwt` feature is off"))
    }
}

/// Private, so that no crate can implement the traits above and reach the
/// stubs.
mod sealed {
    pub trait Sealed {}
}
