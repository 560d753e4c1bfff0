//! A request's method as the server received it: one MCP defines
//! ([`Method`]), or the name of one it does not.

pub(crate) use crate::protocol::Method;

/// A request's method: known, or the name as received.
pub(crate) type Requested = Result<Method, String>;

/// The wire name of a requested method.
pub(crate) fn method_name(method: &Requested) -> &str {
    match method {
        Ok(method) => method.name(),
        Err(unknown) => unknown,
    }
}
