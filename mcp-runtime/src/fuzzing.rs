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
