//! The one rule for showing a URL in an error, a `Debug` output or a log
//! line: scheme, host, port and path, never the userinfo
//! (`user:password@`), the query (`?token=...`, an OAuth `state` or
//! `code`) or the fragment. Every message of this crate, `mcp-host` and
//! `mcp-codegen` that names a URL goes through [`RedactedUrl`].

use std::fmt;

/// A URL as messages show it (see the [module](self)). Works on any text,
/// a URL that does not parse included, so an "invalid URL" message is
/// redacted too.
///
/// ```
/// use mcp_runtime::redact::RedactedUrl;
///
/// let url = "https://user:pw@api.example.com/mcp?token=s3cret#frag";
/// assert_eq!(RedactedUrl::new(url).to_string(), "https://api.example.com/mcp");
/// ```
#[derive(Clone, Copy)]
pub struct RedactedUrl<'a>(&'a str);

impl<'a> RedactedUrl<'a> {
    /// Wraps `url`; nothing is computed until it is shown.
    pub fn new(url: &'a str) -> Self {
        RedactedUrl(url)
    }

    /// The parts that may be shown: what precedes the authority (`https://`)
    /// and what follows its userinfo up to the query or fragment.
    fn parts(self) -> (&'a str, &'a str) {
        let url = self.0;
        let url = &url[..url.find(['?', '#']).unwrap_or(url.len())];
        let authority_start = match url.find("://") {
            Some(end) if is_scheme(&url[..end]) => end + 3,
            // No scheme: an `@` before the first `/` still ends a userinfo.
            _ => 0,
        };
        let (prefix, rest) = url.split_at(authority_start);
        // WHATWG parsers end the authority at `\` as well as at `/`.
        let authority_end = rest.find(['/', '\\']).unwrap_or(rest.len());
        let host_start = rest[..authority_end].rfind('@').map_or(0, |at| at + 1);
        (prefix, &rest[host_start..])
    }
}

/// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn is_scheme(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

impl fmt::Display for RedactedUrl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (prefix, rest) = self.parts();
        f.write_str(prefix)?;
        f.write_str(rest)
    }
}

/// Quoted, as a `String` field would be.
impl fmt::Debug for RedactedUrl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::RedactedUrl;

    fn shown(url: &str) -> String {
        RedactedUrl::new(url).to_string()
    }

    #[test]
    fn userinfo_query_and_fragment_are_never_shown() {
        let cases = [
            ("https://host/mcp", "https://host/mcp"),
            ("https://user:pass@host:8443/mcp", "https://host:8443/mcp"),
            ("https://user@host", "https://host"),
            ("http://a:b@c@host/p@th", "http://host/p@th"),
            ("https://host/mcp?token=s3cret", "https://host/mcp"),
            ("https://host/cb#code=x", "https://host/cb"),
            ("https://host/cb#frag?state=x", "https://host/cb"),
            ("https://host?state=x&code=y", "https://host"),
            ("redis://:pw@127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
            ("http://u:p@host\\path", "http://host\\path"),
            ("user:pass@host/x?y", "host/x"),
            ("not a url ?token=x", "not a url "),
            ("", ""),
        ];
        for (url, expected) in cases {
            assert_eq!(shown(url), expected, "{url}");
        }
        assert_eq!(
            format!("{:?}", RedactedUrl::new("http://u:p@h/?q")),
            "\"http://h/\""
        );
    }
}
