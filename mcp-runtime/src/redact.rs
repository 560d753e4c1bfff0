//! The one rule for showing a URL in an error, a `Debug` output or a log
//! line: scheme, host, port and path, never the userinfo
//! (`user:password@`), the query (`?token=...`, an OAuth `state` or
//! `code`) or the fragment. Every message of this crate, `mcp-host` and
//! `mcp-codegen` that names a URL goes through [`RedactedUrl`].
//!
//! The module is also the one home of the rule that finds a URL's
//! authority and its userinfo in text (`split_authority`,
//! `split_userinfo`), which requests and OAuth's URL checks follow too.

use std::fmt;

/// A URL as messages show it (see the [module](self)). Works on any text,
/// a URL that does not parse included, so an "invalid URL" message is
/// redacted too.
///
/// A password may hold an unescaped `/`, `\`, `?` or `#`, and then its
/// userinfo reads like a path, query or fragment that holds an `@`
/// (`https://u:pa/ss@host` or `https://host/p?mail=a@b`): such a URL is
/// shown as its scheme and `…`, since which reading is meant cannot be
/// known and either could hide a secret.
///
/// ```
/// use mcp_toolkit_runtime::redact::RedactedUrl;
///
/// let url = "https://user:pw@api.example.com/mcp?token=s3cret#frag";
/// assert_eq!(RedactedUrl::new(url).to_string(), "https://api.example.com/mcp");
/// let url = "https://user:pa/ss?@api.example.com/mcp";
/// assert_eq!(RedactedUrl::new(url).to_string(), "https://…");
/// ```
#[derive(Clone, Copy)]
pub struct RedactedUrl<'a>(&'a str);

impl<'a> RedactedUrl<'a> {
    /// Wraps `url`; nothing is computed until it is shown.
    pub fn new(url: &'a str) -> Self {
        RedactedUrl(url)
    }

    /// What precedes the authority (`https://`) and, unless the text is
    /// ambiguous (see [`RedactedUrl`]), the host, port and path.
    fn parts(self) -> (&'a str, Option<(&'a str, &'a str)>) {
        let (prefix, authority, rest) = split_authority(self.0);
        if rest.contains('@') {
            return (prefix, None);
        }
        let (_, host) = split_userinfo(authority);
        let path = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
        (prefix, Some((host, path)))
    }
}

/// `url` as `(prefix, authority, rest)`: the prefix is `scheme://` (empty
/// when the text has none, and then the authority starts the text), the
/// authority runs to the first `/`, `\`, `?` or `#` (WHATWG parsers end it
/// at `\` too), and the rest is the path, query and fragment.
pub(crate) fn split_authority(url: &str) -> (&str, &str, &str) {
    let authority_start = match url.find("://") {
        Some(end) if is_scheme(&url[..end]) => end + 3,
        _ => 0,
    };
    let (prefix, tail) = url.split_at(authority_start);
    let authority_end = tail.find(['/', '\\', '?', '#']).unwrap_or(tail.len());
    let (authority, rest) = tail.split_at(authority_end);
    (prefix, authority, rest)
}

/// An authority as its userinfo (`None` without one) and its host and
/// port: the userinfo ends at the last `@`, since a password may hold one.
pub(crate) fn split_userinfo(authority: &str) -> (Option<&str>, &str) {
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => (Some(userinfo), host),
        None => (None, authority),
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
        let (prefix, shown) = self.parts();
        f.write_str(prefix)?;
        match shown {
            Some((host, path)) => {
                f.write_str(host)?;
                f.write_str(path)
            }
            None => f.write_str("…"),
        }
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
    use super::{RedactedUrl, split_authority, split_userinfo};
    use proptest::prelude::*;

    fn shown(url: &str) -> String {
        RedactedUrl::new(url).to_string()
    }

    #[test]
    fn userinfo_query_and_fragment_are_never_shown() {
        let cases = [
            ("https://host/mcp", "https://host/mcp"),
            ("https://user:pass@host:8443/mcp", "https://host:8443/mcp"),
            ("https://user@host", "https://host"),
            ("http://a:b@c@host/path", "http://host/path"),
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

    /// A password with an unescaped `?`, `#`, `/` or `\` ends the authority
    /// early; the `@` after it gives the userinfo away, and then nothing
    /// but the scheme is shown, whatever else the `@` could be part of.
    #[test]
    fn an_at_sign_after_the_authority_shows_only_the_scheme() {
        let cases = [
            ("https://user:p?ss@host/mcp", "https://…"),
            ("redis://:pa?ss@10.0.0.1:6379", "redis://…"),
            ("https://user:p#ss@host/mcp", "https://…"),
            ("https://user:pa/ss@host/mcp", "https://…"),
            ("redis://:abc/def+ghi=@10.0.0.1:6379/0", "redis://…"),
            ("https://user:pa\\ss@host", "https://…"),
            ("user:p?ss@host/x", "…"),
            // The same text may be a query or a path with an `@`: the host
            // cannot be told from a password then.
            ("https://host?x=a@b", "https://…"),
            ("https://host/path?x=a@b", "https://…"),
            ("https://host/@alice/mcp", "https://…"),
            ("https://u:p@host/x#f@g", "https://…"),
        ];
        for (url, expected) in cases {
            assert_eq!(shown(url), expected, "{url}");
        }
    }

    #[test]
    fn the_authority_ends_at_the_first_delimiter_and_its_userinfo_at_its_last_at() {
        assert_eq!(
            split_authority("https://u:p@h:1/p?q#f"),
            ("https://", "u:p@h:1", "/p?q#f")
        );
        assert_eq!(split_authority("http://h\\p"), ("http://", "h", "\\p"));
        assert_eq!(split_authority("http://h?q@x"), ("http://", "h", "?q@x"));
        assert_eq!(split_authority("1http://h/p"), ("", "1http:", "//h/p"));
        assert_eq!(split_userinfo("a@b@h:1"), (Some("a@b"), "h:1"));
        assert_eq!(split_userinfo("h:1"), (None, "h:1"));
    }

    proptest! {
        /// Whatever the userinfo holds (any of `:@/?#\%` too), the URL is
        /// shown as its scheme, host and path, or (when the userinfo holds
        /// a delimiter, or the query or fragment an `@`) as its scheme
        /// alone; never with the password.
        #[test]
        fn no_password_is_ever_shown(
            scheme in "[a-z][a-z0-9+.-]{0,6}",
            user in "[a-zA-Z0-9:@/?#\\\\%.+=-]{0,8}",
            password in "[a-zA-Z0-9:@/?#\\\\%.+=-]{4,16}",
            host in "[a-z0-9.-]{1,12}(:[0-9]{1,5})?",
            path in "(/[a-zA-Z0-9._~-]{0,8}){0,3}",
            query in "(\\?[a-zA-Z0-9:@/?#\\\\%.+=-]{0,12})?",
            fragment in "(#[a-zA-Z0-9:@/?#\\\\%.+=-]{0,12})?",
        ) {
            let url = format!("{scheme}://{user}:{password}@{host}{path}{query}{fragment}");
            let shown = shown(&url);
            let delimiters = ['/', '\\', '?', '#'];
            let tail_has_at = format!("{query}{fragment}").contains('@');
            if user.contains(delimiters) || password.contains(delimiters) || tail_has_at {
                prop_assert_eq!(&shown, &format!("{scheme}://…"));
            } else {
                prop_assert_eq!(&shown, &format!("{scheme}://{host}{path}"));
            }
            // (Unless the password is also a piece of what may be shown.)
            if !format!("{scheme}://{host}{path}").contains(&password) {
                prop_assert!(!shown.contains(&password), "{} shows {}", url, password);
            }
        }
    }
}
