//! Parsing a template into literals and expressions (RFC 6570 section 2).

use crate::UriTemplateError;
use crate::chars::{Allow, is_reserved, is_triplet, is_unreserved};

/// Longest template accepted, in bytes; with [`MAX_VARIABLES`] it bounds the
/// size of the matcher's program and so the memory a match may use.
pub const MAX_TEMPLATE_LEN: usize = 1024;

/// Most variable specifications a template may hold.
pub const MAX_VARIABLES: usize = 64;

/// A piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    Literal(String),
    Expression {
        operator: Operator,
        vars: Vec<VarSpec>,
    },
}

/// One variable of an expression with its modifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VarSpec {
    pub(crate) name: String,
    /// `:n`: at most this many characters of a string value.
    pub(crate) prefix: Option<u16>,
    /// `*`: lists and arrays expand member by member.
    pub(crate) explode: bool,
}

/// The expression types of RFC 6570 section 3.2 (table in appendix A).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operator {
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
    /// Written before the first defined variable.
    pub(crate) fn first(self) -> &'static str {
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

    /// Written between defined variables (and exploded members).
    pub(crate) fn sep(self) -> u8 {
        match self {
            Operator::Simple | Operator::Reserved | Operator::Fragment => b',',
            Operator::Label => b'.',
            Operator::Path => b'/',
            Operator::PathParam => b';',
            Operator::Query | Operator::QueryContinuation => b'&',
        }
    }

    /// Whether values are written as `name=value`.
    pub(crate) fn named(self) -> bool {
        matches!(
            self,
            Operator::PathParam | Operator::Query | Operator::QueryContinuation
        )
    }

    /// Whether an empty named value keeps its `=` (`?x=`) or drops it (`;x`).
    pub(crate) fn empty_keeps_equals(self) -> bool {
        matches!(self, Operator::Query | Operator::QueryContinuation)
    }

    pub(crate) fn allow(self) -> Allow {
        match self {
            Operator::Reserved | Operator::Fragment => Allow::UnreservedReserved,
            _ => Allow::Unreserved,
        }
    }
}

fn error(source: &str, message: impl std::fmt::Display) -> UriTemplateError {
    UriTemplateError(format!("`{source}`: {message}"))
}

/// Splits `source` into literals and expressions.
pub(crate) fn parse(source: &str) -> Result<Vec<Part>, UriTemplateError> {
    if source.len() > MAX_TEMPLATE_LEN {
        return Err(UriTemplateError(format!(
            "template longer than {MAX_TEMPLATE_LEN} bytes"
        )));
    }
    let mut parts = Vec::new();
    let mut variables = 0;
    let mut rest = source;
    while !rest.is_empty() {
        match rest.find(['{', '}']) {
            Some(i) if rest.as_bytes()[i] == b'}' => {
                return Err(UriTemplateError(format!("unmatched '}}' in `{source}`")));
            }
            Some(i) => {
                push_literal(&mut parts, &rest[..i], source)?;
                let close = rest[i..]
                    .find('}')
                    .ok_or_else(|| UriTemplateError(format!("unclosed '{{' in `{source}`")))?;
                let (operator, vars) = parse_expression(&rest[i + 1..i + close], source)?;
                variables += vars.len();
                parts.push(Part::Expression { operator, vars });
                rest = &rest[i + close + 1..];
            }
            None => {
                push_literal(&mut parts, rest, source)?;
                rest = "";
            }
        }
    }
    if variables > MAX_VARIABLES {
        return Err(error(
            source,
            format!("more than {MAX_VARIABLES} variables"),
        ));
    }
    Ok(parts)
}

/// RFC 6570 `literals`: URI characters other than `'` (plus non-ASCII);
/// `%` only as the start of a triplet.
fn push_literal(parts: &mut Vec<Part>, text: &str, source: &str) -> Result<(), UriTemplateError> {
    if text.is_empty() {
        return Ok(());
    }
    let bytes = text.as_bytes();
    for (at, ch) in text.char_indices() {
        let allowed = match ch {
            '%' => is_triplet(bytes, at),
            '\'' => false,
            _ if ch.is_ascii() => is_unreserved(ch as u8) || is_reserved(ch as u8),
            _ => !ch.is_control(),
        };
        if !allowed {
            let what = if ch == '%' {
                "`%` not followed by two hex digits".to_owned()
            } else {
                format!("{ch:?} may not appear in a URI template (percent-encode it)")
            };
            return Err(error(source, what));
        }
    }
    parts.push(Part::Literal(text.to_owned()));
    Ok(())
}

fn parse_expression(
    body: &str,
    source: &str,
) -> Result<(Operator, Vec<VarSpec>), UriTemplateError> {
    let (operator, list) = match body.chars().next() {
        Some('+') => (Operator::Reserved, &body[1..]),
        Some('#') => (Operator::Fragment, &body[1..]),
        Some('.') => (Operator::Label, &body[1..]),
        Some('/') => (Operator::Path, &body[1..]),
        Some(';') => (Operator::PathParam, &body[1..]),
        Some('?') => (Operator::Query, &body[1..]),
        Some('&') => (Operator::QueryContinuation, &body[1..]),
        Some('=' | ',' | '!' | '@' | '|') => {
            return Err(error(source, format!("reserved operator in `{{{body}}}`")));
        }
        _ => (Operator::Simple, body),
    };
    let vars = list
        .split(',')
        .map(|spec| parse_varspec(spec, source))
        .collect::<Result<_, _>>()?;
    Ok((operator, vars))
}

fn parse_varspec(spec: &str, source: &str) -> Result<VarSpec, UriTemplateError> {
    let (name, prefix, explode) = if let Some(name) = spec.strip_suffix('*') {
        (name, None, true)
    } else if let Some((name, length)) = spec.split_once(':') {
        // `max-length = %x31-39 0*3DIGIT`: 1 to 9999.
        let valid = (1..=4).contains(&length.len())
            && length.bytes().all(|b| b.is_ascii_digit())
            && !length.starts_with('0');
        match length.parse::<u16>() {
            Ok(n) if valid => (name, Some(n), false),
            _ => {
                return Err(error(
                    source,
                    format!("`{spec}`: a prefix length is 1 to 9999, e.g. `{{{name}:3}}`"),
                ));
            }
        }
    } else {
        (spec, None, false)
    };
    if !is_varname(name) {
        return Err(error(
            source,
            format!("`{spec}` is not a variable name (letters, digits and `_`)"),
        ));
    }
    Ok(VarSpec {
        name: name.to_owned(),
        prefix,
        explode,
    })
}

/// `varname = varchar *( ["."] varchar )`, `varchar = ALPHA / DIGIT / "_" / pct-encoded`.
fn is_varname(name: &str) -> bool {
    let bytes = name.as_bytes();
    name.split('.').all(|segment| !segment.is_empty())
        && bytes.iter().enumerate().all(|(at, &b)| {
            b.is_ascii_alphanumeric()
                || b == b'_'
                || b == b'.'
                || (b == b'%' && is_triplet(bytes, at))
        })
}
