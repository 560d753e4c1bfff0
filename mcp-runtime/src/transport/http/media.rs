//! Media types: the request's `Content-Type` and what its `Accept` allows
//! the response to be.

use hyper::{HeaderMap, header};

/// Whether the body is declared as JSON (`application/json`, any
/// parameters).
pub(super) fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| essence(v).eq_ignore_ascii_case("application/json"))
}

/// The response forms a client accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Accepts {
    /// `application/json`.
    pub(super) json: bool,
    /// `text/event-stream`.
    pub(super) sse: bool,
}

impl Accepts {
    /// Reads every `Accept` header; none at all accepts anything
    /// (RFC 9110 §12.5.1). Ranges with `q=0` are refusals.
    pub(super) fn from_headers(headers: &HeaderMap) -> Self {
        let mut values = headers.get_all(header::ACCEPT).iter().peekable();
        if values.peek().is_none() {
            return Accepts {
                json: true,
                sse: true,
            };
        }
        let mut accepts = Accepts {
            json: false,
            sse: false,
        };
        let ranges = values
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter(|range| !refused(range));
        for range in ranges {
            let range = essence(range);
            let is = |name: &str| range.eq_ignore_ascii_case(name);
            if is("*/*") {
                accepts.json = true;
                accepts.sse = true;
            } else if is("application/*") || is("application/json") {
                accepts.json = true;
            } else if is("text/*") || is("text/event-stream") {
                accepts.sse = true;
            }
        }
        accepts
    }
}

/// The media type without parameters.
fn essence(value: &str) -> &str {
    value.split(';').next().unwrap_or_default().trim()
}

/// Whether a media range carries `q=0` (or `q=0.0`, ...).
fn refused(range: &str) -> bool {
    range.split(';').skip(1).any(|param| {
        param.split_once('=').is_some_and(|(name, value)| {
            name.trim().eq_ignore_ascii_case("q")
                && value.trim().parse::<f32>().is_ok_and(|q| q == 0.0)
        })
    })
}

#[cfg(test)]
mod tests {
    use hyper::header::HeaderValue;

    use super::*;

    fn headers(name: header::HeaderName, values: &[&'static str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append(name.clone(), HeaderValue::from_static(v));
        }
        map
    }

    fn accepts(values: &[&'static str]) -> (bool, bool) {
        let a = Accepts::from_headers(&headers(header::ACCEPT, values));
        (a.json, a.sse)
    }

    #[test]
    fn accept_ranges() {
        assert_eq!(accepts(&[]), (true, true));
        assert_eq!(
            accepts(&["application/json, text/event-stream"]),
            (true, true)
        );
        assert_eq!(
            accepts(&["application/json", "text/event-stream;q=0.5"]),
            (true, true)
        );
        assert_eq!(accepts(&["*/*"]), (true, true));
        assert_eq!(accepts(&["Application/JSON; charset=utf-8"]), (true, false));
        assert_eq!(accepts(&["text/*"]), (false, true));
        assert_eq!(accepts(&["text/html"]), (false, false));
        assert_eq!(
            accepts(&["*/*;q=0", "application/json;q=0.0"]),
            (false, false)
        );
    }

    #[test]
    fn content_type() {
        assert!(is_json(&headers(
            header::CONTENT_TYPE,
            &["application/json; charset=utf-8"]
        )));
        assert!(!is_json(&headers(header::CONTENT_TYPE, &["text/plain"])));
        assert!(!is_json(&HeaderMap::new()));
    }
}
