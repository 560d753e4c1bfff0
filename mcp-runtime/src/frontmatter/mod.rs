//! Reads the YAML frontmatter of a `SKILL.md` into JSON: the server renders
//! a skill's entry from it, and the client compares it field by field with
//! the entry it was given. One parser on both sides, so that what a server
//! built here publishes is exactly what a client built here verifies.
//!
//! The Agent Skills format uses a small part of YAML: a mapping of string
//! fields, with `metadata` a nested mapping. This parser accepts block
//! mappings and block sequences, plain, single- and double-quoted scalars
//! (on one line or folded over several) and literal (`|`) and folded (`>`)
//! block scalars, and resolves plain scalars with the YAML 1.2 core schema
//! (`null`, booleans, integers, floats). Anything else (flow collections,
//! anchors, aliases, tags, explicit indentation indicators, tabs for
//! indentation, duplicate keys) is an error rather than a guess: a skill
//! whose frontmatter cannot be read exactly is neither served nor loaded.

use serde_json::{Map, Number, Value};

mod scalar;

use scalar::{
    Piece, check_escapes_per_line, fold_block, fold_pieces, fold_quoted, plain_piece, resolve,
    unescape,
};

#[cfg(test)]
mod reference;

/// A `SKILL.md` split into its frontmatter and its body.
#[derive(Debug)]
pub(crate) struct Document {
    /// The frontmatter fields.
    pub fields: Map<String, Value>,
    /// The byte offset where the Markdown body starts (read by the client,
    /// which hands the body to the host).
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub body_start: usize,
}

/// Why a frontmatter could not be read, with the 1-based line in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Error {
    pub line: usize,
    pub reason: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

type Parsed<T> = Result<T, Error>;

fn error<T>(line: usize, reason: impl Into<String>) -> Parsed<T> {
    Err(Error {
        line,
        reason: reason.into(),
    })
}

/// Splits `text` at the `---` lines around its frontmatter and parses it.
pub(crate) fn parse(text: &str) -> Parsed<Document> {
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(strip_newline) != Some("---") {
        return error(1, "SKILL.md does not begin with a `---` frontmatter line");
    }
    let mut yaml = Vec::new();
    let mut offset = text.find('\n').map_or(text.len(), |i| i + 1);
    for raw in lines {
        offset += raw.len();
        let line = strip_newline(raw);
        if line.trim_end_matches(WHITE) == "---" {
            let fields = Parser::new(&yaml)?.document()?;
            return Ok(Document {
                fields,
                body_start: offset,
            });
        }
        yaml.push(line);
    }
    error(yaml.len() + 2, "the frontmatter has no closing `---` line")
}

/// YAML's white space: only these two, so that a trailing U+3000 or NEL
/// stays part of a value, as YAML reads it.
const WHITE: [char; 2] = [' ', '\t'];

fn strip_newline(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

/// One line of the frontmatter: its indentation (spaces) and the rest.
#[derive(Debug, Clone)]
struct Line<'a> {
    /// 1-based line number in the file (the opening `---` is line 1).
    number: usize,
    indent: usize,
    /// After the indentation, trailing whitespace removed.
    text: &'a str,
    /// After the indentation, trailing whitespace kept (block and quoted
    /// scalars need it).
    raw: &'a str,
}

impl Line<'_> {
    /// Empty, blank or a comment: no content at this level.
    fn is_blank(&self) -> bool {
        self.text.is_empty() || self.text.starts_with('#')
    }
}

/// The deepest nesting of mappings and sequences accepted. Skill
/// frontmatter needs two levels; the limit keeps a hostile file (a server's,
/// read by the client) from recursing until the stack overflows.
const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    next: usize,
    /// Mappings and sequences open around the current line.
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(raw: &[&'a str]) -> Parsed<Self> {
        let mut lines = Vec::with_capacity(raw.len());
        for (i, raw) in raw.iter().enumerate() {
            let rest = raw.trim_start_matches(' ');
            let number = i + 2;
            if let Some(c) = raw.chars().find(|&c| !is_printable(c)) {
                return error(
                    number,
                    format!(
                        "the character U+{:04X} is not allowed in YAML",
                        u32::from(c)
                    ),
                );
            }
            if rest.starts_with('\t') && !rest.trim_matches(WHITE).is_empty() {
                return error(number, "tabs are not allowed for indentation");
            }
            // `---` or `...` at the start of a line, alone or before white
            // space, starts or ends a YAML document, even inside a block
            // scalar.
            let marker = ["---", "..."].iter().any(|m| {
                raw.strip_prefix(m)
                    .is_some_and(|after| after.is_empty() || after.starts_with(WHITE))
            });
            if marker {
                return error(
                    number,
                    "a YAML document marker (`---` or `...`) inside the frontmatter",
                );
            }
            lines.push(Line {
                number,
                indent: raw.len() - rest.len(),
                text: rest.trim_end_matches(WHITE),
                raw: rest,
            });
        }
        Ok(Parser {
            lines,
            next: 0,
            depth: 0,
        })
    }

    fn document(mut self) -> Parsed<Map<String, Value>> {
        let Some(first) = self.peek_content().cloned() else {
            return Ok(Map::new());
        };
        let fields = self.mapping(first.indent)?;
        match self.peek_content() {
            Some(line) => error(line.number, "unexpected content"),
            None => Ok(fields),
        }
    }

    /// The next line that is not blank or a comment, without consuming it.
    fn peek_content(&mut self) -> Option<&Line<'a>> {
        while self.lines.get(self.next).is_some_and(Line::is_blank) {
            self.next += 1;
        }
        self.lines.get(self.next)
    }

    /// Runs `parse` one nesting level deeper, refusing to go past
    /// [`MAX_DEPTH`] (at the line numbered `line`).
    fn nested<T>(&mut self, line: usize, parse: impl FnOnce(&mut Self) -> Parsed<T>) -> Parsed<T> {
        if self.depth == MAX_DEPTH {
            return error(line, format!("nested more than {MAX_DEPTH} levels deep"));
        }
        self.depth += 1;
        let parsed = parse(self);
        self.depth -= 1;
        parsed
    }

    /// A block mapping whose keys sit at column `indent`.
    fn mapping(&mut self, indent: usize) -> Parsed<Map<String, Value>> {
        let mut map = Map::new();
        while let Some(line) = self.peek_content().cloned() {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return error(line.number, "unexpected indentation");
            }
            if is_sequence_item(line.text) {
                return error(line.number, "a sequence item where a key was expected");
            }
            let (key, rest_start) = split_key(&line)?;
            let rest = line.raw[rest_start..].trim_start_matches(WHITE);
            self.next += 1;
            let value = self.value(indent, rest, line.number, true)?;
            if map.insert(key.clone(), value).is_some() {
                return error(line.number, format!("duplicate key `{key}`"));
            }
        }
        Ok(map)
    }

    /// A block sequence whose `-` sit at column `indent`.
    fn sequence(&mut self, indent: usize) -> Parsed<Vec<Value>> {
        let mut items = Vec::new();
        while let Some(line) = self.peek_content().cloned() {
            if line.indent != indent || !is_sequence_item(line.text) {
                if line.indent > indent {
                    return error(line.number, "unexpected indentation");
                }
                break;
            }
            if line.text.starts_with("-\t") {
                return error(line.number, "a tab after `-` (use a space)");
            }
            let rest = line.raw[1..].trim_start_matches(WHITE);
            let column = line.indent + (line.raw.len() - rest.len());
            if starts_with_key(rest) {
                // `- key: value` opens a mapping at the column of `key`.
                self.lines[self.next] = Line {
                    number: line.number,
                    indent: column,
                    text: rest.trim_end_matches(WHITE),
                    raw: rest,
                };
                let mapping = self.nested(line.number, |p| p.mapping(column))?;
                items.push(Value::Object(mapping));
            } else {
                self.next += 1;
                items.push(self.value(indent, rest, line.number, false)?);
            }
        }
        Ok(items)
    }

    /// The value after `key:` or `- ` (`rest`, the remainder of that line),
    /// continued on lines indented deeper than `parent`. A mapping value
    /// may also be a sequence at the parent's own column.
    fn value(
        &mut self,
        parent: usize,
        rest: &'a str,
        number: usize,
        in_map: bool,
    ) -> Parsed<Value> {
        if rest.is_empty() || rest.starts_with('#') {
            let Some(next) = self.peek_content().cloned() else {
                return Ok(Value::Null);
            };
            let nested_sequence = is_sequence_item(next.text)
                && (next.indent > parent || (in_map && next.indent == parent));
            return if nested_sequence {
                let items = self.nested(next.number, |p| p.sequence(next.indent))?;
                Ok(Value::Array(items))
            } else if next.indent <= parent {
                Ok(Value::Null)
            } else if starts_with_key(next.text) {
                let mapping = self.nested(next.number, |p| p.mapping(next.indent))?;
                Ok(Value::Object(mapping))
            } else {
                // A scalar that starts on the line after its key.
                self.next += 1;
                self.value(parent, next.raw, next.number, false)
            };
        }
        match rest.as_bytes()[0] {
            b'|' | b'>' => self.block_scalar(parent, rest, number).map(Value::String),
            b'"' | b'\'' => self.quoted(parent, rest, number).map(Value::String),
            b'[' | b'{' => error(number, "flow collections are not supported"),
            b'&' | b'*' | b'!' => error(number, "anchors, aliases and tags are not supported"),
            b'%' | b'@' | b'`' | b',' | b']' | b'}' => error(
                number,
                format!("a plain value cannot start with `{}`", &rest[..1]),
            ),
            _ if is_sequence_item(rest) || stands_alone(rest, '?') || stands_alone(rest, ':') => {
                error(number, "a block collection cannot start on the key's line")
            }
            _ => self.plain(parent, rest, number),
        }
    }

    /// A plain scalar, folded over deeper-indented lines, then resolved.
    fn plain(&mut self, parent: usize, first: &'a str, number: usize) -> Parsed<Value> {
        let mut pieces = vec![plain_piece(first, number)?];
        // A comment ends a plain value: no line may continue it after one.
        let mut commented = comment_start(first).is_some();
        let mut empty_lines = 0;
        while let Some(line) = self.lines.get(self.next) {
            if line.text.is_empty() {
                empty_lines += 1;
                self.next += 1;
                continue;
            }
            if line.indent <= parent || line.text.starts_with('#') {
                break;
            }
            if commented {
                return error(line.number, "a plain value continues after a comment");
            }
            commented = comment_start(line.text).is_some();
            pieces.push(Piece::Breaks(empty_lines));
            pieces.push(plain_piece(line.text, line.number)?);
            empty_lines = 0;
            self.next += 1;
        }
        Ok(resolve(&fold_pieces(&pieces)))
    }

    /// A single- or double-quoted scalar, folded over following lines until
    /// its closing quote.
    fn quoted(&mut self, parent: usize, first: &'a str, number: usize) -> Parsed<String> {
        let quote = first.as_bytes()[0];
        let mut lines = vec![&first[1..]];
        let mut end_line = number;
        loop {
            let last = lines.last().copied().unwrap_or_default();
            if let Some(end) = closing_quote(last, quote) {
                let rest = &last[end + 1..];
                let after = rest.trim_start_matches(WHITE);
                // A comment needs white space before its `#`.
                let comment = after.starts_with('#') && after.len() < rest.len();
                if !after.is_empty() && !comment {
                    return error(end_line, "text after the closing quote");
                }
                if let Some(last) = lines.last_mut() {
                    *last = &last[..end];
                }
                break;
            }
            let Some(line) = self.lines.get(self.next) else {
                return error(end_line, "unterminated quoted value");
            };
            if !line.text.is_empty() && line.indent <= parent {
                return error(line.number, "unterminated quoted value");
            }
            if line.indent <= parent && line.raw.contains('\t') {
                // YAML wants the continuation's indentation in spaces
                // before any tab, even on an empty line.
                return error(
                    line.number,
                    "a tab where a quoted value's continuation needs spaces",
                );
            }
            end_line = line.number;
            lines.push(line.raw);
            self.next += 1;
        }
        let folded = fold_quoted(&lines, quote == b'"');
        if quote == b'\'' {
            Ok(folded.replace("''", "'"))
        } else {
            check_escapes_per_line(&lines)
                .and_then(|()| unescape(&folded))
                .map_err(|reason| Error {
                    line: number,
                    reason,
                })
        }
    }

    /// A literal (`|`) or folded (`>`) block scalar with an optional
    /// chomping indicator (`-` strip, `+` keep).
    fn block_scalar(&mut self, parent: usize, header: &str, number: usize) -> Parsed<String> {
        let literal = header.starts_with('|');
        let after = &header[1..];
        // A comment must be separated from the indicators by a space.
        let indicators = match after.find('#') {
            Some(i) if after[..i].ends_with(WHITE) => &after[..i],
            _ => after,
        };
        let chomp = match indicators.trim_end_matches(WHITE) {
            "" => Chomp::Clip,
            "-" => Chomp::Strip,
            "+" => Chomp::Keep,
            other if other.bytes().any(|b| b.is_ascii_digit()) => {
                return error(number, "explicit indentation indicators are not supported");
            }
            _ => return error(number, "malformed block scalar header"),
        };
        // The content's column is that of its first non-empty line.
        let column = self.lines[self.next..]
            .iter()
            .find(|l| !l.text.is_empty())
            .map(|l| l.indent)
            .filter(|&indent| indent > parent);
        let mut content: Vec<String> = Vec::new();
        if column.is_none() {
            // No content: the empty lines that follow are the scalar's own
            // (YAML reads a tab past their spaces as content), and `+`
            // keeps their line breaks.
            let blank: Vec<&Line> = self.lines[self.next..]
                .iter()
                .take_while(|l| l.raw.trim_matches(WHITE).is_empty())
                .collect();
            if let Some(line) = blank.iter().find(|l| l.raw.contains('\t')) {
                return error(
                    line.number,
                    "a block scalar line of only white space holds a tab",
                );
            }
            if matches!(chomp, Chomp::Keep) {
                self.next += blank.len();
                return Ok("\n".repeat(blank.len()));
            }
        }
        if let Some(column) = column {
            while let Some(line) = self.lines.get(self.next) {
                if line.text.is_empty() && line.raw.contains('\t') {
                    // Content to YAML past the indentation, an empty line
                    // before it: too easy to misread either way.
                    return error(
                        line.number,
                        "a block scalar line of only white space holds a tab",
                    );
                }
                if line.text.is_empty() && line.indent > column {
                    // Spaces past the indentation are content, as YAML
                    // reads them; before any content they are an error.
                    if content.iter().all(String::is_empty) {
                        return error(
                            line.number,
                            "a leading empty line of a block scalar is indented more than its content",
                        );
                    }
                    content.push(" ".repeat(line.indent - column));
                } else if line.text.is_empty() {
                    content.push(String::new());
                } else if line.indent >= column {
                    let extra = " ".repeat(line.indent - column);
                    content.push(format!("{extra}{}", line.raw));
                } else {
                    break;
                }
                self.next += 1;
            }
        }
        let trailing = content.iter().rev().take_while(|l| l.is_empty()).count();
        content.truncate(content.len() - trailing);
        let mut text = if literal {
            content.join("\n")
        } else {
            fold_block(&content)
        };
        if !content.is_empty() {
            match chomp {
                Chomp::Strip => {}
                Chomp::Clip => text.push('\n'),
                Chomp::Keep => text.push_str(&"\n".repeat(trailing + 1)),
            }
        }
        Ok(text)
    }
}

#[derive(Clone, Copy)]
enum Chomp {
    Strip,
    Clip,
    Keep,
}

/// YAML's printable characters (`c-printable`), tab included, less those
/// that parsers disagree on: a carriage return inside a line (a line break
/// to YAML), a byte order mark (allowed only before a document), and next
/// line, line separator and paragraph separator (line breaks to YAML 1.1,
/// white space to some 1.2 parsers, invisible to people either way).
fn is_printable(c: char) -> bool {
    if matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}') {
        return false;
    }
    matches!(c, '\t' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        || c >= '\u{10000}'
}

/// `indicator` followed by white space or the end of the line: an
/// indicator to YAML, not the start of a plain scalar.
fn stands_alone(text: &str, indicator: char) -> bool {
    text.strip_prefix(indicator)
        .is_some_and(|after| after.is_empty() || after.starts_with(WHITE))
}

/// `-` followed by white space or the end of the line.
fn is_sequence_item(text: &str) -> bool {
    text.strip_prefix('-')
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(WHITE))
}

/// Whether `text` begins with `key:` followed by a space or the end.
fn starts_with_key(text: &str) -> bool {
    let text = text.trim_end_matches(WHITE);
    if text.starts_with(['"', '\'']) {
        let quote = text.as_bytes()[0];
        return closing_quote(&text[1..], quote).is_some_and(|end| {
            let after = text[end + 2..].trim_start_matches(WHITE);
            after == ":" || after.starts_with(": ")
        });
    }
    key_end(text).is_some_and(|end| comment_start(&text[..end]).is_none() && !text.starts_with('#'))
}

/// Where a ` #` comment starts in `text` (a `#` after white space; one
/// inside a word, as in `a#b`, is text).
fn comment_start(text: &str) -> Option<usize> {
    text.match_indices('#')
        .map(|(i, _)| i)
        .find(|&i| text[..i].ends_with(WHITE))
}

/// The position of the `:` that ends a plain key.
fn key_end(text: &str) -> Option<usize> {
    text.match_indices(':')
        .map(|(i, _)| i)
        .find(|&i| text[i + 1..].is_empty() || text[i + 1..].starts_with(WHITE))
}

/// Splits a `key: rest` line into the key and where the rest starts.
fn split_key(line: &Line<'_>) -> Parsed<(String, usize)> {
    let text = line.text;
    let (key, after) = if text.starts_with(['"', '\'']) {
        let quote = text.as_bytes()[0];
        let Some(end) = closing_quote(&text[1..], quote) else {
            return error(line.number, "unterminated quoted key");
        };
        let raw = &text[1..end + 1];
        let key = if quote == b'"' {
            unescape(raw).map_err(|reason| Error {
                line: line.number,
                reason,
            })?
        } else {
            raw.replace("''", "'")
        };
        let after = end + 2;
        (
            key,
            after + (text[after..].len() - text[after..].trim_start_matches(WHITE).len()),
        )
    } else {
        let Some(end) = key_end(text) else {
            return error(line.number, "expected `key: value`");
        };
        let key = text[..end].trim_end_matches(WHITE);
        if key.is_empty() || key.starts_with(INDICATORS) || comment_start(key).is_some() {
            return error(line.number, format!("unsupported key `{key}`"));
        }
        (key.to_owned(), end)
    };
    // YAML limits an implicit key to 1024 characters (found by the
    // differential fuzz target).
    if text[..after].chars().count() > MAX_KEY_CHARS {
        return error(
            line.number,
            format!("a key longer than {MAX_KEY_CHARS} characters"),
        );
    }
    match text[after..].strip_prefix(':') {
        Some(rest) if rest.is_empty() || rest.starts_with(' ') => Ok((key, after + 1)),
        // YAML parsers disagree on a tab there: refused, not guessed.
        Some(rest) if rest.starts_with('\t') => error(line.number, "a tab after `:` (use a space)"),
        _ => error(line.number, "expected `:` after the key"),
    }
}

/// The longest implicit key YAML allows.
const MAX_KEY_CHARS: usize = 1024;

/// Characters a plain scalar or key cannot start with.
const INDICATORS: [char; 19] = [
    '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`',
];

/// The index in `text` of the quote that closes a scalar whose opening
/// quote came just before `text`.
fn closing_quote(text: &str, quote: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            b if b == quote => return Some(i),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests;
