//! nginx from Debian's packages as a plain round-robin load balancer in
//! front of local upstreams: unpacked on demand under `target/` (no root
//! needed), configured and run in a temp dir as the current user, stopped
//! on drop.

use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian's package puts the binary, on the system or unpacked.
const NGINX: &str = "usr/sbin/nginx";

/// The nginx binary: the system's if installed, otherwise Debian's `nginx`
/// package fetched with `apt-get download` and unpacked with `dpkg -x`
/// under `target/tmp/nginx` (once; later runs reuse it), which needs no
/// root. Panics with the tools' output when that fails: the test must not
/// pass without a load balancer.
pub fn ensure_installed() -> PathBuf {
    let system = Path::new("/").join(NGINX);
    if system.exists() {
        return system;
    }
    let unpacked = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nginx");
    let binary = unpacked.join(NGINX);
    if binary.exists() {
        return binary;
    }
    // Unpacked in a scratch dir, then renamed: a run that stops half-way
    // leaves no partial install behind.
    let scratch = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("scratch dir");
    let mut log = String::new();
    // The package lists may be missing or stale; refreshing them needs root
    // (its failure as another user is only logged).
    for update in [false, true] {
        if update {
            log += &run("apt-get", &["update", "-qq"], scratch.path()).1;
        }
        let (ok, output) = run("apt-get", &["download", "-qq", "nginx"], scratch.path());
        log += &output;
        if ok {
            break;
        }
    }
    let package = std::fs::read_dir(scratch.path())
        .expect("scratch dir")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "deb"));
    if let Some(package) = package {
        let root = scratch.path().join("root");
        let (ok, output) = run(
            "dpkg",
            &["-x", &package.to_string_lossy(), &root.to_string_lossy()],
            scratch.path(),
        );
        log += &output;
        // Another test process may have finished first: its copy will do.
        if ok && (std::fs::rename(&root, &unpacked).is_ok() || binary.exists()) {
            return binary;
        }
    }
    panic!("nginx is missing and `apt-get download nginx` + `dpkg -x` failed:\n{log}");
}

/// Runs `program` in `dir` without prompts; returns success and the output.
fn run(program: &str, args: &[&str], dir: &Path) -> (bool, String) {
    let command = format!("$ {program} {}", args.join(" "));
    match Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) => (
            out.status.success(),
            format!(
                "{command}\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        ),
        Err(e) => (false, format!("{command}: cannot run: {e}\n")),
    }
}

/// A running nginx balancing `/mcp` over its upstreams round robin, with no
/// stickiness, unbuffered (SSE passes through) and HTTP/1.1 keep-alive to
/// the upstreams. Its access log records `$upstream_addr` per request.
pub struct LoadBalancer {
    child: Child,
    binary: PathBuf,
    dir: tempfile::TempDir,
    /// The MCP endpoint through the balancer.
    pub url: String,
}

impl LoadBalancer {
    /// Starts nginx in front of `upstreams` (`127.0.0.1:PORT` each).
    pub fn start(binary: &Path, upstreams: &[SocketAddr]) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        // A free port, released just before nginx binds it; retried if
        // another process takes it in between.
        for _attempt in 0..5 {
            let port = super::free_port();
            let config = dir.path().join("nginx.conf");
            std::fs::write(&config, config_text(dir.path(), port, upstreams)).unwrap();
            let mut child = Command::new(binary)
                .arg("-p")
                .arg(dir.path())
                .arg("-c")
                .arg(&config)
                .arg("-e")
                .arg(dir.path().join("error.log"))
                .stdin(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
            let addr = SocketAddr::from(([127, 0, 0, 1], port));
            let listening =
                || TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok();
            if super::wait_until_ready(&mut child, listening) {
                return LoadBalancer {
                    child,
                    binary: binary.to_owned(),
                    url: format!("http://{addr}/mcp"),
                    dir,
                };
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        let errors = std::fs::read_to_string(dir.path().join("error.log")).unwrap_or_default();
        panic!("nginx did not start listening:\n{errors}");
    }

    /// The `$upstream_addr` of every request served so far, in order.
    pub fn upstreams_used(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("access.log"))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
            .collect()
    }
}

impl Drop for LoadBalancer {
    /// Asks the master to stop (it takes its workers along), then kills it
    /// if it has not exited within 5 s.
    fn drop(&mut self) {
        let _ = Command::new(&self.binary)
            .arg("-p")
            .arg(self.dir.path())
            .arg("-c")
            .arg(self.dir.path().join("nginx.conf"))
            .args(["-s", "stop"])
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One worker (so round robin is exact), everything in `dir`.
fn config_text(dir: &Path, port: u16, upstreams: &[SocketAddr]) -> String {
    let dir = dir.display();
    let servers: String = upstreams
        .iter()
        .map(|addr| format!("        server {addr};\n"))
        .collect();
    format!(
        r#"daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstream '$upstream_addr $status $request_time';
    access_log {dir}/access.log upstream;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream mcp {{
{servers}        keepalive 16;
        # Below the upstreams' 10 s idle timeout, so nginx never reuses a
        # connection the upstream is closing.
        keepalive_timeout 5s;
    }}
    server {{
        listen 127.0.0.1:{port};
        location /mcp {{
            proxy_pass http://mcp;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_read_timeout 60s;
        }}
    }}
}}
"#
    )
}
