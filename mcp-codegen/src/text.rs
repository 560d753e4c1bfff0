//! The one rule for text that comes from a server and lands in generated
//! code (descriptions, titles, tool and property names, enum values): no
//! character that is invisible or changes the text direction may appear in
//! the generated file as itself. rustc refuses the bidirectional controls
//! (the Trojan Source class) in comments and literals, and the others let a
//! server hide text from the human reading the code. Such characters are
//! written as `\u{202E}`: in docs as visible text (with [`ESCAPED_NOTE`]),
//! in string literals as the escape rustc reads back to the same value.

/// The doc note added under text in which characters were escaped.
pub const ESCAPED_NOTE: &str =
    "Invisible or direction-changing characters in this text are shown escaped, like `\\u{202E}`.";

/// Whether `c` must not appear as itself in generated code: control
/// characters other than newline and tab (a lone CR included), bidirectional
/// controls, and characters that render as nothing or hide other text.
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c,
            // Bidirectional controls: marks, embeddings, overrides, isolates.
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
            // Zero-width and invisible format characters.
            | '\u{00AD}' | '\u{034F}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200D}'
            | '\u{2060}'..='\u{2064}' | '\u{206A}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}'
            // Blank-looking letters (Hangul and Khmer fillers).
            | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{3164}' | '\u{FFA0}'
            // Line and paragraph separators: a line break to some editors only.
            | '\u{2028}' | '\u{2029}'
            // Variation selectors and tag characters, which can carry hidden text.
            | '\u{FE00}'..='\u{FE0F}' | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}')
}

/// `c` written as a Rust escape, e.g. `\u{202E}`.
fn escape(c: char, out: &mut String) {
    out.push_str(&format!("\\u{{{:X}}}", u32::from(c)));
}

/// `text` with every hidden character written as its escape, and whether
/// any was; for docs, where the reader sees the escape as text.
pub fn escape_hidden(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut escaped = false;
    for c in text.chars() {
        if is_hidden(c) {
            escape(c, &mut out);
            escaped = true;
        } else {
            out.push(c);
        }
    }
    (out, escaped)
}

/// The source of a Rust string literal whose value is `value`, with hidden
/// characters (and whatever else `char::escape_debug` escapes) escaped.
pub fn string_literal_source(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            _ if is_hidden(c) => escape(c, &mut out),
            // `escape_debug` would write `\'`, needless in a string.
            '\'' => out.push(c),
            _ => out.extend(c.escape_debug()),
        }
    }
    out.push('"');
    out
}

/// The first hidden character in generated `code`, if any: the check that
/// nothing bypassed this module.
pub fn first_hidden(code: &str) -> Option<char> {
    code.chars().find(|&c| is_hidden(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trojan_source_characters_are_hidden() {
        for c in [
            '\u{202A}',
            '\u{202E}',
            '\u{2066}',
            '\u{2069}',
            '\u{200E}',
            '\u{200F}',
            '\u{061C}',
            '\u{200B}',
            '\u{200D}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{0}',
            '\r',
            '\u{7F}',
            '\u{85}',
            '\u{E0041}',
        ] {
            assert!(is_hidden(c), "{:X}", u32::from(c));
        }
        for c in ['a', ' ', '\n', '\t', 'é', '名', '😀', '\u{A0}'] {
            assert!(!is_hidden(c), "{:X}", u32::from(c));
        }
    }

    #[test]
    fn docs_show_the_escape() {
        assert_eq!(
            escape_hidden("if\u{202E}admin\u{200B}"),
            ("if\\u{202E}admin\\u{200B}".to_owned(), true)
        );
        assert_eq!(escape_hidden("plain é"), ("plain é".to_owned(), false));
    }

    #[test]
    fn literals_keep_the_value_and_hide_nothing() {
        let value = "a\u{202E}\"\\'\n\r\u{0}7\u{E0041}名";
        let source = string_literal_source(value);
        assert_eq!(first_hidden(&source), None, "{source}");
        let lit: syn::LitStr = syn::parse_str(&source).unwrap();
        assert_eq!(lit.value(), value);
    }
}
