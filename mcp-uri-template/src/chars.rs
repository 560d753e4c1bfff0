//! Character classes of RFC 3986 / RFC 6570 and percent-encoding, shared by
//! expansion (which writes them) and matching (which reads them back).

use std::fmt::Write as _;

/// RFC 3986 `unreserved`: never encoded.
pub(crate) fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 `reserved` (`gen-delims` and `sub-delims`).
pub(crate) fn is_reserved(byte: u8) -> bool {
    matches!(
        byte,
        b':' | b'/'
            | b'?'
            | b'#'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

/// Which characters of a value an expansion writes as they are (RFC 6570
/// section 1.5: `U` or `U+R`); every other character is percent-encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Allow {
    /// `unreserved` only.
    Unreserved,
    /// `unreserved`, `reserved` and existing percent-encoded triplets.
    UnreservedReserved,
}

impl Allow {
    /// Whether matching accepts `unit` inside a value of this class. Any
    /// percent-encoded character is accepted (it decodes), and so is a raw
    /// non-ASCII character (IRIs, RFC 3987), which can never be a delimiter.
    pub(crate) fn admits(self, unit: Unit) -> bool {
        if unit.encoded || !unit.ch.is_ascii() {
            return true;
        }
        let byte = unit.ch as u8;
        match self {
            Allow::Unreserved => is_unreserved(byte),
            Allow::UnreservedReserved => is_unreserved(byte) || is_reserved(byte),
        }
    }
}

/// Appends `text` to `out`, percent-encoding what `allow` does not admit.
pub(crate) fn encode_into(out: &mut String, text: &str, allow: Allow) {
    let bytes = text.as_bytes();
    let mut i = 0;
    for ch in text.chars() {
        let at = i;
        i += ch.len_utf8();
        if !ch.is_ascii() {
            push_encoded(out, ch);
            continue;
        }
        let byte = ch as u8;
        let kept = match allow {
            Allow::Unreserved => is_unreserved(byte),
            // An existing triplet passes through unchanged (RFC 6570 3.2.3).
            Allow::UnreservedReserved => {
                is_unreserved(byte) || is_reserved(byte) || is_triplet(bytes, at)
            }
        };
        if kept {
            out.push(ch);
        } else {
            push_encoded(out, ch);
        }
    }
}

fn push_encoded(out: &mut String, ch: char) {
    let mut buf = [0u8; 4];
    for byte in ch.encode_utf8(&mut buf).bytes() {
        let _ = write!(out, "%{byte:02X}");
    }
}

/// Whether `bytes[at..]` starts with `%` and two hex digits.
pub(crate) fn is_triplet(bytes: &[u8], at: usize) -> bool {
    bytes.get(at) == Some(&b'%')
        && bytes.get(at + 1).is_some_and(u8::is_ascii_hexdigit)
        && bytes.get(at + 2).is_some_and(u8::is_ascii_hexdigit)
}

/// One character of a URI, as written or percent-encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unit {
    /// The character (decoded when `encoded`).
    pub(crate) ch: char,
    /// Whether it was written as percent-encoded UTF-8.
    pub(crate) encoded: bool,
    /// Its length in the URI, in bytes.
    pub(crate) len: usize,
}

/// The character starting at byte `at` of `uri`: `None` at the end, and
/// where a `%` does not start percent-encoded UTF-8 (a stray `%`, or bytes
/// that are not UTF-8), so such text never becomes part of a value.
pub(crate) fn unit_at(uri: &str, at: usize) -> Option<Unit> {
    let rest = uri.get(at..)?;
    let first = rest.chars().next()?;
    if first != '%' {
        return Some(Unit {
            ch: first,
            encoded: false,
            len: first.len_utf8(),
        });
    }
    let bytes = rest.as_bytes();
    let lead = hex_byte(bytes, 0)?;
    let width = match lead {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let mut buf = [0u8; 4];
    for (k, slot) in buf.iter_mut().enumerate().take(width) {
        *slot = hex_byte(bytes, 3 * k)?;
    }
    let ch = std::str::from_utf8(&buf[..width]).ok()?.chars().next()?;
    Some(Unit {
        ch,
        encoded: true,
        len: 3 * width,
    })
}

fn hex_byte(bytes: &[u8], at: usize) -> Option<u8> {
    if !is_triplet(bytes, at) {
        return None;
    }
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    Some(digit(bytes[at + 1])? << 4 | digit(bytes[at + 2])?)
}

/// Decodes a span that matching has already checked unit by unit.
pub(crate) fn decode(span: &str) -> Option<String> {
    let mut out = String::with_capacity(span.len());
    let mut at = 0;
    while at < span.len() {
        let unit = unit_at(span, at)?;
        out.push(unit.ch);
        at += unit.len;
    }
    Some(out)
}

/// Matches the template literal `literal` at byte `at` of `uri`, returning
/// where it ends. A character outside `U+R` (non-ASCII) may appear as
/// itself or percent-encoded, since expansion encodes it.
pub(crate) fn match_literal(uri: &str, at: usize, literal: &str) -> Option<usize> {
    let mut pos = at;
    for ch in literal.chars() {
        if ch.is_ascii() {
            if uri.as_bytes().get(pos) != Some(&(ch as u8)) {
                return None;
            }
            pos += 1;
        } else if uri.get(pos..)?.starts_with(ch) {
            pos += ch.len_utf8();
        } else {
            let unit = unit_at(uri, pos).filter(|u| u.encoded && u.ch == ch)?;
            pos += unit.len;
        }
    }
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_decode_whole_utf8_sequences_only() {
        assert_eq!(unit_at("%C3%A9x", 0).map(|u| (u.ch, u.len)), Some(('é', 6)));
        assert_eq!(unit_at("%c3%a9", 0).map(|u| u.ch), Some('é'));
        assert_eq!(unit_at("%C3x", 0), None, "truncated sequence");
        assert_eq!(unit_at("%FF", 0), None, "not UTF-8");
        assert_eq!(unit_at("%+1", 0), None, "`+` is not a hex digit");
        assert_eq!(unit_at("%4", 0), None);
        assert_eq!(
            unit_at("é", 0).map(|u| (u.encoded, u.len)),
            Some((false, 2))
        );
    }

    #[test]
    fn encoding_keeps_what_the_class_allows() {
        let mut out = String::new();
        encode_into(&mut out, "a/b %41é", Allow::Unreserved);
        assert_eq!(out, "a%2Fb%20%2541%C3%A9");
        out.clear();
        encode_into(&mut out, "a/b %41%zz", Allow::UnreservedReserved);
        assert_eq!(out, "a/b%20%41%25zz");
    }

    #[test]
    fn literals_match_raw_or_encoded_non_ascii() {
        assert_eq!(match_literal("café/x", 0, "café/"), Some(6));
        assert_eq!(match_literal("caf%C3%A9/x", 0, "café/"), Some(10));
        assert_eq!(match_literal("cafe/x", 0, "café/"), None);
    }
}
