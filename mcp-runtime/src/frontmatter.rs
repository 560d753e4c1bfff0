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

#[cfg(test)]
mod reference;

/// A `SKILL.md` split into its frontmatter and its body.
#[derive(Debug)]
pub(crate) struct Document {
    /// The frontmatter fields.
    pub fields: Map<String, Value>,
    /// The byte offset where the Markdown body starts.
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
            _ if is_sequence_item(rest) || rest.starts_with("? ") => {
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
                let after = last[end + 1..].trim_start_matches(WHITE);
                if !after.is_empty() && !after.starts_with('#') {
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
            end_line = line.number;
            lines.push(line.raw);
            self.next += 1;
        }
        let folded = fold_quoted(&lines, quote == b'"');
        if quote == b'\'' {
            Ok(folded.replace("''", "'"))
        } else {
            unescape(&folded).map_err(|reason| Error {
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
            Some(i) if i == 0 || after[..i].ends_with(WHITE) => &after[..i],
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
        if let Some(column) = column {
            while let Some(line) = self.lines.get(self.next) {
                if line.text.is_empty() {
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

/// YAML's printable characters (`c-printable`), tab included; a carriage
/// return inside a line (a line break to YAML) is not one here, nor a byte
/// order mark, which YAML allows only before a document.
fn is_printable(c: char) -> bool {
    if c == '\u{feff}' {
        return false;
    }
    matches!(c, '\t' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        || c >= '\u{10000}'
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
    match text[after..].strip_prefix(':') {
        Some(rest) if rest.is_empty() || rest.starts_with(' ') => Ok((key, after + 1)),
        // YAML parsers disagree on a tab there: refused, not guessed.
        Some(rest) if rest.starts_with('\t') => error(line.number, "a tab after `:` (use a space)"),
        _ => error(line.number, "expected `:` after the key"),
    }
}

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

/// One line of a plain scalar, or the empty lines between two of them.
enum Piece<'a> {
    Text(&'a str),
    Breaks(usize),
}

/// One line of a plain scalar, its comment removed.
fn plain_piece(text: &str, number: usize) -> Parsed<Piece<'_>> {
    let text = match comment_start(text) {
        Some(i) => &text[..i],
        None => text,
    }
    .trim_end_matches(WHITE);
    if key_end(text).is_some() {
        return error(number, "`: ` inside a plain value (quote the value)");
    }
    Ok(Piece::Text(text))
}

/// Joins the lines of a plain scalar: a single line break becomes a space,
/// `n` empty lines become `n` line breaks.
fn fold_pieces(pieces: &[Piece<'_>]) -> String {
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Breaks(0) => out.push(' '),
            Piece::Breaks(n) => out.push_str(&"\n".repeat(*n)),
        }
    }
    out
}

/// Joins the lines of a quoted scalar (the first line as written, the others
/// trimmed) with the same folding as plain scalars; in double quotes a
/// line ending in an escaping `\` joins with nothing.
fn fold_quoted(lines: &[&str], double: bool) -> String {
    let mut out = String::new();
    let mut empty_lines = 0;
    let last = lines.len() - 1;
    for (i, line) in lines.iter().enumerate() {
        let mut text = if i == 0 {
            *line
        } else {
            line.trim_start_matches(WHITE)
        };
        if i < last {
            let trimmed = text.trim_end_matches(WHITE);
            // `\ ` before the break is an escaped space, which stays.
            let escaped_space = double && trimmed.len() < text.len() && ends_with_escape(trimmed);
            text = &text[..trimmed.len() + usize::from(escaped_space)];
        }
        if i > 0 && text.is_empty() && i < last {
            empty_lines += 1;
            continue;
        }
        if i > 0 {
            let escaped_break = double && ends_with_escape(&out);
            if escaped_break {
                out.pop();
            } else if empty_lines == 0 {
                out.push(' ');
            } else {
                out.push_str(&"\n".repeat(empty_lines));
            }
        }
        empty_lines = 0;
        out.push_str(text);
    }
    out
}

/// Whether `text` ends with an odd number of backslashes.
fn ends_with_escape(text: &str) -> bool {
    text.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// Joins the lines of a folded block scalar: a break between two lines of
/// text becomes a space, empty lines become line breaks, and lines indented
/// beyond the content keep their breaks.
fn fold_block(lines: &[String]) -> String {
    let mut out = String::new();
    let mut empty_lines = 0;
    let mut previous_more_indented = false;
    let mut first = true;
    for line in lines {
        if line.is_empty() {
            empty_lines += 1;
            continue;
        }
        let more_indented = line.starts_with(' ');
        if first {
            out.push_str(&"\n".repeat(empty_lines));
        } else if more_indented || previous_more_indented {
            out.push_str(&"\n".repeat(empty_lines + 1));
        } else if empty_lines == 0 {
            out.push(' ');
        } else {
            out.push_str(&"\n".repeat(empty_lines));
        }
        out.push_str(line);
        empty_lines = 0;
        previous_more_indented = more_indented;
        first = false;
    }
    out
}

/// The escapes of a double-quoted scalar.
fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escape = chars.next().ok_or("a trailing `\\`")?;
        let hex_digits = match escape {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => 0,
        };
        if hex_digits > 0 {
            let hex: String = chars.by_ref().take(hex_digits).collect();
            // Exactly that many hex digits: `from_str_radix` alone would
            // also take a sign (`\u+041`). Surrogates are no characters.
            let code = (hex.len() == hex_digits && hex.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| u32::from_str_radix(&hex, 16).ok())
                .flatten()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("invalid escape `\\{escape}{hex}`"))?;
            out.push(code);
            continue;
        }
        out.push(match escape {
            '0' => '\0',
            'a' => '\x07',
            'b' => '\x08',
            't' | '\t' => '\t',
            'n' => '\n',
            'v' => '\x0b',
            'f' => '\x0c',
            'r' => '\r',
            'e' => '\x1b',
            ' ' => ' ',
            '"' => '"',
            '/' => '/',
            '\\' => '\\',
            'N' => '\u{85}',
            '_' => '\u{a0}',
            'L' => '\u{2028}',
            'P' => '\u{2029}',
            other => return Err(format!("unknown escape `\\{other}`")),
        });
    }
    Ok(out)
}

/// A plain scalar's value under the YAML 1.2 core schema.
fn resolve(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    // `0o[0-7]+` and `0x[0-9a-fA-F]+`: digits only, as `from_str_radix`
    // alone would also take a sign (`0x-1`).
    let radix = |prefix: &str, radix: u32| {
        text.strip_prefix(prefix)
            .filter(|digits| !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix)))
            .and_then(|digits| i64::from_str_radix(digits, radix).ok())
    };
    if let Some(n) = radix("0o", 8).or_else(|| radix("0x", 16)) {
        return Value::Number(n.into());
    }
    if is_decimal_integer(text) {
        if let Ok(n) = text.parse::<i64>() {
            return Value::Number(n.into());
        }
    }
    if is_float(text) {
        // Out of range (`1e999`) there is no JSON number: it stays a
        // string, as `.inf` and `.nan` do, so it can only match an entry
        // that spelled it the same way.
        if let Some(n) = text.parse::<f64>().ok().and_then(Number::from_f64) {
            return Value::Number(n);
        }
    }
    Value::String(text.to_owned())
}

/// `[-+]?[0-9]+`
fn is_decimal_integer(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
fn is_float(text: &str) -> bool {
    let text = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match fraction {
        Some(fraction) => {
            digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty())
        }
        None => !whole.is_empty() && digits(whole),
    };
    let exponent_ok = exponent.is_none_or(is_decimal_integer);
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(yaml: &str) -> Value {
        let text = format!("---\n{yaml}---\nbody\n");
        Value::Object(parse(&text).unwrap().fields)
    }

    fn fails(yaml: &str) -> Error {
        parse(&format!("---\n{yaml}---\n")).unwrap_err()
    }

    #[test]
    fn splits_the_frontmatter_from_the_body() {
        let text = "---\r\nname: a\r\ndescription: b\r\n---\r\n\r\n# Title\n";
        let document = parse(text).unwrap();
        assert_eq!(&text[document.body_start..], "\r\n# Title\n");
        assert_eq!(
            Value::Object(document.fields),
            json!({"name": "a", "description": "b"})
        );
        assert_eq!(parse("---\nname: a\n---").unwrap().body_start, 15);
    }

    #[test]
    fn a_file_without_frontmatter_is_an_error() {
        assert_eq!(parse("# Title\n").unwrap_err().line, 1);
        assert_eq!(parse("---\nname: a\n").unwrap_err().line, 3);
    }

    #[test]
    fn reads_the_agent_skills_fields() {
        let yaml = "\
name: pdf-processing   # the directory's name
description: 'Extract, fill, and assemble PDF documents'
license: \"Apache-2.0\"
allowed-tools: Bash(git:*) Read
metadata:
  author: example-org
  version: \"1.0\"

compatibility:
";
        assert_eq!(
            fields(yaml),
            json!({
                "name": "pdf-processing",
                "description": "Extract, fill, and assemble PDF documents",
                "license": "Apache-2.0",
                "allowed-tools": "Bash(git:*) Read",
                "metadata": {"author": "example-org", "version": "1.0"},
                "compatibility": null
            })
        );
    }

    #[test]
    fn resolves_plain_scalars_with_the_core_schema() {
        let yaml =
            "a: 1.0\nb: -12\nc: 0x1F\nd: TRUE\ne: ~\nf: 1e3\ng: .5\nh: 1.2.3\ni: .inf\nj: 0o17\n";
        assert_eq!(
            fields(yaml),
            json!({"a": 1.0, "b": -12, "c": 31, "d": true, "e": null, "f": 1000.0,
                   "g": 0.5, "h": "1.2.3", "i": ".inf", "j": 15})
        );
    }

    #[test]
    fn folds_multi_line_scalars() {
        let yaml = "\
plain: first
  second

  third
single: 'it''s
  folded'
double: \"tab\\there \\
  joined \\u00e9\"
";
        assert_eq!(
            fields(yaml),
            json!({
                "plain": "first second\nthird",
                "single": "it's folded",
                "double": "tab\there joined é"
            })
        );
    }

    #[test]
    fn reads_block_scalars_with_chomping() {
        let yaml = "\
literal: |
  line one
    indented
  # not a comment

folded: >-
  one
  two

  three
kept: |+
  x

next: end
";
        assert_eq!(
            fields(yaml),
            json!({
                "literal": "line one\n  indented\n# not a comment\n",
                "folded": "one two\nthree",
                "kept": "x\n\n",
                "next": "end"
            })
        );
    }

    #[test]
    fn reads_block_sequences() {
        let yaml =
            "tools:\n- Read\n- 'Bash(git:*)'\nnested:\n  - k: v\n    other: 2\n  -\n    - deep\n";
        assert_eq!(
            fields(yaml),
            json!({"tools": ["Read", "Bash(git:*)"], "nested": [{"k": "v", "other": 2}, ["deep"]]})
        );
    }

    #[test]
    fn rejects_what_it_does_not_read_exactly() {
        for (yaml, line) in [
            ("name: a\nname: b\n", 3),
            ("name: a: b\n", 2),
            ("tags: [a, b]\n", 2),
            ("base: &anchor x\n", 2),
            ("name: 'open\n", 2),
            ("text: |2\n  x\n", 2),
            ("name: a\n\tdescription: b\n", 3),
            ("name: a\n  extra: b\n", 3),
            ("- a\n", 2),
            ("just text\n", 2),
            ("x: \"\\q\"\n", 2),
            ("x: 'a' b\n", 2),
            // `:` or `-` before a tab is an indicator, as before a space.
            ("x: a:\tb\n", 2),
            ("x: -\ta\n", 2),
            ("x:\ta\n", 2),
            ("x:\n-\ta\n", 3),
            // Found by the differential fuzz target: YAML has no control
            // characters outside tab and line breaks, even in comments.
            ("# a\0comment\n", 2),
            ("a: b\rc\n", 2),
            ("a: \"\u{7f}\"\n", 2),
            ("`: x\n", 2),
            ("list:\n  -\u{feff}-\n", 3),
            ("a: b # comment\n  c\n", 3),
            ("a: b\n  c # comment\n  d\n", 4),
        ] {
            assert_eq!(fails(yaml).line, line, "{yaml:?}");
        }
    }

    #[test]
    fn numbers_follow_the_core_schema_grammar_exactly() {
        // A sign after `0x`/`0o` or a digit outside the radix is no number.
        let yaml = "a: 0x-1\nb: 0x+1\nc: 0o-7\nd: 0o8\ne: +0x1\nf: 0x\ng: 0xfF\nh: +12\n";
        assert_eq!(
            fields(yaml),
            json!({"a": "0x-1", "b": "0x+1", "c": "0o-7", "d": "0o8", "e": "+0x1", "f": "0x",
                   "g": 255, "h": 12})
        );
    }

    #[test]
    fn escapes_take_exactly_their_hex_digits() {
        assert_eq!(
            fields("a: \"\\x41\\u00e9\\U0001F600\"\n"),
            json!({"a": "A\u{e9}\u{1F600}"})
        );
        for escape in [
            "\\u+041",
            "\\x+1",
            "\\u-041",
            "\\x4",
            "\\U0000041",
            "\\ud83d",
        ] {
            let error = fails(&format!("a: \"{escape}\"\n"));
            assert!(
                error.reason.contains("invalid escape"),
                "{escape}: {error:?}"
            );
        }
    }

    /// Frontmatters our parser must read, each the same as saphyr reads it.
    const DIFFERENTIAL_CORPUS: &[&str] = &[
        "name: pdf\ndescription: Extract text\nmetadata:\n  author: me\n  version: \"1.0\"\n",
        "a: 0x-1\nb: 0x+1\nc: 0o-7\nd: 0o8\ne: +0x1\nf: -0x1\ng: 0x1F\nh: 0o17\ni: 0x\nj: 0o\n",
        "a: +12\nb: -0\nc: 007\nd: 1_000\ne: 9223372036854775807\nf: -9223372036854775808\n",
        "a: 99999999999999999999\nb: 0xFFFFFFFFFFFFFFFF\nc: 0o7777777777777777777777\n",
        "a: 1e3\nb: 1E+3\nc: .5\nd: +.5\ne: -.5e-1\nf: 1.\ng: .\nh: 1e\ni: e1\nj: 1.e2\n",
        "a: .inf\nb: -.Inf\nc: +.INF\nd: .NaN\ne: nan\nf: inf\ng: 1e999\nh: .nAn\n",
        "a: True\nb: tRUE\nc: yes\nd: on\ne: ~\nf: Null\ng: NULL\nh: nULL\ni:\nj: FALSE\n",
        "a: \"\\x41\\u00e9\\U0001F600\\t\\N\\_\\L\\P\\/\\ \\e\\0\"\nb: 'it''s'\n",
        "1: one\n0x1F: key\n\"quoted key\": v\n'single key': w\nnull: n\ntrue: t\n",
        "url: http://example.com/a#b\nhash: a#b\ncomment: a # gone\ncolon: a:b\n",
        "plain: first\n  second\n\n  third\nnext: x\n",
        "double: \"a\n  b\\\n  c\\ \n\n  d\"\nsingle: 'a\n\n  b'\n",
        "literal: |\n  one\n    two\n\n  three\nfolded: >\n  a\n  b\n\n   c\n  d\nstrip: |-\n  x\n\nkeep: |+\n  y\n\n\n",
        "tools:\n- Read\n- 'Bash(git:*)'\nnested:\n  - k: v\n    o: 2\n  -\n    - deep\n",
        "empty:\nalso: ''\nlist:\n  -\n  - ~\n",
        "  indented: top\n  second: key\n",
        "a: b\r\nc: d\r\n",
        "# only a comment\n",
        "",
        "key with spaces: value with spaces  \nk: v\t\n",
        "a:\n  b:\n    c:\n      d: deep\n",
        "scalar_next_line:\n  value on the next line\n",
        "quoted_next_line:\n  \"value\"\n",
        // YAML's white space is space and tab only; a tab starts a comment.
        "ideographic: b\u{3000}\nnel: x\u{85}\ntabbed: v\t# a comment\n",
    ];

    #[test]
    fn reads_each_case_as_a_maintained_yaml_parser_does() {
        for yaml in DIFFERENTIAL_CORPUS {
            let ours = parse(&format!("---\n{yaml}---\n")).map(|document| document.fields);
            let ours = ours.unwrap_or_else(|error| panic!("{yaml:?}: {error}"));
            assert_eq!(Ok(ours), reference::load(yaml), "{yaml:?}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        // Mappings nested one space deeper per line, and sequences of
        // sequences: 10,000 levels each would overflow any thread's stack.
        let mappings: String = (0..10_000)
            .map(|i| format!("{}a:\n", " ".repeat(i)))
            .collect();
        let sequences: String = (0..10_000)
            .map(|i| format!("{}-\n", " ".repeat(i)))
            .collect();
        for yaml in [mappings, format!("a:\n{sequences}")] {
            let error = fails(&yaml);
            assert!(error.reason.contains("nested more than 64"), "{error:?}");
        }
        // The limit itself is fine.
        let deep: String = (0..MAX_DEPTH)
            .map(|i| format!("{}a:\n", " ".repeat(i)))
            .collect();
        assert!(parse(&format!("---\n{deep}---\n")).is_ok());
    }
}
