//! Documentation from schema titles and descriptions, made safe: emitted as
//! `#[doc = "..."]` string literals (so nothing can end the comment), one per
//! line, and wrapped in a ```` ```text ```` fence whenever the text holds a
//! code block, so rustdoc never runs it as a doctest. Outside code, the
//! server's text is text, not rustdoc markup: brackets cannot form
//! intra-doc links, `<` opens no HTML tag and URLs become links, so the
//! generated crate documents cleanly with warnings denied.

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
        cleaned.iter().map(|line| as_text(line)).collect()
    };
    if any_escaped {
        out.push(String::new());
        out.push(ESCAPED_NOTE.to_owned());
    }
    out
}

/// One line of prose as rustdoc should show it: outside inline code spans,
/// `[` and `]` are escaped (no intra-doc links to items that do not exist),
/// `<` is written as `&lt;` (no HTML tags), and `http(s)://` URLs are put
/// in `<...>` (links, not bare URLs).
fn as_text(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    // Run lengths with no closing run further on: each is searched for
    // once, so hostile lines of backticks stay cheap.
    let mut unclosed = std::collections::HashSet::new();
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            let run = rest.len() - rest.trim_start_matches('`').len();
            let after = &rest.as_bytes()[run..];
            // An inline code span ends at the next run of exactly as many
            // backticks (bytes: a backtick is never inside a character).
            let close = (!unclosed.contains(&run))
                .then(|| {
                    (0..after.len()).find(|&i| {
                        after[i..].starts_with(&rest.as_bytes()[..run])
                            && (i == 0 || after[i - 1] != b'`')
                            && after.get(i + run) != Some(&b'`')
                    })
                })
                .flatten();
            if close.is_none() {
                unclosed.insert(run);
            }
            let taken = match close {
                Some(i) => run + i + run,
                None => run,
            };
            out.push_str(&rest[..taken]);
            rest = &rest[taken..];
        } else if rest.starts_with("https://") || rest.starts_with("http://") {
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '`' | '[' | ']'))
                .unwrap_or(rest.len());
            let url = url_without_trailing_punctuation(&rest[..end]);
            out.push('<');
            out.push_str(url);
            out.push('>');
            rest = &rest[url.len()..];
        } else {
            match c {
                '[' => out.push_str("\\["),
                ']' => out.push_str("\\]"),
                '<' => out.push_str("&lt;"),
                _ => out.push(c),
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// `url` without the sentence's punctuation after it; a closing
/// parenthesis stays when the URL opened it.
fn url_without_trailing_punctuation(mut url: &str) -> &str {
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?']);
        let unbalanced = trimmed.matches(')').count() > trimmed.matches('(').count();
        match trimmed.strip_suffix(')') {
            Some(shorter) if unbalanced => url = shorter,
            _ => return trimmed,
        }
    }
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
    fn prose_is_text_not_markup() {
        assert_eq!(
            safe_lines(&lines(
                "The result of [`add`]; see <T> at https://example.com/a_(b). Keep `[x] <y>`."
            )),
            lines(
                r"The result of \[`add`\]; see &lt;T> at <https://example.com/a_(b)>. Keep `[x] <y>`."
            )
        );
        assert_eq!(as_text("``a`b`` [c]"), r"``a`b`` \[c\]");
        assert_eq!(as_text("`open [x]"), r"`open \[x\]");
        assert_eq!(as_text("http://x]"), r"<http://x>\]");
        assert_eq!(as_text("é`ü` [é]"), r"é`ü` \[é\]");
        assert_eq!(as_text("(see http://x/y)."), "(see <http://x/y>).");
        // Many unclosed runs: linear enough, and all text kept.
        let hostile = "` ``".repeat(20_000);
        assert_eq!(as_text(&hostile), hostile);
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
