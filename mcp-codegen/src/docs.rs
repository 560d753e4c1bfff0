//! Documentation from schema titles and descriptions, made safe: emitted as
//! `#[doc = "..."]` string literals (so nothing can end the comment), one per
//! line, and wrapped in a ```` ```text ```` fence whenever the text holds a
//! code block, so rustdoc never runs it as a doctest.

use syn::Attribute;

use crate::syntax::doc;

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

/// The lines as they should appear in the docs.
pub fn safe_lines(lines: &[String]) -> Vec<String> {
    let cleaned: Vec<String> = lines
        .iter()
        .map(|l| {
            l.chars()
                .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect();
    if !cleaned.iter().any(|l| looks_like_code(l)) {
        return cleaned;
    }
    let fence = "`".repeat(longest_backtick_run(&cleaned).max(2) + 1);
    let mut out = Vec::with_capacity(cleaned.len() + 2);
    out.push(format!("{fence}text"));
    out.extend(cleaned);
    out.push(fence);
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
    fn control_characters_removed() {
        assert_eq!(
            safe_lines(&["a\u{0}b\r".to_owned()]),
            vec!["a b".to_owned()]
        );
    }
}
