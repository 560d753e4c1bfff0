//! Reading a `text/event-stream` body: the `data` of each event, in order.

/// One event: its data and the id it carried, if any.
#[derive(Debug, PartialEq)]
pub(crate) struct SseEvent {
    pub(crate) id: Option<String>,
    pub(crate) data: Vec<u8>,
}

/// Accumulates bytes and yields complete events; remembers the last
/// `retry` the server asked for.
#[derive(Default)]
pub(crate) struct SseDecoder {
    buffer: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    id: Option<String>,
    /// The reconnection delay the server set, in milliseconds.
    pub(crate) retry: Option<u64>,
}

impl SseDecoder {
    /// Forgets a partial event (its stream ended) but keeps `retry`.
    pub(crate) fn restart(&mut self) {
        *self = SseDecoder {
            retry: self.retry,
            ..SseDecoder::default()
        };
    }

    /// Feeds a chunk; returns the data of every event it completed. Fails
    /// when a line or an event grows beyond `limit` bytes.
    pub(crate) fn feed(&mut self, chunk: &[u8], limit: usize) -> Result<Vec<SseEvent>, String> {
        self.buffer.extend_from_slice(chunk);
        let mut events = Vec::new();
        let mut start = 0;
        while let Some(offset) = self.buffer[start..].iter().position(|&b| b == b'\n') {
            // Judged as the line arrived, so that the outcome does not
            // depend on how the stream was split into chunks.
            if offset > limit {
                return Err(format!("a line exceeds {limit} bytes"));
            }
            let mut line = &self.buffer[start..start + offset];
            start += offset + 1;
            if let Some(stripped) = line.strip_suffix(b"\r") {
                line = stripped;
            }
            if line.is_empty() {
                let id = self.id.take();
                if self.has_data || id.is_some() {
                    events.push(SseEvent {
                        id,
                        data: std::mem::take(&mut self.data),
                    });
                    self.has_data = false;
                }
                continue;
            }
            let (field, value) = match line.iter().position(|&b| b == b':') {
                Some(0) => continue, // a comment
                Some(i) => (
                    &line[..i],
                    line[i + 1..].strip_prefix(b" ").unwrap_or(&line[i + 1..]),
                ),
                None => (line, &b""[..]),
            };
            if field == b"id" {
                self.id = Some(String::from_utf8_lossy(value).into_owned());
            } else if field == b"retry" {
                self.retry = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok());
            } else if field == b"data" {
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
                if self.data.len() > limit {
                    return Err(format!("an event exceeds {limit} bytes"));
                }
            }
        }
        self.buffer.drain(..start);
        if self.buffer.len() > limit {
            return Err(format!("a line exceeds {limit} bytes"));
        }
        Ok(events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_split_across_chunks() {
        let mut decoder = SseDecoder::default();
        let mut events = Vec::new();
        for chunk in [
            &b"event: message\r\nid: 1\r\ndata: {\"a\":"[..],
            b"1}\r\n\r\n: ping\n\ndata: x\ndata: y\n",
            b"\n",
        ] {
            events.extend(decoder.feed(chunk, 1024).unwrap());
        }
        let data: Vec<_> = events.iter().map(|e| e.data.clone()).collect();
        assert_eq!(data, [b"{\"a\":1}".to_vec(), b"x\ny".to_vec()]);
        assert_eq!(events[0].id.as_deref(), Some("1"));
        assert_eq!(events[1].id, None);
    }

    #[test]
    fn an_event_with_only_an_id_and_retry_counts() {
        let mut decoder = SseDecoder::default();
        let events = decoder
            .feed(b"id: event-1\nretry: 500\ndata: \n\n", 1024)
            .unwrap();
        assert_eq!(
            events,
            [SseEvent {
                id: Some("event-1".into()),
                data: Vec::new()
            }]
        );
        assert_eq!(decoder.retry, Some(500));
    }

    #[test]
    fn oversized_events_are_errors() {
        let mut decoder = SseDecoder::default();
        assert!(decoder.feed(&[b'a'; 100], 10).is_err());
        let mut decoder = SseDecoder::default();
        assert!(decoder.feed(b"data: 0123456789abc\n", 10).is_err());
        // A long line is refused whether it arrives whole or in pieces.
        let mut decoder = SseDecoder::default();
        assert!(decoder.feed(b": a comment longer than ten\n", 10).is_err());
    }
}
