//! Documentation from schema titles and descriptions, made safe: emitted as
//! `#[doc = "..."]` string literals (so nothing can end the comment), one per
//! line, and wrapped in a ```` ```text ```` fence whenever the text holds a
//! code block, so rustdoc never runs it as a doctest.

use syn::Attribute;

use crate::syntax::doc;
use crate::text::{ESCAPED_NOTE, escape_hidden};

/// Whether `line` would open or be part of a Markdown code block.
fn looks_like_code(line: &str) -> bool {
    let trimmed = line.trim_start_matches(' ');
    let indent = line.len() - trimmed.len();
    (indent >= 4 && !trimmed.is_empty())
        || line.starts_with('\t')
        || (indent < 4 && (trimmed.starts_with("```") || trimmed.starts_with("~~~")))
}

/// The longest run of backticks in `text`.
fn longest_backtick_run(text: &[String]) -> usize {
    text.iter()
        .map(|line| line.split(|c| c != '`').map(str::len).max().unwrap_or(0))
        .max()
        .unwrap_or(0)
}

/// The lines as they should appear in the docs: hidden characters escaped
/// by the rule of [`crate::text`] (with a note saying so), code fenced.
pub fn safe_lines(lines: &[String]) -> Vec<String> {
    let mut any_escaped = false;
    let cleaned: Vec<String> = lines
        .iter()
        .map(|l| {
            let (line, escaped) = escape_hidden(l);
            any_escaped |= escaped;
            line.trim_end().to_owned()
        })
        .collect();
    let mut out = if cleaned.iter().any(|l| looks_like_code(l)) {
        let fence = "`".repeat(longest_backtick_run(&cleaned).max(2) + 1);
        let mut fenced = Vec::with_capacity(cleaned.len() + 2);
        fenced.push(format!("{fence}text"));
        fenced.extend(cleaned);
        fenced.push(fence);
        fenced
    } else {
        cleaned
    };
    if any_escaped {
        out.push(String::new());
        out.push(ESCAPED_NOTE.to_owned());
    }
    out
}

/// `#[doc = " line"]` attributes for `lines`.
pub fn doc_attrs(lines: &[String]) -> Vec<Attribute> {
    safe_lines(lines)
        .iter()
        .map(|l| {
            if l.is_empty() {
                doc("")
            } else {
                doc(&format!(" {l}"))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_owned).collect()
    }

    #[test]
    fn plain_text_stays() {
        assert_eq!(
            safe_lines(&lines("Adds two numbers.\n\nReturns the sum.")),
            lines("Adds two numbers.\n\nReturns the sum.")
        );
    }

    #[test]
    fn code_is_fenced_as_text() {
        let fenced = safe_lines(&lines("Example:\n```\npanic!()\n```"));
        assert_eq!(fenced.first().unwrap(), "````text");
        assert_eq!(fenced.last().unwrap(), "````");
        let indented = safe_lines(&lines("Example:\n\n    let x = 1;"));
        assert_eq!(indented.first().unwrap(), "```text");
        let long = safe_lines(&lines("`````rust\nx\n`````"));
        assert_eq!(long.first().unwrap(), "``````text");
    }

    #[test]
    fn hidden_characters_escaped_with_a_note() {
        assert_eq!(
            safe_lines(&["a\u{0}b\r".to_owned(), "\u{202E}x".to_owned()]),
            vec![
                r"a\u{0}b\u{D}".to_owned(),
                r"\u{202E}x".to_owned(),
                String::new(),
                ESCAPED_NOTE.to_owned(),
            ]
        );
        assert_eq!(safe_lines(&lines("plain")), lines("plain"));
    }
}
