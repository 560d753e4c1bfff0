//! RFC 6570 URI templates, matched in reverse: given a URI, find the values
//! of the template's variables.
//!
//! Supported: simple `{var}`, reserved `{+var}`, fragment `{#var}`, label
//! `{.var}`, path `{/var}`, path-parameter `{;var}` and query `{?a,b}` /
//! `{&a,b}` expressions. Values are percent-decoded. Prefix (`:n`) and explode
//! (`*`) modifiers are accepted; an exploded variable keeps its raw text.

use std::collections::BTreeMap;
use std::fmt;

/// A parsed URI template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Expression {
        operator: Operator,
        names: Vec<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    PathParam,
    Query,
    QueryContinuation,
}

impl Operator {
    /// The text that starts the expansion of this expression, if any.
    fn prefix(self) -> &'static str {
        match self {
            Operator::Simple | Operator::Reserved => "",
            Operator::Fragment => "#",
            Operator::Label => ".",
            Operator::Path => "/",
            Operator::PathParam => ";",
            Operator::Query => "?",
            Operator::QueryContinuation => "&",
        }
    }

    /// Characters a value of this expression may not contain unencoded.
    fn stops(self) -> &'static [char] {
        match self {
            Operator::Simple => &['/', '?', '#', '&', ',', '.'],
            Operator::Reserved => &['?', '#'],
            Operator::Fragment => &[],
            Operator::Label => &['/', '?', '#', '.'],
            Operator::Path => &['/', '?', '#'],
            Operator::PathParam => &['/', '?', '#', ';'],
            Operator::Query | Operator::QueryContinuation => &['&', '#'],
        }
    }
}

/// Why a template could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplateError(String);

impl fmt::Display for UriTemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UriTemplateError {}

impl UriTemplate {
    /// Parses a template such as `file:///{path}` or `weather://{city}{?units}`.
    pub fn parse(source: &str) -> Result<Self, UriTemplateError> {
        let mut parts = Vec::new();
        let mut rest = source;
        while !rest.is_empty() {
            match rest.find(['{', '}']) {
                Some(i) if rest.as_bytes()[i] == b'}' => {
                    return Err(UriTemplateError(format!("unmatched '}}' in `{source}`")));
                }
                Some(i) => {
                    if i > 0 {
                        parts.push(Part::Literal(rest[..i].to_owned()));
                    }
                    let close = rest[i..]
                        .find('}')
                        .ok_or_else(|| UriTemplateError(format!("unclosed '{{' in `{source}`")))?;
                    parts.push(parse_expression(&rest[i + 1..i + close], source)?);
                    rest = &rest[i + close + 1..];
                }
                None => {
                    parts.push(Part::Literal(rest.to_owned()));
                    rest = "";
                }
            }
        }
        if parts
            .windows(2)
            .any(|w| is_open_ended(&w[0]) && is_open_ended(&w[1]))
        {
            return Err(UriTemplateError(format!(
                "`{source}`: two adjacent expressions cannot be told apart when matching"
            )));
        }
        Ok(UriTemplate {
            source: source.to_owned(),
            parts,
        })
    }

    /// The template text.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The variable names, in order of appearance.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts
            .iter()
            .flat_map(|part| match part {
                Part::Literal(_) => [].iter(),
                Part::Expression { names, .. } => names.iter(),
            })
            .map(String::as_str)
    }

    /// Whether `name` is a query variable (`{?name}` or `{&name}`), which a
    /// URI may leave out.
    pub fn is_optional(&self, name: &str) -> bool {
        self.parts.iter().any(|part| match part {
            Part::Expression { operator, names } => {
                matches!(operator, Operator::Query | Operator::QueryContinuation)
                    && names.iter().any(|n| n == name)
            }
            Part::Literal(_) => false,
        })
    }

    /// Matches `uri` against the template, returning each variable that
    /// appears in it. Query variables may be absent.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let mut vars = BTreeMap::new();
        let mut rest = uri;
        for (i, part) in self.parts.iter().enumerate() {
            match part {
                Part::Literal(text) => rest = rest.strip_prefix(text.as_str())?,
                Part::Expression { operator, names } => {
                    let next_literal = match self.parts.get(i + 1) {
                        Some(Part::Literal(text)) => Some(text.as_str()),
                        _ => None,
                    };
                    rest = match_expression(*operator, names, rest, next_literal, &mut vars)?;
                }
            }
        }
        rest.is_empty().then_some(vars)
    }
}

fn is_open_ended(part: &Part) -> bool {
    matches!(
        part,
        Part::Expression {
            operator: Operator::Simple | Operator::Reserved,
            ..
        }
    )
}

fn parse_expression(body: &str, source: &str) -> Result<Part, UriTemplateError> {
    let (operator, list) = match body.chars().next() {
        Some('+') => (Operator::Reserved, &body[1..]),
        Some('#') => (Operator::Fragment, &body[1..]),
        Some('.') => (Operator::Label, &body[1..]),
        Some('/') => (Operator::Path, &body[1..]),
        Some(';') => (Operator::PathParam, &body[1..]),
        Some('?') => (Operator::Query, &body[1..]),
        Some('&') => (Operator::QueryContinuation, &body[1..]),
        Some('=' | ',' | '!' | '@' | '|') => {
            return Err(UriTemplateError(format!(
                "`{source}`: reserved operator in `{{{body}}}`"
            )));
        }
        _ => (Operator::Simple, body),
    };
    let mut names = Vec::new();
    for spec in list.split(',') {
        let name = spec.trim_end_matches('*');
        let name = name.split_once(':').map_or(name, |(name, len)| {
            if len.is_empty() || !len.bytes().all(|b| b.is_ascii_digit()) {
                ""
            } else {
                name
            }
        });
        let valid = !name.is_empty()
            && name.split('.').all(|s| {
                !s.is_empty()
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'%')
            });
        if !valid {
            return Err(UriTemplateError(format!(
                "`{source}`: `{spec}` is not a variable name (letters, digits and `_`)"
            )));
        }
        names.push(name.to_owned());
    }
    Ok(Part::Expression { operator, names })
}

/// Consumes the text of one expression from `rest`, recording variables.
fn match_expression<'u>(
    operator: Operator,
    names: &[String],
    rest: &'u str,
    next_literal: Option<&str>,
    vars: &mut BTreeMap<String, String>,
) -> Option<&'u str> {
    let stops = operator.stops();
    let end_of = |text: &str| -> usize {
        let mut end = text.find(stops).unwrap_or(text.len());
        if let Some(lit) = next_literal.filter(|l| !l.is_empty()) {
            if let Some(at) = text[..end].find(lit) {
                end = at;
            }
        }
        end
    };
    match operator {
        Operator::Query | Operator::QueryContinuation => {
            let Some(body) = rest.strip_prefix(operator.prefix()) else {
                return Some(rest);
            };
            let (query, tail) = body.split_at(body.find('#').unwrap_or(body.len()));
            for pair in query.split('&') {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                if names.iter().any(|n| n == key) {
                    vars.insert(key.to_owned(), decode(value)?);
                }
            }
            Some(tail)
        }
        _ => {
            let body = rest.strip_prefix(operator.prefix())?;
            let end = end_of(body);
            let (text, tail) = body.split_at(end);
            if names.len() == 1 {
                let text = if operator == Operator::PathParam {
                    text.strip_prefix(names[0].as_str())?
                        .strip_prefix('=')
                        .unwrap_or("")
                } else {
                    text
                };
                if text.is_empty() && operator == Operator::Simple {
                    return None;
                }
                vars.insert(names[0].clone(), decode(text)?);
            } else {
                let values: Vec<&str> = text.split(',').collect();
                if values.len() != names.len() {
                    return None;
                }
                for (name, value) in names.iter().zip(values) {
                    vars.insert(name.clone(), decode(value)?);
                }
            }
            Some(tail)
        }
    }
}

/// Percent-decodes `text`; `None` for malformed escapes or invalid UTF-8.
fn decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        UriTemplate::parse(template)
            .unwrap()
            .matches(uri)
            .map(|m| m.into_iter().collect())
    }

    fn pairs(list: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(
            list.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn simple_variables_stop_at_slashes() {
        assert_eq!(
            vars("test://template/{id}/data", "test://template/42/data"),
            pairs(&[("id", "42")])
        );
        assert_eq!(vars("users://{id}", "users://a/b"), None);
        assert_eq!(vars("users://{id}", "users://"), None);
        assert_eq!(vars("users://{id}", "other://1"), None);
    }

    #[test]
    fn reserved_variables_take_slashes() {
        assert_eq!(
            vars("file:///{+path}", "file:///a/b/c.txt"),
            pairs(&[("path", "a/b/c.txt")])
        );
    }

    #[test]
    fn values_are_percent_decoded() {
        assert_eq!(
            vars("notes://{title}", "notes://caf%C3%A9%20au%20lait"),
            pairs(&[("title", "café au lait")])
        );
        assert_eq!(vars("notes://{title}", "notes://bad%zz"), None);
    }

    #[test]
    fn query_variables_are_optional() {
        assert_eq!(
            vars(
                "weather://{city}{?units,lang}",
                "weather://paris?units=metric&lang=fr"
            ),
            pairs(&[("city", "paris"), ("lang", "fr"), ("units", "metric")])
        );
        assert_eq!(
            vars("weather://{city}{?units}", "weather://paris"),
            pairs(&[("city", "paris")])
        );
    }

    #[test]
    fn path_and_multi_variable_expressions() {
        assert_eq!(
            vars("api://x{/a,b}", "api://x/1,2"),
            pairs(&[("a", "1"), ("b", "2")])
        );
        assert_eq!(
            vars("repo://{owner}/{name}", "repo://rust-lang/rust"),
            pairs(&[("name", "rust"), ("owner", "rust-lang")])
        );
    }

    #[test]
    fn malformed_templates_are_errors() {
        for bad in [
            "a://{",
            "a://}",
            "a://{}",
            "a://{a b}",
            "a://{=x}",
            "a://{a}{b}",
        ] {
            assert!(UriTemplate::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn lists_variables() {
        let t = UriTemplate::parse("a://{x}/{+y}{?z,w}").unwrap();
        assert_eq!(t.variables().collect::<Vec<_>>(), ["x", "y", "z", "w"]);
    }
}
