//! Entry points for the fuzz targets in `fuzz/`: internal parsers that have
//! no public API of their own. Compiled only with the `fuzzing` feature; not
//! a stable API.

use serde_json::{Map, Value};

/// Parses a `SKILL.md` and returns its frontmatter fields, or the error
/// message the loader would report.
pub fn frontmatter(text: &str) -> Result<Map<String, Value>, String> {
    crate::frontmatter::parse(text)
        .map(|document| document.fields)
        .map_err(|error| error.to_string())
}

/// Checks `value` against `schema` with the built-in validator (the one a
/// build without the `validation` feature uses, whatever features this
/// build has): `Err` when the schema is refused, else every violation as
/// `(pointer, message)`.
pub fn lean_schema_check(schema: &Value, value: &Value) -> Result<Vec<(String, String)>, String> {
    let compiled = crate::schema::lean::LeanSchema::compile(schema)?;
    let errors = compiled.errors(value);
    debug_assert_eq!(errors.is_empty(), compiled.is_valid(value));
    Ok(errors)
}

/// One completed SSE event: its `id`, if any, and its data.
pub type SseEvent = (Option<String>, Vec<u8>);

/// Feeds `chunks` to one SSE decoder with a per-event `limit`; returns each
/// completed event, or the decoder's error.
pub fn sse_events(chunks: &[&[u8]], limit: usize) -> Result<Vec<SseEvent>, String> {
    let mut decoder = crate::client::sse::SseDecoder::default();
    let mut events = Vec::new();
    for chunk in chunks {
        for event in decoder.feed(chunk, limit)? {
            events.push((event.id, event.data));
        }
    }
    Ok(events)
}
