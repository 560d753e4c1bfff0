//! A server that cannot be reached is reported as what went wrong (a
//! refused connection, a name that does not resolve, an unsupported URL),
//! never as a protocol-version disagreement.

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectErrorKind};

async fn connect_error(url: &str) -> ConnectErrorKind {
    let outcome = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        Client::connect_http(url),
    )
    .await
    .expect("a failure comes quickly");
    match outcome {
        Err(ClientError::Connect(error)) => {
            assert!(!error.to_string().contains("protocol version"), "{error}");
            error.kind
        }
        Err(other) => panic!("{url}: expected a connect error, got {other}"),
        Ok(_) => panic!("{url}: connected"),
    }
}

#[tokio::test]
async fn a_closed_port_is_a_refused_connection() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let kind = connect_error(&format!("http://127.0.0.1:{port}/mcp")).await;
    assert_eq!(kind, ConnectErrorKind::Refused);
}

#[tokio::test]
async fn an_unknown_host_is_a_dns_failure() {
    let kind = connect_error("http://nonexistent.invalid/mcp").await;
    assert!(matches!(kind, ConnectErrorKind::Dns(_)), "{kind:?}");
}

#[tokio::test]
async fn other_schemes_are_refused_up_front() {
    let kind = connect_error("ftp://127.0.0.1/mcp").await;
    assert!(
        matches!(kind, ConnectErrorKind::UnsupportedUrl(_)),
        "{kind:?}"
    );
}
