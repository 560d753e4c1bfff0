//! Serving the endpoint on a TCP listener with hyper: connection limits,
//! timeouts, and a graceful, bounded shutdown.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

use super::{HttpConfig, McpService, response};
use crate::server::Server;

/// A pause after a failed `accept` (out of file descriptors, say), so that
/// the loop does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

impl Server {
    /// Serves Streamable HTTP at `http://ADDR/mcp` with the defaults of
    /// [`HttpConfig`], until the process ends. Pass a loopback address
    /// (`127.0.0.1:PORT`) unless the server must be reachable from other
    /// machines; see [`serve_http_with`](Self::serve_http_with) for a
    /// shutdown signal and other settings.
    pub async fn serve_http(self, addr: impl ToSocketAddrs) -> io::Result<()> {
        let listener = TcpListener::bind(addr).await?;
        self.serve_http_with(listener, HttpConfig::default(), std::future::pending())
            .await
    }

    /// Serves Streamable HTTP on `listener` at [`HttpConfig::path`] until
    /// `shutdown` resolves; then stops accepting, lets requests in flight
    /// finish for up to [`HttpConfig::shutdown_grace`], cancels the rest and
    /// returns.
    pub async fn serve_http_with(
        self,
        listener: TcpListener,
        config: HttpConfig,
        shutdown: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let grace = config.shutdown_grace;
        let permits = Arc::new(Semaphore::new(config.max_connections.max(1)));
        let mut connections = Connections::new(self, config);
        tokio::pin!(shutdown);

        loop {
            let permit = tokio::select! {
                biased;
                () = &mut shutdown => break,
                permit = permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            };
            let stream = tokio::select! {
                biased;
                () = &mut shutdown => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                        continue;
                    }
                },
            };
            connections.serve(stream, permit);
        }

        drop(listener);
        connections.shut_down(grace).await;
        Ok(())
    }
}

/// The connections of one listener. Its methods are the non-generic part of
/// [`Server::serve_http_with`] (everything but waiting for `shutdown`), so
/// that hyper's connection machinery is compiled once, here, and not again
/// in every crate that serves HTTP.
struct Connections {
    http: http1::Builder,
    service: McpService,
    /// The endpoint, and the protected-resource metadata when protected.
    paths: Arc<[String]>,
    graceful: GracefulShutdown,
    running: JoinSet<()>,
}

impl Connections {
    fn new(server: Server, config: HttpConfig) -> Self {
        let mut http = http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(config.header_read_timeout);
        let mut paths = vec![config.path.clone()];
        paths.extend(config.auth.iter().flat_map(|auth| auth.metadata_paths()));
        Connections {
            http,
            service: McpService::new(server, config),
            paths: paths.into(),
            graceful: GracefulShutdown::new(),
            running: JoinSet::new(),
        }
    }

    /// Serves one accepted connection on its own task, holding `permit`
    /// until it closes.
    #[inline(never)]
    fn serve(&mut self, stream: TcpStream, permit: OwnedSemaphorePermit) {
        while self.running.try_join_next().is_some() {}
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "TCP_NODELAY not set");
        }
        let (service, paths) = (self.service.clone(), self.paths.clone());
        let endpoint = service_fn(move |request: Request<Incoming>| {
            let (service, paths) = (service.clone(), paths.clone());
            async move {
                if !paths.iter().any(|p| p == request.uri().path()) {
                    return Ok::<_, std::convert::Infallible>(response::refuse(
                        StatusCode::NOT_FOUND,
                        format!("the MCP endpoint is {}", paths[0]),
                    ));
                }
                Ok(service.handle(request).await)
            }
        });
        let connection = self
            .graceful
            .watch(self.http.serve_connection(TokioIo::new(stream), endpoint));
        self.running.spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection ended with an error");
            }
            drop(permit);
        });
    }

    /// Ends the legacy sessions' event streams, lets requests in flight
    /// finish for up to `grace`, then cancels the rest, and the legacy
    /// requests whose client left (they run detached).
    #[inline(never)]
    fn shut_down(self, grace: Duration) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        let Connections {
            service,
            graceful,
            mut running,
            ..
        } = self;
        Box::pin(async move {
            // Open event streams end only when told to; the rest may finish.
            service.end_streams();
            if tokio::time::timeout(grace, graceful.shutdown())
                .await
                .is_err()
            {
                tracing::warn!("requests still running after the shutdown grace were cancelled");
                running.abort_all();
            }
            service.cancel_all();
        })
    }
}
