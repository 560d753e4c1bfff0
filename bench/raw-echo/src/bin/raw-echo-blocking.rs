//! `raw-echo-blocking --http IP:PORT`: the floor of one JSON-over-HTTP/1.1
//! round trip on this machine's loopback, below any async runtime, for
//! `bench/run-http.sh` (server `floor`). A thread per connection blocks in
//! `read`, so a request costs one `read` and one `write` and nothing else:
//! no `epoll_wait`, no task wake-up, no hand-over between threads. Per
//! request it does the same work as `raw-echo-http` (parse the body as
//! JSON, answer what `loadgen` checks, see [`raw_echo`]) with a minimal
//! HTTP/1.1 reader: a request line and headers, then `Content-Length` bytes
//! of body (400 if they are not JSON, 202 for a notification). A chunked
//! body ends the connection unanswered, since this reader cannot tell where
//! it stops. No MCP. With many connections in flight it is no floor: an event
//! loop then serves several sockets per wake-up, where this wakes a thread
//! per request.
//!
//! `--spin` makes the sockets non-blocking and retries `read` until data
//! comes, so the thread never sleeps: what a round trip costs when neither
//! core ever idles, bought with a whole core per connection. No server
//! should run so; it shows how much of a round trip is waking up.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};

const USAGE: &str = "usage: raw-echo-blocking --http IP:PORT [--spin]";
/// Largest request head (request line and headers) read, in bytes.
const MAX_HEAD: usize = 64 << 10;
/// Largest request body read, in bytes.
const MAX_BODY: usize = 1 << 20;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (addr, spin): (SocketAddr, bool) = match (
        args.next().as_deref(),
        args.next(),
        args.next().as_deref(),
        args.next(),
    ) {
        (Some("--http"), Some(addr), None, None) => (addr.parse()?, false),
        (Some("--http"), Some(addr), Some("--spin"), None) => (addr.parse()?, true),
        _ => return Err(USAGE.into()),
    };
    let listener = TcpListener::bind(addr)?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    for stream in listener.incoming() {
        let stream = stream?;
        stream.set_nodelay(true)?;
        stream.set_nonblocking(spin)?;
        std::thread::spawn(move || {
            // A client that goes away or sends what this reader does not
            // take ends its connection, nothing more.
            let _ = serve(stream);
        });
    }
    Ok(())
}

/// Answers the requests of one connection, one at a time, until it closes.
fn serve(mut stream: TcpStream) -> io::Result<()> {
    let mut input = Vec::with_capacity(4096);
    let mut output = Vec::with_capacity(4096);
    loop {
        let Some(head_len) = read_until_head_end(&mut stream, &mut input)? else {
            return Ok(());
        };
        let body_len = body_length(&input[..head_len])?;
        if body_len > MAX_BODY {
            return Err(invalid("body too large"));
        }
        while input.len() < head_len + body_len {
            if read_more(&mut stream, &mut input)? == 0 {
                return Ok(());
            }
        }
        let body = &input[head_len..head_len + body_len];
        output.clear();
        match serde_json::from_slice(body) {
            Ok(message) => match raw_echo::answer(&message) {
                Some(reply) => {
                    let reply = reply.to_string();
                    write!(
                        output,
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{reply}",
                        reply.len()
                    )?;
                }
                None => {
                    output.extend_from_slice(b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n")
                }
            },
            Err(_) => {
                output.extend_from_slice(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
            }
        }
        write_all(&mut stream, &output)?;
        input.drain(..head_len + body_len);
    }
}

/// Reads until `input` holds a whole head; its length with the blank line,
/// or `None` if the peer closed first.
fn read_until_head_end(stream: &mut TcpStream, input: &mut Vec<u8>) -> io::Result<Option<usize>> {
    // Where the search resumes: a head sent a byte at a time is scanned
    // once, not once per byte.
    let mut searched = 0;
    loop {
        if let Some(end) = input[searched..].windows(4).position(|w| w == b"\r\n\r\n") {
            return Ok(Some(searched + end + 4));
        }
        searched = input.len().saturating_sub(3);
        if input.len() > MAX_HEAD {
            return Err(invalid("head too large"));
        }
        if read_more(stream, input)? == 0 {
            return Ok(None);
        }
    }
}

/// Appends what one successful `read` returns to `input`.
fn read_more(stream: &mut TcpStream, input: &mut Vec<u8>) -> io::Result<usize> {
    let start = input.len();
    input.resize(start + (16 << 10), 0);
    let read = unblocked(|| stream.read(&mut input[start..]));
    input.truncate(start + *read.as_ref().unwrap_or(&0));
    read
}

/// Writes all of `bytes`.
fn write_all(stream: &mut TcpStream, mut bytes: &[u8]) -> io::Result<()> {
    while !bytes.is_empty() {
        match unblocked(|| stream.write(bytes))? {
            0 => return Err(io::ErrorKind::WriteZero.into()),
            written => bytes = &bytes[written..],
        }
    }
    Ok(())
}

/// Runs `op` until it does not report `WouldBlock`, which only a
/// non-blocking (`--spin`) socket does.
fn unblocked<T>(mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match op() {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::hint::spin_loop(),
            done => return done,
        }
    }
}

/// The body length a head declares: its `Content-Length`, 0 without one.
/// A `Transfer-Encoding`, or two `Content-Length`s that disagree, are
/// refused: where the body ends would be a guess.
fn body_length(head: &[u8]) -> io::Result<usize> {
    let head = std::str::from_utf8(head).map_err(|_| invalid("head is not UTF-8"))?;
    let mut length = None;
    for line in head.split("\r\n").skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(invalid("Transfer-Encoding is not read"));
        }
        if name.eq_ignore_ascii_case("content-length") {
            let value = value
                .trim()
                .parse()
                .map_err(|_| invalid("bad Content-Length"))?;
            if length.is_some_and(|length| length != value) {
                return Err(invalid("Content-Lengths disagree"));
            }
            length = Some(value);
        }
    }
    Ok(length.unwrap_or(0))
}

fn invalid(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why)
}
