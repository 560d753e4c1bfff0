//! The naming rules of the Model Context Protocol, in one place for the
//! two crates that enforce them: `mcp-toolkit-runtime` when a server is built (and
//! when a client reads a server's tools), `mcp-toolkit-macros` at compile time.
//! No dependencies, so that the macros stay cheap to build.

/// The spec's rule for tool names: 1 to 128 characters from `A-Z`, `a-z`,
/// `0-9`, `_`, `-` and `.`.
///
/// ```
/// assert!(mcp_toolkit_names::is_valid_tool_name("notes.search_v2"));
/// assert!(!mcp_toolkit_names::is_valid_tool_name("search notes"));
/// ```
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Whether `name` may follow `Mcp-Param-` in a header that an `x-mcp-header`
/// annotation asks for: a non-empty RFC 9110 token.
///
/// ```
/// assert!(mcp_toolkit_names::is_header_token("Region"));
/// assert!(!mcp_toolkit_names::is_header_token("Région"));
/// ```
pub fn is_header_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Whether `scope` is one OAuth 2.1 scope token (RFC 6749 section 3.3):
/// one or more visible ASCII characters other than `"` and `\`. A space
/// separates scopes, so it never occurs inside one.
///
/// ```
/// assert!(mcp_toolkit_names::is_scope_token("notes:write"));
/// assert!(!mcp_toolkit_names::is_scope_token("notes write"));
/// ```
pub fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_follow_the_spec() {
        assert!(is_valid_tool_name("a"));
        assert!(is_valid_tool_name(&"x".repeat(128)));
        for bad in ["", "has space", "slash/name", "ünï", &"x".repeat(129)] {
            assert!(!is_valid_tool_name(bad), "{bad}");
        }
    }

    #[test]
    fn scopes_are_rfc6749_tokens() {
        for good in ["a", "notes:write", "https://api.example.com/read", "x!#[]~"] {
            assert!(is_scope_token(good), "{good}");
        }
        for bad in ["", "two words", "quo\"te", "back\\slash", "tab\t", "é"] {
            assert!(!is_scope_token(bad), "{bad}");
        }
    }

    #[test]
    fn header_names_are_tokens() {
        assert!(is_header_token("X-Region_2"));
        for bad in ["", "Has Space", "Colon:", "Région", "a\"b"] {
            assert!(!is_header_token(bad), "{bad}");
        }
    }
}
