//! Expansion (RFC 6570 section 3 and the algorithm of appendix A).

use std::collections::BTreeMap;

use crate::chars::{Allow, encode_into};
use crate::syntax::{Operator, Part, VarSpec};
use crate::{UriTemplateError, Value};

pub(crate) fn expand(
    parts: &[Part],
    values: &BTreeMap<String, Value>,
) -> Result<String, UriTemplateError> {
    let mut out = String::new();
    for part in parts {
        match part {
            // Template literals may hold non-ASCII characters; a URI may not.
            Part::Literal(text) => encode_into(&mut out, text, Allow::UnreservedReserved),
            Part::Expression { operator, vars } => {
                expand_expression(&mut out, *operator, vars, values)?;
            }
        }
    }
    Ok(out)
}

fn expand_expression(
    out: &mut String,
    operator: Operator,
    vars: &[VarSpec],
    values: &BTreeMap<String, Value>,
) -> Result<(), UriTemplateError> {
    let mut first = true;
    for var in vars {
        let Some(value) = values.get(&var.name).filter(|v| v.is_defined()) else {
            continue;
        };
        if first {
            out.push_str(operator.first());
            first = false;
        } else {
            out.push(operator.sep() as char);
        }
        match value {
            Value::String(text) => expand_string(out, operator, var, text),
            Value::List(_) | Value::Assoc(_) if var.prefix.is_some() => {
                return Err(UriTemplateError(format!(
                    "`{}` has a prefix modifier, which applies to strings only, but its value is a list or array",
                    var.name
                )));
            }
            Value::List(items) if var.explode => {
                let pairs = items.iter().map(|item| (var.name.as_str(), item.as_str()));
                expand_exploded(out, operator, pairs, false);
            }
            Value::Assoc(pairs) if var.explode => {
                let pairs = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()));
                expand_exploded(out, operator, pairs, true);
            }
            Value::List(items) => {
                write_name(out, operator, var, false);
                join(out, operator, items.iter().map(String::as_str));
            }
            Value::Assoc(pairs) => {
                write_name(out, operator, var, false);
                join(
                    out,
                    operator,
                    pairs.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]),
                );
            }
        }
    }
    Ok(())
}

fn expand_string(out: &mut String, operator: Operator, var: &VarSpec, text: &str) {
    write_name(out, operator, var, text.is_empty());
    let text = match var.prefix {
        Some(n) => text
            .char_indices()
            .nth(usize::from(n))
            .map_or(text, |(end, _)| &text[..end]),
        None => text,
    };
    encode_into(out, text, operator.allow());
}

/// `name=` for named operators; an empty value gets the operator's `ifemp`.
fn write_name(out: &mut String, operator: Operator, var: &VarSpec, empty: bool) {
    if operator.named() {
        out.push_str(&var.name);
        if !empty || operator.empty_keeps_equals() {
            out.push('=');
        }
    }
}

/// A non-exploded list or array: members joined by `,`.
fn join<'a>(out: &mut String, operator: Operator, members: impl Iterator<Item = &'a str>) {
    for (k, member) in members.enumerate() {
        if k > 0 {
            out.push(',');
        }
        encode_into(out, member, operator.allow());
    }
}

/// An exploded list (`keyed` false: every key is the variable's name, shown
/// only by named operators) or array (`keyed` true: `key=value` always).
fn expand_exploded<'a>(
    out: &mut String,
    operator: Operator,
    pairs: impl Iterator<Item = (&'a str, &'a str)>,
    keyed: bool,
) {
    for (k, (key, value)) in pairs.enumerate() {
        if k > 0 {
            out.push(operator.sep() as char);
        }
        if operator.named() {
            // Names are written as literals are (RFC 6570 appendix A).
            encode_into(out, key, Allow::UnreservedReserved);
            if !value.is_empty() || operator.empty_keeps_equals() {
                out.push('=');
            }
        } else if keyed {
            encode_into(out, key, operator.allow());
            out.push('=');
        }
        encode_into(out, value, operator.allow());
    }
}
