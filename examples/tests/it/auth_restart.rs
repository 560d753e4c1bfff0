//! OAuth that outlives the process. `mcp-host call` (a real CLI process)
//! authorizes with the code flow at the npm `oidc-provider` issuer
//! (tests/interop/oidc_issuer.mjs, the user's part answered by the test)
//! and keeps its `tokenFile`; once the token has expired, later processes
//! (`mcp-host`, two at once, `mcp-codegen generate --config`) refresh it
//! from the file alone: the issuer's request log shows no visit to its
//! authorization endpoint, and a refresh_token grant.

use crate::support;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::cargo::workspace_binaries;
use support::host::mcp_host;
use support::interop::HttpFixture;
use support::oidc::{Issuer, http, keep_cookies_and_find_redirect};

/// Access tokens from codes live this long (the client renews a token
/// this short at half its lifetime: a second after it was issued).
const CODE_TTL: &str = "2";

/// Past the token's lifetime and the server's 5 s of leeway: the token
/// the first process got is refused by now.
const EXPIRY: Duration = Duration::from_secs(8);

/// How long any one process gets.
const RUN_LIMIT: Duration = Duration::from_secs(60);

/// What a client does when it needs the user (`LoopbackBrowser`).
const ASKS_THE_USER: &str = "Open this URL to authorize access";

/// One GET to a loopback server, with `cookie`: status and head.
fn get(url: &str, cookie: &str) -> (u16, String) {
    let headers: &[(&str, &str)] = match cookie.is_empty() {
        true => &[],
        false => &[("Cookie", cookie)],
    };
    let (status, head, _) = http("GET", url, "", headers);
    (status, head)
}

/// The user: opens `url`, logs in and consents (the issuer answers its
/// interaction pages by itself), following redirects with cookies until
/// one leads to the loopback callback, which the browser then opens.
fn approve(issuer: &str, url: &str) {
    let mut cookies: Vec<String> = Vec::new();
    let mut next = url.to_owned();
    for _ in 0..10 {
        let (status, head) = get(&next, &cookies.join("; "));
        let location = keep_cookies_and_find_redirect(&head, &mut cookies);
        let location = location.unwrap_or_else(|| panic!("HTTP {status} without redirect"));
        if location.contains("/callback?") {
            let (status, _) = get(&location, "");
            assert_eq!(status, 200, "the client's loopback listener took the code");
            return;
        }
        next = match location.starts_with('/') {
            true => format!("{issuer}{location}"),
            false => location,
        };
    }
    panic!("too many redirects");
}

/// A finished process: success, stdout, stderr.
struct Ran {
    ok: bool,
    stdout: String,
    stderr: String,
}

/// Runs `command`; when it asks the user, `user` answers (the test's
/// browser) or, without one, the process is stopped and the test fails.
fn run(mut command: Command, user: Option<&str>) -> Ran {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the client");
    let mut stdout = child.stdout.take().unwrap();
    let reading = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let (lines, stderr_lines) = mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("[client] {line}");
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + RUN_LIMIT;
    let mut stderr = Vec::<String>::new();
    let mut asked = false;
    let status = loop {
        while let Ok(line) = stderr_lines.try_recv() {
            let url = line.trim();
            if asked && url.starts_with("http") {
                match user {
                    Some(issuer) => approve(issuer, url),
                    None => {
                        let _ = child.kill();
                        let _ = child.wait();
                        panic!("the client asked the user:\n{}", stderr.join("\n"));
                    }
                }
            }
            asked |= line.contains(ASKS_THE_USER);
            stderr.push(line);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the client ran past {RUN_LIMIT:?}:\n{}", stderr.join("\n"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // What it wrote last.
    std::thread::sleep(Duration::from_millis(50));
    stderr.extend(stderr_lines.try_iter());
    Ran {
        ok: status.success(),
        stdout: reading.join().unwrap(),
        stderr: stderr.join("\n"),
    }
}

/// `mcp-host call user.whoami` on `config`.
fn whoami(config: &Path) -> Command {
    let mut command = Command::new(mcp_host());
    command
        .arg("--config")
        .arg(config)
        .args(["call", "user.whoami", "--yes"]);
    command
}

/// The protected server, its issuer, and a configuration whose `user`
/// server keeps its tokens in `tokens.json`.
struct Setup {
    issuer: Issuer,
    /// The issuer's request log.
    log: PathBuf,
    server: HttpFixture,
    config: PathBuf,
    tokens: PathBuf,
    _dir: tempfile::TempDir,
}

impl Setup {
    fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("issuer.log");
        // Refresh tokens are used once (a used one presented again revokes
        // the grant), so two processes refreshing with one would be seen.
        let issuer = Issuer::start_with(&[
            ("CODE_TTL", CODE_TTL),
            ("ROTATE_REFRESH", "1"),
            ("REQUEST_LOG", log.to_str().unwrap()),
        ]);
        let server = HttpFixture::start(
            Path::new(env!("CARGO_BIN_EXE_echo-server")),
            &[Path::new("--auth-issuer"), Path::new(&issuer.url)],
        );
        let tokens = dir.path().join("tokens.json");
        let config = dir.path().join("mcp.json");
        let servers = json!({"mcpServers": {
            "user": {"url": server.url, "oauth": {"tokenFile": tokens}}
        }});
        std::fs::write(&config, servers.to_string()).unwrap();
        Setup {
            issuer,
            log,
            server,
            config,
            tokens,
            _dir: dir,
        }
    }

    /// The first process: the user authorizes in the (test's) browser.
    fn authorize(&self) {
        let first = run(whoami(&self.config), Some(&self.issuer.url));
        assert!(first.ok, "the first run failed:\n{}", first.stderr);
        assert!(first.stdout.contains("alice"), "{}", first.stdout);
        let log = self.take_log();
        assert!(visited_authorization_endpoint(&log), "{log:?}");
        assert!(
            log.iter().any(|l| l == "grant authorization_code"),
            "{log:?}"
        );
        let saved = self.saved();
        let entry = &saved["servers"][self.server.url.as_str()];
        assert!(entry["token"]["refresh_token"].is_string(), "{saved}");
        let registration = &entry["issuers"][self.issuer.url.as_str()]["registration"];
        assert!(registration["client_id"].is_string(), "{saved}");
        assert!(registration["client_secret"].is_string(), "{saved}");
    }

    /// The issuer's request log: its lines since the last call, which
    /// empties it.
    fn take_log(&self) -> Vec<String> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        std::fs::write(&self.log, "").unwrap();
        text.lines().map(str::to_owned).collect()
    }

    /// The token file, which must always be whole, valid JSON.
    fn saved(&self) -> Value {
        let text = std::fs::read_to_string(&self.tokens).expect("the token file");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:?}"))
    }
}

fn visited_authorization_endpoint(log: &[String]) -> bool {
    log.iter().any(|line| line.starts_with("GET /auth"))
}

/// Whether the log shows a refresh and no trace of the user's step.
fn refreshed_without_the_user(log: &[String]) {
    assert!(!visited_authorization_endpoint(log), "{log:?}");
    assert!(
        !log.iter().any(|l| l == "grant authorization_code"),
        "{log:?}"
    );
    assert!(log.iter().any(|l| l == "grant refresh_token"), "{log:?}");
    assert!(!log.iter().any(|l| l.starts_with("grant-error")), "{log:?}");
}

#[test]
fn a_new_process_refreshes_the_stored_token_without_the_user() {
    let setup = Setup::start();
    setup.authorize();
    std::thread::sleep(EXPIRY);

    let second = run(whoami(&setup.config), None);
    assert!(second.ok, "the second run failed:\n{}", second.stderr);
    assert!(second.stdout.contains("alice"), "{}", second.stdout);
    refreshed_without_the_user(&setup.take_log());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&setup.tokens)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

/// Two processes refresh the same file at once, with refresh tokens that
/// are used once: both get a token, and the one the file keeps still
/// works (a refresh token used twice would have revoked the grant).
#[test]
fn two_processes_refreshing_one_file_at_once_both_keep_a_working_token() {
    let setup = Setup::start();
    setup.authorize();
    for round in 0..3 {
        std::thread::sleep(EXPIRY);
        let (a, b) = std::thread::scope(|scope| {
            let a = scope.spawn(|| run(whoami(&setup.config), None));
            let b = scope.spawn(|| run(whoami(&setup.config), None));
            (a.join().unwrap(), b.join().unwrap())
        });
        for (which, ran) in [("first", &a), ("second", &b)] {
            assert!(ran.ok, "round {round}, {which} failed:\n{}", ran.stderr);
            assert!(ran.stdout.contains("alice"), "{}", ran.stdout);
        }
        refreshed_without_the_user(&setup.take_log());
        let saved = setup.saved();
        assert_eq!(saved["version"], 2, "{saved}");
    }
    std::thread::sleep(EXPIRY);
    let after = run(whoami(&setup.config), None);
    assert!(
        after.ok,
        "the kept refresh token is dead:\n{}",
        after.stderr
    );
    refreshed_without_the_user(&setup.take_log());
}

/// The `mcp-codegen` binary (it belongs to another package).
fn mcp_codegen() -> PathBuf {
    workspace_binaries().join("mcp-codegen")
}

/// `mcp-codegen generate --config FILE --server NAME`, which cannot ask a
/// user: without a stored token it says so before registering anywhere;
/// with one (expired), it refreshes it and generates.
#[test]
fn codegen_from_a_host_configuration_uses_the_stored_token() {
    let setup = Setup::start();
    let generate = || {
        let mut command = Command::new(mcp_codegen());
        command
            .arg("generate")
            .arg("--config")
            .arg(&setup.config)
            .args(["--server", "user"]);
        command
    };

    let refused = run(generate(), None);
    assert!(!refused.ok, "generated without any token");
    assert!(
        refused.stderr.contains("no way to ask"),
        "{}",
        refused.stderr
    );
    let log = setup.take_log();
    assert!(
        !log.iter().any(|l| l.starts_with("POST /reg")),
        "registered although it could not ask the user: {log:?}"
    );

    setup.authorize();
    std::thread::sleep(EXPIRY);
    let generated = run(generate(), None);
    assert!(generated.ok, "codegen failed:\n{}", generated.stderr);
    assert!(generated.stdout.contains("whoami"), "{}", generated.stdout);
    refreshed_without_the_user(&setup.take_log());
}
