//! The real authorization server of the authorization tests: the npm
//! `oidc-provider` (tests/interop/oidc_issuer.mjs), and the plain HTTP/1.1
//! exchanges the tests make with it and with protected servers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::interop::{script, sdks};

/// The authorization server, killed on drop.
pub struct Issuer {
    child: Child,
    /// The issuer identifier, `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Issuer {
    /// Starts the issuer on a free loopback port (access tokens of
    /// `mcp-test-short` live 1 s).
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// [`start`](Self::start) with extra environment variables (`CODE_TTL`,
    /// `SCOPES`, ...).
    pub fn start_with(env: &[(&str, &str)]) -> Self {
        let mut child = Command::new("node")
            .arg(script("oidc_issuer.mjs"))
            .env("MCP_INTEROP_NODE_DIR", sdks().join("node"))
            .env("SHORT_TTL", "1")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start node oidc_issuer.mjs");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the issuer did not start");
        let url = line
            .trim()
            .strip_prefix("ISSUER ")
            .unwrap_or_else(|| panic!("unexpected issuer output {line:?}"))
            .to_owned();
        Issuer { child, url }
    }

    /// An access token from the client_credentials grant.
    pub fn token(&self, client: &str, resource: &str, scope: &str) -> String {
        let form = format!(
            "grant_type=client_credentials&client_id={client}&client_secret=test-secret&resource={}&scope={}",
            encode(resource),
            encode(scope)
        );
        let answer = post(
            &format!("{}/token", self.url),
            &form,
            "application/x-www-form-urlencoded",
        );
        answer["access_token"]
            .as_str()
            .unwrap_or_else(|| panic!("no token: {answer}"))
            .to_owned()
    }
}

impl Drop for Issuer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `text` percent-encoded for a form or a query.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One HTTP/1.1 exchange with a loopback server: status, headers, body.
pub fn http(
    method: &str,
    url: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, String, String) {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = TcpStream::connect(authority).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut request = format!(
        "{method} {} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\nContent-Length: {}\r\n",
        if path.is_empty() { "/" } else { path },
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_owned(), body.to_owned())
}

/// POSTs `body` to `url` and returns the JSON of a 200 answer.
pub fn post(url: &str, body: &str, content_type: &str) -> Value {
    let (status, _, body) = http("POST", url, body, &[("Content-Type", content_type)]);
    assert_eq!(status, 200, "{url}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{url}: {e}: {body}"))
}

/// Keeps in `cookies` the ones a response's `head` sets (the latest per
/// name, as `name=value`), as a browser walking the issuer's consent pages
/// would; returns where the response redirects, if it does.
pub fn keep_cookies_and_find_redirect(head: &str, cookies: &mut Vec<String>) -> Option<String> {
    let mut location = None;
    for line in head.lines() {
        let Some((name, value)) = line.split_once(": ") else {
            continue;
        };
        if name.eq_ignore_ascii_case("set-cookie") {
            let pair = value.split(';').next().unwrap_or_default().to_owned();
            let name = pair.split('=').next().unwrap_or_default().to_owned();
            cookies.retain(|c| !c.starts_with(&format!("{name}=")));
            cookies.push(pair);
        } else if name.eq_ignore_ascii_case("location") {
            location = Some(value.trim().to_owned());
        }
    }
    location
}
