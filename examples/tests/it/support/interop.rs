//! The official SDKs, installed once per test binary by
//! `tests/interop/setup.sh` into `target/interop`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Runs an interop client to its end: panics with its output when it
/// fails; otherwise prints and returns its stdout (`what` names it in
/// both).
pub fn run_client(command: &mut Command, what: &str) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{what} failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    println!("{what}: {stdout}");
    stdout
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Installs the SDKs (once); returns the install folder. Fails the test when
/// they cannot be installed: these tests must not pass silently.
pub fn sdks() -> &'static Path {
    static TARGET: OnceLock<PathBuf> = OnceLock::new();
    TARGET.get_or_init(|| {
        let target = repo().join("target/interop");
        let status = Command::new("bash")
            .arg(repo().join("tests/interop/setup.sh"))
            .env("TARGET", &target)
            .status()
            .expect("run tests/interop/setup.sh");
        assert!(status.success(), "installing the official SDKs failed");
        target
    })
}

/// The venv's Python.
pub fn python() -> PathBuf {
    sdks().join("venv/bin/python")
}

/// A script in `tests/interop`.
pub fn script(name: &str) -> PathBuf {
    repo().join("tests/interop").join(name)
}

/// A server fixture running over HTTP; killed on drop.
pub struct HttpFixture {
    child: Child,
    /// The MCP endpoint, e.g. `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    /// Every line the server wrote to stderr so far.
    stderr: Arc<Mutex<Vec<String>>>,
}

impl HttpFixture {
    /// Starts `program [args] --http 0` and waits (bounded) for its
    /// "listening on URL" line on stderr.
    pub fn start(program: &Path, args: &[&Path]) -> Self {
        Self::start_with_env(program, args, &[])
    }

    /// [`start`](Self::start) with extra environment variables.
    pub fn start_with_env(program: &Path, args: &[&Path], env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(program);
        command
            .args(args)
            .args(["--http", "0"])
            .envs(env.iter().copied());
        Self::spawn(program, command)
    }

    /// Starts `program args`, whose arguments choose the address.
    #[allow(dead_code)] // not every test binary uses it
    pub fn start_with_args(program: &Path, args: &[&str]) -> Self {
        let mut command = Command::new(program);
        command.args(args);
        Self::spawn(program, command)
    }

    /// Starts `command` (which names `program`), whose arguments choose the
    /// address.
    #[allow(dead_code)] // not every test binary uses it
    pub fn start_command(program: &Path, command: Command) -> Self {
        Self::spawn(program, command)
    }

    /// What the server wrote to stderr so far, a line each.
    #[allow(dead_code)] // not every test binary uses it
    pub fn stderr(&self) -> Vec<String> {
        self.stderr.lock().unwrap().clone()
    }

    fn spawn(program: &Path, mut command: Command) -> Self {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let kept = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.split("listening on ").nth(1) {
                    let _ = tx.send(url.trim().to_owned());
                }
                eprintln!("[fixture] {line}");
                kept.lock().unwrap().push(line);
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("fixture did not start listening");
        HttpFixture {
            child,
            url,
            stderr: lines,
        }
    }
}

impl Drop for HttpFixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
