//! A server the client started itself: it is killed with the client, and
//! when it goes away its exit status and the end of its stderr say why.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{ChildStdin, ChildStdout, Command};

use super::ClientError;
use crate::sync::lock;

/// How much of the server's stderr is kept for error messages.
const STDERR_TAIL_BYTES: usize = 2048;

pub(crate) struct ServerProcess {
    child: Mutex<tokio::process::Child>,
    stderr_tail: Arc<Mutex<VecDeque<u8>>>,
}

impl ServerProcess {
    /// Starts `command` with piped stdio. Its stderr is passed on to ours as
    /// it comes, and its end kept for errors.
    pub(crate) fn spawn(
        mut command: Command,
    ) -> Result<(Self, ChildStdout, ChildStdin), ClientError> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let (Some(stdout), Some(stdin), Some(mut stderr)) =
            (child.stdout.take(), child.stdin.take(), child.stderr.take())
        else {
            return Err(ClientError::Closed);
        };
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        tokio::spawn(async move {
            let mut ours = tokio::io::stderr();
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buffer).await {
                let _ = ours.write_all(&buffer[..n]).await;
                let mut tail = lock(&tail);
                tail.extend(&buffer[..n]);
                let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
                tail.drain(..excess);
            }
        });
        let process = ServerProcess {
            child: Mutex::new(child),
            stderr_tail,
        };
        Ok((process, stdout, stdin))
    }

    /// Waits until the server exits or `deadline` passes, then kills it if
    /// it still runs.
    pub(crate) async fn stop(&self, deadline: tokio::time::Instant) {
        loop {
            if !matches!(lock(&self.child).try_wait(), Ok(None)) {
                return;
            }
            if tokio::time::Instant::now() >= deadline {
                let _ = lock(&self.child).start_kill();
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// The process id, while the server runs.
    pub(crate) fn id(&self) -> Option<u32> {
        lock(&self.child).id()
    }

    /// How the server ended, if it has (waiting a moment, since its
    /// output may close just before it exits): its exit status and the end
    /// of its stderr.
    pub(crate) async fn ending(&self) -> Option<String> {
        let mut status = None;
        for _ in 0..25 {
            status = lock(&self.child).try_wait().ok().flatten();
            if status.is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let status = status?;
        let tail: Vec<u8> = lock(&self.stderr_tail).iter().copied().collect();
        let text = String::from_utf8_lossy(&tail).trim().to_owned();
        Some(match text.is_empty() {
            true => format!("the server exited ({status}) and wrote nothing on stderr"),
            false => format!("the server exited ({status}); the end of its stderr: {text}"),
        })
    }
}
