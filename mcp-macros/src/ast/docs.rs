//! Doc comments: the description of an item and, from its `# Arguments`
//! section, of each parameter.

use std::collections::BTreeMap;

use syn::{Attribute, Expr, Lit, Meta};

/// The text of the `#[doc]` attributes (doc comments), one line each.
pub fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                Expr::Lit(lit) => match &lit.lit {
                    Lit::Str(s) => Some(s.value()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .flat_map(|text| text.split('\n').map(str::to_owned).collect::<Vec<_>>())
        .map(|line| {
            line.strip_prefix(' ')
                .unwrap_or(&line)
                .trim_end()
                .to_owned()
        })
        .collect()
}

/// A described item: its description without the `# Arguments` section,
/// and the descriptions that section gives each parameter.
pub struct Described {
    pub description: Option<String>,
    pub arguments: BTreeMap<String, String>,
}

/// Splits doc lines into description and `# Arguments` entries of the form
/// ``* `name` - text`` (or `-` bullets, or `:` separators).
pub fn describe(lines: &[String]) -> Described {
    let mut description = Vec::new();
    let mut arguments = BTreeMap::new();
    let mut in_arguments = false;
    let mut last: Option<String> = None;
    for line in lines {
        let trimmed = line.trim();
        if let Some(heading) = trimmed.strip_prefix('#') {
            in_arguments = heading.trim_start_matches('#').trim() == "Arguments";
            last = None;
            if in_arguments {
                continue;
            }
        }
        if !in_arguments {
            description.push(line.as_str());
            continue;
        }
        if let Some((name, text)) = argument_entry(trimmed) {
            arguments.insert(name.clone(), text);
            last = Some(name);
        } else if let (Some(name), false) = (&last, trimmed.is_empty()) {
            let entry = arguments.entry(name.clone()).or_default();
            entry.push(' ');
            entry.push_str(trimmed);
        }
    }
    let description = description.join("\n").trim().to_owned();
    Described {
        description: (!description.is_empty()).then_some(description),
        arguments,
    }
}

fn argument_entry(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix(['*', '-'])?.trim_start();
    let rest = rest.strip_prefix('`')?;
    let (name, rest) = rest.split_once('`')?;
    let text = rest.trim_start().trim_start_matches(['-', ':', '–']).trim();
    Some((name.to_owned(), text.to_owned()))
}
