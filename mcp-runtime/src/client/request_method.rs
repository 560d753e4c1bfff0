//! The method of a request the client sends: one MCP defines, whose row in
//! [`Method`]'s table gives its `Mcp-Name` header, or any other name a
//! caller of [`Client::request`](super::Client::request) chose.

use std::fmt;

use serde_json::Value;

use crate::protocol::Method;

/// A request's method, as the client sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RequestMethod<'a> {
    /// A method MCP defines.
    Mcp(Method),
    /// A name MCP does not define: sent as is, with no `Mcp-Name` header.
    Other(&'a str),
}

impl<'a> RequestMethod<'a> {
    /// The method `name` names.
    pub(crate) fn parse(name: &'a str) -> Self {
        Method::parse(name).map_or(RequestMethod::Other(name), RequestMethod::Mcp)
    }

    /// The wire name.
    pub(crate) fn name(self) -> &'a str {
        match self {
            RequestMethod::Mcp(method) => method.name(),
            RequestMethod::Other(name) => name,
        }
    }

    /// What the `Mcp-Name` header carries for these `params`, if anything.
    pub(crate) fn target_in(self, params: &Value) -> Option<&str> {
        match self {
            RequestMethod::Mcp(method) => method.target_in(params),
            RequestMethod::Other(_) => None,
        }
    }
}

impl From<Method> for RequestMethod<'_> {
    fn from(method: Method) -> Self {
        RequestMethod::Mcp(method)
    }
}

impl fmt::Display for RequestMethod<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn known_names_become_methods_and_only_they_name_a_target() {
        let params = json!({"taskId": "t-1", "name": "n"});
        let get = RequestMethod::parse("tasks/get");
        assert_eq!(get, RequestMethod::Mcp(Method::TasksGet));
        assert_eq!(get.target_in(&params), Some("t-1"));
        let custom = RequestMethod::parse("acme/get");
        assert_eq!(custom, RequestMethod::Other("acme/get"));
        assert_eq!(custom.name(), "acme/get");
        assert_eq!(custom.target_in(&params), None);
    }
}
