//! nginx from Debian's packages as a plain round-robin load balancer in
//! front of local upstreams: installed on demand, configured and run in a
//! temp dir as the current user, stopped on drop.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian puts the binary.
const NGINX: &str = "/usr/sbin/nginx";

/// The nginx binary, installing the `nginx-light` package (or `nginx`) with
/// apt-get when it is missing. Panics with the installer's output when that
/// fails: the test must not pass without a load balancer.
pub fn ensure_installed() -> PathBuf {
    let binary = PathBuf::from(NGINX);
    if binary.exists() {
        return binary;
    }
    let mut log = String::new();
    for (update, package) in [
        (false, "nginx-light"),
        (true, "nginx-light"),
        (true, "nginx"),
    ] {
        if update {
            log += &apt(&["update", "-qq"]).1;
        }
        let (ok, output) = apt(&["install", "-y", "-qq", "--no-install-recommends", package]);
        log += &output;
        if ok && binary.exists() {
            return binary;
        }
    }
    panic!("nginx is missing and `apt-get install nginx-light` (or nginx) failed:\n{log}");
}

/// Runs apt-get without prompts; returns success and the output.
fn apt(args: &[&str]) -> (bool, String) {
    match Command::new("apt-get")
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) => (
            out.status.success(),
            format!(
                "$ apt-get {}\n{}{}",
                args.join(" "),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        ),
        Err(e) => (
            false,
            format!("$ apt-get {}: cannot run: {e}\n", args.join(" ")),
        ),
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
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free port")
                .port();
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
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                    return LoadBalancer {
                        child,
                        binary: binary.to_owned(),
                        url: format!("http://{addr}/mcp"),
                        dir,
                    };
                }
                std::thread::sleep(Duration::from_millis(50));
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
