//! The client's `text/event-stream` reader: arbitrary bytes, split into
//! arbitrary chunks, must decode without panicking, must respect the event
//! size limit, and must give the same events however the bytes are split.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_toolkit_runtime::fuzzing::sse_events;

const LIMIT: usize = 256;

fuzz_target!(|data: &[u8]| {
    let Some((&split, body)) = data.split_first() else {
        return;
    };
    let whole = sse_events(&[body], LIMIT);
    // The same bytes in chunks of `split` (at least 1) bytes.
    let size = usize::from(split).max(1);
    let chunks: Vec<&[u8]> = body.chunks(size).collect();
    let chunked = sse_events(&chunks, LIMIT);
    match (&whole, &chunked) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "splitting changed the events"),
        // A limit error may come earlier or later, but both must see it.
        (Err(_), Err(_)) => {}
        _ => panic!("splitting changed the outcome: {whole:?} vs {chunked:?}"),
    }
    if let Ok(events) = whole {
        for (id, data) in events {
            assert!(data.len() <= LIMIT, "an event beyond the limit");
            // Read lossily: each invalid byte of the line may become a
            // three-byte U+FFFD, but the line itself was within the limit.
            assert!(id.is_none_or(|id| id.len() <= 3 * LIMIT));
        }
    }
});
