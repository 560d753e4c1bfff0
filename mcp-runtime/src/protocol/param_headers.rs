//! `Mcp-Param-*` headers (2026-07-28), both sides: what a client sends
//! ([`for_call`]) and what a server checks ([`ParamHeaders`]). A tool
//! whose input schema marks a property with `x-mcp-header: NAME` has that
//! argument mirrored into the header `Mcp-Param-NAME` of every
//! `tools/call`, so that a proxy can route on it. The header and the argument must agree: both absent (a `null`
//! argument counts as absent), or the header, after `=?base64?...?=`
//! decoding, equal to the argument read as the property's type (`42`,
//! `true`). Anything else is -32020 with HTTP 400.

use hyper::HeaderMap;
use hyper::header::HeaderName;
use serde_json::Value;

use crate::jsonrpc::ErrorObject;
use crate::protocol::headers::{PARAM_HEADER_PREFIX, ParamHeader, decode_header_value};

/// The `x-mcp-header` properties of one tool's input schema, found once when
/// the tool is registered so that a call only looks up its own arguments.
#[derive(Debug, Default)]
pub(crate) struct ParamHeaders(Vec<Marked>);

/// One property mirrored into a header.
#[derive(Debug)]
struct Marked {
    name: HeaderName,
    /// `Mcp-Param-NAME` as the schema spells it, for error messages.
    shown: String,
    /// The property's place in the arguments, through `properties` only.
    path: Vec<String>,
    /// The property's `type`, which says how the header text is read.
    kind: Option<String>,
}

impl ParamHeaders {
    /// The annotations [`read_param_headers`] found in a tool's input
    /// schema, ready to check calls against.
    pub(crate) fn new(annotations: Vec<ParamHeader>) -> Self {
        let marked = annotations
            .into_iter()
            .filter_map(|header| {
                let name = format!("{PARAM_HEADER_PREFIX}{}", header.name);
                Some(Marked {
                    name: HeaderName::try_from(name).ok()?,
                    shown: format!("Mcp-Param-{}", header.name),
                    path: header.path,
                    kind: Some(header.kind),
                })
            })
            .collect();
        ParamHeaders(marked)
    }

    /// Checks the `Mcp-Param-*` headers of a call with `arguments`.
    pub(crate) fn check(
        &self,
        headers: &HeaderMap,
        arguments: Option<&Value>,
    ) -> Result<(), ErrorObject> {
        self.0
            .iter()
            .try_for_each(|marked| marked.check(headers, arguments))
    }
}

impl Marked {
    fn check(&self, headers: &HeaderMap, arguments: Option<&Value>) -> Result<(), ErrorObject> {
        let shown = &self.shown;
        let mut values = headers.get_all(&self.name).iter();
        let (value, repeated) = (values.next(), values.next().is_some());
        if repeated {
            return Err(mismatch(format!(
                "the {shown} header appears more than once"
            )));
        }
        let mut argument = arguments;
        for key in &self.path {
            argument = argument.and_then(|a| a.get(key));
        }
        let argument = argument.filter(|a| !a.is_null());
        let (value, argument) = match (value, argument) {
            (None, None) => return Ok(()),
            (Some(_), None) => {
                return Err(mismatch(format!(
                    "the {shown} header is present but the argument is absent"
                )));
            }
            (None, Some(_)) => {
                return Err(mismatch(format!(
                    "the {shown} header is missing but the argument is present"
                )));
            }
            (Some(value), Some(argument)) => (value, argument),
        };
        let decoded = value.to_str().ok().and_then(decode_header_value);
        let Some(decoded) = decoded else {
            return Err(mismatch(format!(
                "the {shown} header is not visible ASCII or not valid Base64"
            )));
        };
        if !matches(self.kind.as_deref(), argument, &decoded) {
            return Err(mismatch(format!(
                "the {shown} header value '{decoded}' does not match the argument {argument}"
            )));
        }
        Ok(())
    }
}

/// Whether the decoded header text is the argument, read as `kind`.
fn matches(kind: Option<&str>, argument: &Value, text: &str) -> bool {
    match (kind, argument) {
        (Some("integer"), Value::Number(number)) => {
            let header = text
                .split_once('.')
                .filter(|(_, fraction)| !fraction.is_empty() && fraction.bytes().all(|b| b == b'0'))
                .map_or(text, |(whole, _)| whole)
                .parse::<i128>();
            let body = number
                .as_i64()
                .map(i128::from)
                .or_else(|| number.as_u64().map(i128::from))
                .or_else(|| {
                    number
                        .as_f64()
                        .filter(|f| f.fract() == 0.0)
                        .map(|f| f as i128)
                });
            matches!((header, body), (Ok(h), Some(b)) if h == b)
        }
        (_, Value::Bool(flag)) => text == if *flag { "true" } else { "false" },
        (_, Value::String(string)) => text == string,
        (_, Value::Number(number)) => text == number.to_string(),
        _ => false,
    }
}

fn mismatch(detail: String) -> ErrorObject {
    ErrorObject::header_mismatch(detail)
}

/// The `Mcp-Param-*` headers a client sends with a call whose tool has
/// `annotations`: each argument as text (a string as it is, a number or a
/// boolean as JSON writes it), encoded for a header; a null or absent
/// argument sends none. [`ParamHeaders::check`] reads them back.
#[cfg(feature = "client")]
pub(crate) fn for_call(
    annotations: &[ParamHeader],
    arguments: &serde_json::Map<String, Value>,
) -> Vec<(HeaderName, hyper::header::HeaderValue)> {
    use crate::protocol::headers::encode_header_value;
    use hyper::header::HeaderValue;
    annotations
        .iter()
        .filter_map(|header| {
            let (first, rest) = header.path.split_first()?;
            let value = rest
                .iter()
                .try_fold(arguments.get(first)?, |value, key| value.get(key))?;
            let text = match value {
                Value::String(text) => text.clone(),
                Value::Number(number) => number.to_string(),
                Value::Bool(flag) => flag.to_string(),
                _ => return None,
            };
            let name = format!("{PARAM_HEADER_PREFIX}{}", header.name);
            let name = HeaderName::from_bytes(name.as_bytes()).ok()?;
            let value = HeaderValue::from_str(&encode_header_value(&text)).ok()?;
            Some((name, value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use hyper::header::HeaderValue;
    use serde_json::json;

    use super::*;
    use crate::jsonrpc::code;
    use crate::protocol::headers::read_param_headers;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "days": {"type": "integer", "x-mcp-header": "Days"},
            "exact": {"type": "boolean", "x-mcp-header": "Exact"},
            "note": {"type": "string"},
            "where": {"type": "object", "properties": {
                "city": {"type": "string", "x-mcp-header": "City"}
            }}
        }})
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    fn run(pairs: &[(&'static str, &'static str)], arguments: Value) -> Result<(), i64> {
        ParamHeaders::new(read_param_headers(&schema()).unwrap())
            .check(&headers(pairs), Some(&arguments))
            .map_err(|e| e.code)
    }

    #[test]
    #[cfg(feature = "client")]
    fn what_a_client_sends_is_what_the_server_accepts() {
        let annotations = read_param_headers(&schema()).unwrap();
        let checker = ParamHeaders::new(annotations.clone());
        for args in [
            json!({"region": "Zürich", "days": 3, "exact": true, "where": {"city": "Bern"}}),
            json!({"region": " padded ", "days": -7, "exact": false}),
            json!({"region": "=?base64?literal?=", "days": 12345678901_i64}),
            json!({"region": null, "where": {"city": "line1\nline2"}}),
            json!({}),
        ] {
            let mut sent = HeaderMap::new();
            for (name, value) in for_call(&annotations, args.as_object().unwrap()) {
                sent.append(name, value);
            }
            assert_eq!(checker.check(&sent, Some(&args)), Ok(()), "{args}");
        }
    }

    #[test]
    #[cfg(feature = "client")]
    fn converts_values_and_omits_nulls() {
        let schema = json!({"properties": {
            "s": {"type": "string", "x-mcp-header": "S"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "b": {"type": "boolean", "x-mcp-header": "B"},
            "u": {"type": "string", "x-mcp-header": "U"},
            "z": {"type": "string", "x-mcp-header": "Z"},
            "place": {"type": "object", "properties": {
                "city": {"type": "string", "x-mcp-header": "City"}
            }}
        }});
        let annotations = read_param_headers(&schema).unwrap();
        let arguments = json!({
            "s": " padded ", "n": 42, "b": true, "u": "ünï", "z": null,
            "place": {"city": "Oslo"}
        });
        let headers = for_call(&annotations, arguments.as_object().unwrap());
        let mut text: Vec<(String, String)> = headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_str().unwrap().to_owned()))
            .collect();
        text.sort();
        let expected = [
            ("mcp-param-b", "true"),
            ("mcp-param-city", "Oslo"),
            ("mcp-param-n", "42"),
            ("mcp-param-s", "=?base64?IHBhZGRlZCA=?="),
            ("mcp-param-u", "=?base64?w7xuw68=?="),
        ]
        .map(|(n, v)| (n.to_owned(), v.to_owned()));
        assert_eq!(text, expected);
    }

    #[test]
    fn agreeing_headers_pass() {
        let args = json!({"region": "Zürich", "days": 3, "exact": true, "note": "x",
                          "where": {"city": "Bern"}});
        let ok = [
            ("mcp-param-region", "=?base64?WsO8cmljaA==?="),
            ("mcp-param-days", "3"),
            ("mcp-param-exact", "true"),
            ("mcp-param-city", "Bern"),
        ];
        assert_eq!(run(&ok, args), Ok(()));
        // Absent or null arguments need no header; 3.0 is the integer 3.
        assert_eq!(run(&[], json!({"region": null})), Ok(()));
        assert_eq!(
            run(&[("mcp-param-days", "3.0")], json!({"days": 3})),
            Ok(())
        );
        assert_eq!(
            run(&[("mcp-param-days", "3")], json!({"days": 3.0})),
            Ok(())
        );
    }

    #[test]
    fn disagreements_are_32020() {
        let cases: [(&[(&str, &str)], Value); 8] = [
            (&[], json!({"region": "eu"})),
            (&[("mcp-param-region", "eu")], json!({})),
            (&[("mcp-param-region", "us")], json!({"region": "eu"})),
            (
                &[("mcp-param-region", "=?base64?ZXU?=")],
                json!({"region": "eu"}),
            ),
            (&[("mcp-param-days", "4")], json!({"days": 3})),
            (&[("mcp-param-days", "3.5")], json!({"days": 3})),
            (&[("mcp-param-exact", "1")], json!({"exact": true})),
            (
                &[("mcp-param-region", "eu"), ("mcp-param-region", "eu")],
                json!({"region": "eu"}),
            ),
        ];
        for (pairs, args) in cases {
            assert_eq!(
                run(pairs, args.clone()),
                Err(code::HEADER_MISMATCH),
                "{pairs:?} {args}"
            );
        }
    }

    #[test]
    fn unmarked_headers_are_ignored() {
        assert_eq!(
            run(&[("mcp-param-note", "y")], json!({"note": "x"})),
            Ok(())
        );
    }
}
