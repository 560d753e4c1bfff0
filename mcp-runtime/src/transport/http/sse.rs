//! Server-Sent Events framing of JSON-RPC messages.

use hyper::body::Bytes;

/// One `message` event carrying one encoded JSON-RPC message. Encoded JSON
/// never contains a raw line break, so the message fits one `data:` line.
pub(super) fn event(frame: &[u8]) -> Bytes {
    debug_assert!(!frame.contains(&b'\n') && !frame.contains(&b'\r'));
    let mut event = Vec::with_capacity(frame.len() + 24);
    event.extend_from_slice(b"event: message\ndata: ");
    event.extend_from_slice(frame);
    event.extend_from_slice(b"\n\n");
    event.into()
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_data_line_per_event() {
        assert_eq!(
            &super::event(br#"{"a":1}"#)[..],
            b"event: message\ndata: {\"a\":1}\n\n"
        );
    }
}
