//! Scalars: plain pieces and their folding, quoted and block scalars,
//! escapes, and the YAML 1.2 core schema that resolves plain scalars.

use super::*;

/// One line of a plain scalar, or the empty lines between two of them.
pub(super) enum Piece<'a> {
    Text(&'a str),
    Breaks(usize),
}

/// One line of a plain scalar, its comment removed.
pub(super) fn plain_piece(text: &str, number: usize) -> Parsed<Piece<'_>> {
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
pub(super) fn fold_pieces(pieces: &[Piece<'_>]) -> String {
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
pub(super) fn fold_quoted(lines: &[&str], double: bool) -> String {
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
                // The escaped break goes; the empty lines after it are
                // line feeds still (found by the differential fuzz target).
                out.pop();
                out.push_str(&"\n".repeat(empty_lines));
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

/// Checks that every escape of a double-quoted scalar ends on its own
/// line: folding joins the lines first, and an escape cut short by the
/// line's end (`\x\` before an escaped break) must not take its digits
/// from the next line (found by the differential fuzz target).
pub(super) fn check_escapes_per_line(lines: &[&str]) -> Result<(), String> {
    let last = lines.len() - 1;
    for (i, line) in lines.iter().enumerate() {
        let mut text = line.trim_end_matches(WHITE);
        if i < last && ends_with_escape(text) {
            // The escaped line break (or an escaped space before it).
            text = &text[..text.len() - 1];
        }
        unescape(text)?;
    }
    Ok(())
}

/// Whether `text` ends with an odd number of backslashes.
fn ends_with_escape(text: &str) -> bool {
    text.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// Joins the lines of a folded block scalar: a break between two lines of
/// text becomes a space, empty lines become line breaks, and lines indented
/// beyond the content keep their breaks.
pub(super) fn fold_block(lines: &[String]) -> String {
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
pub(super) fn unescape(text: &str) -> Result<String, String> {
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
pub(super) fn resolve(text: &str) -> Value {
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
    if is_decimal_integer(text)
        && let Ok(n) = text.parse::<i64>()
    {
        return Value::Number(n.into());
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
