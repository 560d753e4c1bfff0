//! Which servers an `https://` connection trusts: the platform's root
//! certificates plus those named by `SSL_CERT_FILE` (a PEM bundle) and
//! `SSL_CERT_DIR` (directories of PEM files, `:`-separated), for corporate
//! and test CAs. There is no way to accept any certificate.

use std::sync::Arc;

use rustls::{ClientConfig, RootCertStore};

/// A client configuration with the trusted roots, loaded now.
pub(crate) fn client_config() -> Result<ClientConfig, String> {
    let roots = roots()?;
    Ok(with_roots(roots))
}

/// A configuration for a connector that only ever dials `http://`.
pub(crate) fn plain_config() -> ClientConfig {
    with_roots(RootCertStore::empty())
}

fn with_roots(roots: RootCertStore) -> ClientConfig {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports the default protocol versions")
        .with_root_certificates(roots)
        .with_no_client_auth()
}

fn roots() -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    // With SSL_CERT_FILE or SSL_CERT_DIR set, this reads only those.
    let loaded = rustls_native_certs::load_native_certs();
    for error in &loaded.errors {
        tracing::warn!(%error, "a trusted certificate location could not be read");
    }
    roots.add_parsable_certificates(loaded.certs);
    let from_env = ["SSL_CERT_FILE", "SSL_CERT_DIR"]
        .iter()
        .any(|var| std::env::var_os(var).is_some_and(|v| !v.is_empty()));
    if from_env {
        add_platform_dirs(&mut roots);
    }
    if roots.is_empty() {
        return Err(
            "no trusted root certificates were found (install the system's CA \
                    certificates or point SSL_CERT_FILE at a PEM bundle)"
                .to_owned(),
        );
    }
    Ok(roots)
}

/// The platform's certificate directories, which the environment variables
/// would otherwise replace (Unix; elsewhere the variables do replace the
/// platform store).
#[cfg(all(unix, not(target_os = "macos")))]
fn add_platform_dirs(roots: &mut RootCertStore) {
    for dir in openssl_probe::candidate_cert_dirs() {
        let loaded = rustls_native_certs::load_certs_from_paths(None, Some(dir));
        roots.add_parsable_certificates(loaded.certs);
    }
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
fn add_platform_dirs(_: &mut RootCertStore) {}
