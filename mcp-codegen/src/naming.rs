//! Turning arbitrary wire names (property names, tool names, enum values,
//! `$defs` keys) into Rust identifiers that always compile, and keeping
//! identifiers unique within a scope after case conversion.

use std::collections::BTreeSet;

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Words that are keywords in some Rust edition and so need `r#` (or, for
/// the few that cannot be raw, a trailing underscore).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "try", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield",
];

/// Keywords that cannot be written as raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Replaces every character that cannot appear in an ASCII identifier:
/// non-ASCII characters become `u<hex>` words so that distinct names stay
/// distinct, everything else becomes a word break.
fn ascii_words(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if c.is_ascii() {
            out.push('_');
        } else {
            out.push_str(&format!("_u{:x}_", c as u32));
        }
    }
    out
}

/// A `snake_case` identifier for `raw`, never empty, never starting with a
/// digit, keywords made raw. `fallback` is used when nothing usable is left.
pub fn snake_ident(raw: &str, fallback: &str) -> String {
    let mut s = ascii_words(raw).to_snake_case();
    if s.is_empty() {
        s = fallback.to_owned();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("{fallback}_{s}");
    }
    escape_keyword(s)
}

/// An `UpperCamelCase` identifier for `raw`, never empty, never starting with
/// a digit. `fallback` prefixes names that would start with a digit.
pub fn camel_ident(raw: &str, fallback: &str) -> String {
    let mut s = ascii_words(raw).to_upper_camel_case();
    if s.is_empty() {
        s = fallback.to_owned();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("{fallback}{s}");
    }
    escape_keyword(s)
}

fn escape_keyword(s: String) -> String {
    if NOT_RAW.contains(&s.as_str()) {
        format!("{s}_")
    } else if KEYWORDS.contains(&s.as_str()) {
        format!("r#{s}")
    } else {
        s
    }
}

/// The identifier without a leading `r#`, i.e. the name serde sees.
pub fn unraw(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

/// A set of identifiers in one scope; [`Scope::claim`] returns a unique one.
#[derive(Debug, Default, Clone)]
pub struct Scope {
    taken: BTreeSet<String>,
}

impl Scope {
    /// A scope in which `reserved` can never be claimed.
    pub fn with_reserved(reserved: &[&str]) -> Self {
        Scope {
            taken: reserved.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    /// Claims `ident` when it is free; otherwise `ident` with `suffix`
    /// (numbered if that is taken too). A prompt or a resource template
    /// whose name a tool already took gets `_prompt` or `_template` this
    /// way, where a reader finds it by the server's name.
    pub fn claim_or_suffixed(&mut self, ident: &str, suffix: &str) -> String {
        let base = unraw(ident);
        match self.taken.contains(base) {
            false => self.claim(ident, "_"),
            true => self.claim(&format!("{base}{suffix}"), "_"),
        }
    }

    /// Claims `ident`, or `ident` with the smallest numeric suffix (joined
    /// with `sep`) that is still free. Deterministic for a given claim order.
    pub fn claim(&mut self, ident: &str, sep: &str) -> String {
        let base = unraw(ident);
        if self.taken.insert(base.to_owned()) {
            return ident.to_owned();
        }
        let mut n = 2usize;
        loop {
            let sep = if base.ends_with('_') { "" } else { sep };
            let candidate = format!("{base}{sep}{n}");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_always_valid() {
        assert_eq!(snake_ident("fooBar", "field"), "foo_bar");
        assert_eq!(snake_ident("type", "field"), "r#type");
        assert_eq!(snake_ident("self", "field"), "self_");
        assert_eq!(snake_ident("", "field"), "field");
        assert_eq!(snake_ident("$", "field"), "field");
        assert_eq!(snake_ident("1st", "field"), "field_1st");
        assert_eq!(snake_ident("名前", "field"), "u540d_u524d");
        assert_eq!(camel_ident("a-b c", "T"), "ABC");
        assert_eq!(camel_ident("42", "V"), "V42");
        assert_eq!(camel_ident("Self", "V"), "Self_");
        for raw in ["", "_", "__", "-", "r#x", "Self", "crate", "😀", "a\u{0}b"] {
            let s = snake_ident(raw, "f");
            assert!(syn::parse_str::<syn::Ident>(&s).is_ok(), "{raw:?} -> {s}");
            let c = camel_ident(raw, "T");
            assert!(syn::parse_str::<syn::Ident>(&c).is_ok(), "{raw:?} -> {c}");
        }
    }

    #[test]
    fn scope_dedupes_after_casing() {
        let mut scope = Scope::with_reserved(&["new"]);
        assert_eq!(scope.claim(&snake_ident("fooBar", "f"), "_"), "foo_bar");
        assert_eq!(scope.claim(&snake_ident("foo_bar", "f"), "_"), "foo_bar_2");
        assert_eq!(scope.claim("new", "_"), "new_2");
        assert_eq!(scope.claim("r#type", "_"), "r#type");
        assert_eq!(scope.claim("r#type", "_"), "type_2");
        assert_eq!(scope.claim("self_", "_"), "self_");
        assert_eq!(scope.claim("self_", "_"), "self_2");
    }

    #[test]
    fn a_taken_name_gets_the_suffix_then_a_number() {
        let mut scope = Scope::with_reserved(&["new"]);
        assert_eq!(scope.claim_or_suffixed("greet", "_prompt"), "greet");
        assert_eq!(scope.claim_or_suffixed("greet", "_prompt"), "greet_prompt");
        assert_eq!(
            scope.claim_or_suffixed("greet", "_prompt"),
            "greet_prompt_2"
        );
        assert_eq!(scope.claim_or_suffixed("r#type", "_prompt"), "r#type");
        assert_eq!(scope.claim_or_suffixed("r#type", "_prompt"), "type_prompt");
        assert_eq!(scope.claim_or_suffixed("new", "_template"), "new_template");
    }
}
