//! `WWW-Authenticate` challenges (RFC 9110 section 11.6.1, RFC 6750
//! section 3): written by a protected server, read by a client that must
//! learn where the resource's metadata is and which scope it lacks.
//!
//! The reader takes hostile input: it is bounded, never panics, and skips
//! what it cannot read instead of guessing.

use std::fmt;

/// The longest header value read; a longer one is refused whole.
pub const MAX_CHALLENGE_BYTES: usize = 8 * 1024;

/// The most parameters read from one header value.
const MAX_PARAMS: usize = 64;

/// One challenge: an auth scheme and its parameters, in order. Parameter
/// names are compared case-insensitively, as the RFC says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Challenge {
    /// The scheme, such as `Bearer`.
    pub scheme: String,
    /// The parameters, names lowercased, values unquoted.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// A `Bearer` challenge with no parameters yet.
    pub fn bearer() -> Self {
        Challenge {
            scheme: "Bearer".to_owned(),
            params: Vec::new(),
        }
    }

    /// Adds the parameter `name="value"`.
    pub fn param(mut self, name: &str, value: impl Into<String>) -> Self {
        self.params.push((name.to_ascii_lowercase(), value.into()));
        self
    }

    /// The value of the first parameter called `name` (any case).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Whether the scheme is `Bearer` (any case).
    pub fn is_bearer(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("bearer")
    }

    /// `resource_metadata`: where the resource's RFC 9728 metadata is.
    pub fn resource_metadata(&self) -> Option<&str> {
        self.get("resource_metadata")
    }

    /// `scope`: the scopes the request needs, space-separated.
    pub fn scope(&self) -> Option<&str> {
        self.get("scope")
    }

    /// `error`, such as `invalid_token` or `insufficient_scope`.
    pub fn error(&self) -> Option<&str> {
        self.get("error")
    }
}

/// Written as a header value: every parameter as a quoted string, with `"`
/// and `\` escaped and control characters dropped (they cannot travel in a
/// header).
impl fmt::Display for Challenge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.scheme)?;
        for (i, (name, value)) in self.params.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            write!(f, "{name}=\"")?;
            for c in value.chars().filter(|c| !c.is_control()) {
                if c == '"' || c == '\\' {
                    f.write_str("\\")?;
                }
                write!(f, "{c}")?;
            }
            f.write_str("\"")?;
        }
        Ok(())
    }
}

/// Why a header value could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeError(String);

impl fmt::Display for ChallengeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unreadable WWW-Authenticate header: {}", self.0)
    }
}

impl std::error::Error for ChallengeError {}

/// Reads every challenge of one `WWW-Authenticate` header value.
///
/// ```
/// use mcp_toolkit_runtime::oauth::challenge::parse;
///
/// let challenges = parse(r#"Bearer resource_metadata="https://x.example/.well-known/oauth-protected-resource", scope="a b""#).unwrap();
/// assert_eq!(challenges[0].scope(), Some("a b"));
/// ```
pub fn parse(value: &str) -> Result<Vec<Challenge>, ChallengeError> {
    if value.len() > MAX_CHALLENGE_BYTES {
        return Err(ChallengeError(format!(
            "longer than {MAX_CHALLENGE_BYTES} bytes"
        )));
    }
    let mut reader = Reader {
        rest: value.as_bytes(),
    };
    let mut challenges: Vec<Challenge> = Vec::new();
    let mut params = 0;
    loop {
        reader.skip_separators();
        if reader.rest.is_empty() {
            break;
        }
        let name = reader
            .token()
            .ok_or_else(|| ChallengeError(format!("unexpected `{}`", reader.peek_char())))?;
        reader.skip_spaces();
        if reader.rest.first() == Some(&b'=') {
            // `name=value`: a parameter of the current challenge.
            let current = challenges
                .last_mut()
                .ok_or_else(|| ChallengeError("a parameter before any scheme".to_owned()))?;
            reader.rest = &reader.rest[1..];
            reader.skip_spaces();
            let value = reader.value()?;
            params += 1;
            if params > MAX_PARAMS {
                return Err(ChallengeError(format!("more than {MAX_PARAMS} parameters")));
            }
            current.params.push((name.to_ascii_lowercase(), value));
            continue;
        }
        // A new challenge: a scheme, then a token68 or parameters.
        let mut challenge = Challenge {
            scheme: name.to_owned(),
            params: Vec::new(),
        };
        if let Some(token68) = reader.token68() {
            challenge.params.push((String::new(), token68.to_owned()));
        }
        challenges.push(challenge);
    }
    Ok(challenges)
}

/// The first `Bearer` challenge among `values` (every `WWW-Authenticate`
/// header of a response), if any can be read.
pub fn find_bearer<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<Challenge> {
    find(values, "Bearer")
}

/// The first challenge of `scheme` (any case) among `values`, if any can
/// be read.
pub fn find<'a>(values: impl IntoIterator<Item = &'a str>, scheme: &str) -> Option<Challenge> {
    values
        .into_iter()
        .filter_map(|value| parse(value).ok())
        .flatten()
        .find(|challenge| challenge.scheme.eq_ignore_ascii_case(scheme))
}

/// Whether `values` hold a `DPoP` challenge asking for a proof with the
/// server's nonce (`error="use_dpop_nonce"`, RFC 9449 section 9).
pub fn asks_for_dpop_nonce<'a>(values: impl IntoIterator<Item = &'a str>) -> bool {
    use super::dpop::{SCHEME, USE_NONCE};
    find(values, SCHEME).is_some_and(|c| c.error() == Some(USE_NONCE))
}

struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn peek_char(&self) -> char {
        self.rest.first().map_or(' ', |&b| b as char)
    }

    fn skip_spaces(&mut self) {
        while let [b' ' | b'\t', rest @ ..] = self.rest {
            self.rest = rest;
        }
    }

    fn skip_separators(&mut self) {
        while let [b' ' | b'\t' | b',', rest @ ..] = self.rest {
            self.rest = rest;
        }
    }

    /// An RFC 9110 token.
    fn token(&mut self) -> Option<&'a str> {
        let len = self.rest.iter().take_while(|&&b| is_tchar(b)).count();
        if len == 0 {
            return None;
        }
        let (token, rest) = self.rest.split_at(len);
        self.rest = rest;
        // tchars are ASCII, so this never fails.
        std::str::from_utf8(token).ok()
    }

    /// A token68 (its characters, then only `=` padding, then a comma or
    /// the end), or `None` with nothing read: `name=value` is a parameter.
    fn token68(&mut self) -> Option<&'a str> {
        let body = self
            .rest
            .iter()
            .take_while(|&&b| is_token68_char(b))
            .count();
        let padding = self.rest[body..].iter().take_while(|&&b| b == b'=').count();
        let len = body + padding;
        let ends = self.rest[len..]
            .iter()
            .find(|&&b| b != b' ' && b != b'\t')
            .is_none_or(|&b| b == b',');
        if body == 0 || !ends {
            return None;
        }
        let (token, rest) = self.rest.split_at(len);
        self.rest = rest;
        std::str::from_utf8(token).ok()
    }

    /// A parameter value: a token or a quoted string.
    fn value(&mut self) -> Result<String, ChallengeError> {
        if self.rest.first() != Some(&b'"') {
            return self
                .token()
                .map(str::to_owned)
                .ok_or_else(|| ChallengeError("a parameter without a value".to_owned()));
        }
        let mut value = Vec::new();
        let mut i = 1;
        while i < self.rest.len() {
            match self.rest[i] {
                b'"' => {
                    self.rest = &self.rest[i + 1..];
                    return String::from_utf8(value)
                        .map_err(|_| ChallengeError("a value that is not UTF-8".to_owned()));
                }
                b'\\' if i + 1 < self.rest.len() => {
                    value.push(self.rest[i + 1]);
                    i += 2;
                }
                b if b < 0x20 && b != b'\t' || b == 0x7f => {
                    return Err(ChallengeError("a control character in a value".to_owned()));
                }
                b => {
                    value.push(b);
                    i += 1;
                }
            }
        }
        Err(ChallengeError("an unterminated quoted string".to_owned()))
    }
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_token68_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~+/".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_spec_examples() {
        let value = r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read""#;
        let [challenge] = parse(value).unwrap().try_into().unwrap();
        assert!(challenge.is_bearer());
        assert_eq!(
            challenge.resource_metadata(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(challenge.scope(), Some("files:read"));

        let value = r#"Bearer error="insufficient_scope", scope="files:read files:write user:profile", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="Additional file write permission required""#;
        let [challenge] = parse(value).unwrap().try_into().unwrap();
        assert_eq!(challenge.error(), Some("insufficient_scope"));
        assert_eq!(
            challenge.scope(),
            Some("files:read files:write user:profile")
        );
    }

    #[test]
    fn reads_several_challenges_tokens_and_token68() {
        let challenges =
            parse(r#"Basic realm="x", Bearer error=invalid_token, Negotiate abc+/==, DPoP"#)
                .unwrap();
        let schemes: Vec<_> = challenges.iter().map(|c| c.scheme.as_str()).collect();
        assert_eq!(schemes, ["Basic", "Bearer", "Negotiate", "DPoP"]);
        assert_eq!(challenges[0].get("REALM"), Some("x"));
        assert_eq!(challenges[1].error(), Some("invalid_token"));
        assert_eq!(
            challenges[2].params,
            [(String::new(), "abc+/==".to_owned())]
        );
        assert_eq!(
            find_bearer(["Basic realm=x", "Bearer scope=\"a\""])
                .unwrap()
                .scope(),
            Some("a")
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let challenge = Challenge::bearer()
            .param("error", "insufficient_scope")
            .param("scope", "a b")
            .param("error_description", "quote \" and \\ backslash\r\n");
        let text = challenge.to_string();
        assert_eq!(
            text,
            r#"Bearer error="insufficient_scope", scope="a b", error_description="quote \" and \\ backslash""#
        );
        let read = parse(&text).unwrap();
        assert_eq!(
            read[0].get("error_description"),
            Some("quote \" and \\ backslash")
        );
        assert!(hyper::header::HeaderValue::from_str(&text).is_ok());
    }

    #[test]
    fn refuses_hostile_values_without_panicking() {
        for bad in [
            "Bearer scope=\"unterminated",
            "Bearer realm=x, scope=",
            "Bearer scope=\"a\u{1}b\"",
            "=x",
            "\"quoted\"",
            "Bearer scope=\"\\",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        // RFC 9110 reads `scope=` right after the scheme as a token68.
        assert_eq!(parse("Bearer scope=").unwrap()[0].scope(), None);
        assert!(parse(&"a".repeat(MAX_CHALLENGE_BYTES + 1)).is_err());
        let many = format!("Bearer {}", vec!["a=b"; 100].join(","));
        assert!(parse(&many).is_err());
    }
}
