//! `https://`: a real server behind TLS with a certificate from a throwaway
//! CA (rcgen). `mcp-codegen --url https://...` and the runtime's client
//! reach it when `SSL_CERT_FILE` names that CA, and fail with a clear
//! certificate error when it does not.
//!
//! The client trusts what the environment says, and a test may not change
//! its own environment, so the client half runs in a child process: this
//! test binary again, running `client_in_child` with the variables set.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use mcp_toolkit_runtime::client::{Client, ClientError, ConnectErrorKind};
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::{Server, ToolDef};
use mcp_toolkit_runtime::transport::http::{HttpConfig, McpService};
use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::PrivateKeyDer;

const CHILD_URL: &str = "MCP_HTTPS_TEST_URL";
const CHILD_EXPECT: &str = "MCP_HTTPS_TEST_EXPECT";

struct Pki {
    ca_pem: String,
    leaf_der: rustls::pki_types::CertificateDer<'static>,
    key_der: PrivateKeyDer<'static>,
}

fn pki(name: &str) -> Pki {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    ca.distinguished_name.push(rcgen::DnType::CommonName, name);
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let leaf_key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&leaf_key, &issuer)
        .unwrap();
    Pki {
        ca_pem: ca_cert.pem(),
        leaf_der: leaf.der().clone(),
        key_der: PrivateKeyDer::try_from(leaf_key.serialize_der()).unwrap(),
    }
}

fn server() -> Server {
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(ToolDef::new("ping", |_| async {
            Ok(CallToolResult::text("pong"))
        }))
        .build()
        .unwrap()
}

/// Serves `server()` over TLS on a free port; returns the endpoint URL.
async fn serve_tls(pki: &Pki) -> String {
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![pki.leaf_der.clone()], pki.key_der.clone_key())
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let service = McpService::new(server(), HttpConfig::default());
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, service) = (acceptor.clone(), service.clone());
            tokio::spawn(async move {
                // A client that refuses our certificate ends the handshake.
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let handler = service_fn(move |request| {
                    let service = service.clone();
                    async move { Ok::<_, std::convert::Infallible>(service.handle(request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(tls), handler)
                    .await;
            });
        }
    });
    format!("https://localhost:{port}/mcp")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-https-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread")]
async fn https_works_with_the_ca_in_ssl_cert_file_and_fails_clearly_without() {
    let pki = pki("mcp-toolkit test CA");
    let url = serve_tls(&pki).await;
    let dir = temp_dir();
    let ca = write(&dir, "ca.pem", &pki.ca_pem);
    // "Without": a bundle that holds some other CA only.
    let other = write(&dir, "other.pem", &self::pki("some other CA").ca_pem);
    // SSL_CERT_DIR empty, so that only the file (and the platform's own
    // roots) count.
    let env = |file: &Path| {
        [
            ("SSL_CERT_FILE", file.to_path_buf()),
            ("SSL_CERT_DIR", PathBuf::new()),
        ]
    };

    // mcp-codegen
    let codegen = |file: &Path| {
        let url = url.clone();
        let env = env(file);
        tokio::task::spawn_blocking(move || {
            Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
                .args(["generate", "--url", &url])
                .envs(env)
                .output()
                .unwrap()
        })
    };
    let trusted = codegen(&ca).await.unwrap();
    let stdout = String::from_utf8_lossy(&trusted.stdout);
    assert!(
        trusted.status.success() && stdout.contains("fn ping"),
        "{}",
        String::from_utf8_lossy(&trusted.stderr)
    );
    let refused = codegen(&other).await.unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(stderr.contains("TLS with https://localhost:"), "{stderr}");
    assert!(stderr.contains("UnknownIssuer"), "{stderr}");
    assert!(!stderr.contains("protocol version"), "{stderr}");

    // The runtime's client, in a child process with the variables set.
    for (file, expect) in [(&ca, "connects"), (&other, "unknown-issuer")] {
        let (url, env) = (url.clone(), env(file));
        let output = tokio::task::spawn_blocking(move || {
            Command::new(std::env::current_exe().unwrap())
                .args(["--exact", &child_test_name()])
                .args(["--nocapture", "--test-threads=1"])
                .envs(env)
                .env(CHILD_URL, url)
                .env(CHILD_EXPECT, expect)
                .output()
                .unwrap()
        })
        .await
        .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{expect}: {text}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(text.contains(&format!("child checked: {expect}")), "{text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `client_in_child`'s name as the test harness knows it: its module path
/// without the crate's name.
fn child_test_name() -> String {
    let module = module_path!().split_once("::").map_or("", |(_, rest)| rest);
    format!("{module}::client_in_child")
}

/// Run by the test above in a child process; does nothing on its own.
#[tokio::test]
async fn client_in_child() {
    let (Ok(url), Ok(expect)) = (std::env::var(CHILD_URL), std::env::var(CHILD_EXPECT)) else {
        return;
    };
    let outcome = Client::connect_http(&url).await;
    match (expect.as_str(), outcome) {
        ("connects", Ok(client)) => {
            let result = client
                .call_tool("ping", &serde_json::json!({}))
                .await
                .unwrap();
            assert_eq!(result.content[0].as_text(), Some("pong"));
        }
        ("unknown-issuer", Err(ClientError::Connect(error))) => {
            let ConnectErrorKind::Tls(why) = &error.kind else {
                panic!("expected a TLS error, got {error}");
            };
            assert!(why.contains("UnknownIssuer"), "{error}");
        }
        (expect, outcome) => panic!("expected {expect}, got {:?}", outcome.err()),
    }
    println!("child checked: {expect}");
}
