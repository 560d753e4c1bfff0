#![no_main]
//! URI templates: the input is a template, a newline, then a URI. Parsing
//! and matching must not panic (and stay fast: libFuzzer flags slow units).
//! Where the crate's documentation promises it, matching is checked against
//! expansion:
//!
//! - values matched from a URI expand to a URI that matches again; for
//!   templates of `U` operators only (no `+` or `#`), it matches back to the
//!   very same values;
//! - values cut from the URI text and expanded through the template match.
//!
//! Both only for templates without a repeated variable or an exploded
//! variable in a `;`/`?`/`&` expression (whose names are written as
//! literals, unencoded), and, for `+`/`#`, values without a `%XX` triplet
//! (passed through unencoded, it need not be UTF-8 once decoded).

use std::collections::{BTreeMap, BTreeSet};

use libfuzzer_sys::fuzz_target;
use mcp_toolkit_uri_template::{MAX_URI_LEN, UriTemplate, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (source, uri) = text.split_once('\n').unwrap_or((text, ""));
    let Ok(template) = UriTemplate::parse(source) else {
        return;
    };
    let flat = template.matches(uri);
    let matched = template.match_values(uri);
    assert_eq!(flat.is_some(), matched.is_some());

    let Some(class) = Class::of(&template) else {
        return;
    };
    if let Some(values) = matched {
        check_round_trip(&template, &class, &values, true);
    }
    let cut = cut_values(&template, uri);
    check_round_trip(&template, &class, &cut, false);
});

/// What a template promises, when it promises anything.
struct Class {
    reserved: bool,
}

impl Class {
    fn of(template: &UriTemplate) -> Option<Class> {
        let mut names = BTreeSet::new();
        if !template.variables().all(|name| names.insert(name)) {
            return None;
        }
        let source = template.as_str();
        let expressions = source
            .split('{')
            .skip(1)
            .filter_map(|e| e.split('}').next());
        let mut reserved = false;
        for expression in expressions {
            let named = expression.starts_with([';', '?', '&']);
            if named && expression.contains('*') {
                return None;
            }
            reserved |= expression.starts_with(['+', '#']);
        }
        Some(Class { reserved })
    }

    /// Whether expanding `values` must give a URI that matches.
    fn covers(&self, values: &BTreeMap<String, Value>) -> bool {
        !self.reserved || values.values().all(|v| !has_triplet(v))
    }
}

fn has_triplet(value: &Value) -> bool {
    let texts: Vec<&str> = match value {
        Value::String(text) => vec![text],
        Value::List(items) => items.iter().map(String::as_str).collect(),
        Value::Assoc(pairs) => pairs
            .iter()
            .flat_map(|(k, v)| [k.as_str(), v.as_str()])
            .collect(),
    };
    texts.iter().any(|text| {
        let bytes = text.as_bytes();
        (0..bytes.len()).any(|i| {
            bytes[i] == b'%'
                && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        })
    })
}

fn check_round_trip(
    template: &UriTemplate,
    class: &Class,
    values: &BTreeMap<String, Value>,
    from_match: bool,
) {
    // A prefix modifier on a list is an expansion error, not a bug.
    let Ok(expanded) = template.expand(values) else {
        assert!(!from_match, "matched values do not expand: {values:?}");
        return;
    };
    if expanded.len() > MAX_URI_LEN || !class.covers(values) {
        return;
    }
    let again = template.match_values(&expanded);
    assert!(
        again.is_some(),
        "{} expanded {values:?} to {expanded}, which does not match",
        template.as_str()
    );
    if from_match && !class.reserved {
        assert_eq!(
            again.as_ref(),
            Some(values),
            "{} on {expanded}",
            template.as_str()
        );
    }
}

/// Values for the template's variables cut from `text`: `\t`-separated
/// pieces, a piece with `|` being a list.
fn cut_values(template: &UriTemplate, text: &str) -> BTreeMap<String, Value> {
    template
        .variables()
        .zip(text.split('\t'))
        .map(|(name, piece)| {
            let value = if piece.contains('|') {
                Value::List(piece.split('|').map(str::to_owned).collect())
            } else {
                Value::String(piece.to_owned())
            };
            (name.to_owned(), value)
        })
        .collect()
}
