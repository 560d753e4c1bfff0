//! What can go wrong when calling a server.

use std::fmt;

use crate::jsonrpc::ErrorObject;
use crate::oauth::challenge::Challenge;
pub use crate::outbound::{ConnectError, ConnectErrorKind};
use crate::protocol::CallToolResult;

/// A request that did not produce a result.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The server could not be reached: TLS, DNS, a refused connection.
    Connect(ConnectError),
    /// The server refused the request's credentials (HTTP 401 or 403).
    Auth(AuthError),
    /// Getting a token failed: discovery, registration, the user's
    /// authorization or the token request (OAuth 2.1).
    Authorization(String),
    /// The server answered with a JSON-RPC error.
    Protocol(ErrorObject),
    /// Reading or writing the transport failed.
    Io(std::io::Error),
    /// The connection closed before the answer arrived.
    Closed,
    /// The server no longer knows the legacy HTTP session (404). The client
    /// starts a new one by itself and sends the request again, so this
    /// reaches callers only when that fails too.
    SessionExpired,
    /// No answer within the configured time.
    Timeout,
    /// No answer within the configured time, and the server's output says
    /// why: nothing at all, lines that are not JSON-RPC (with a sample),
    /// answers to ids nobody asked for, a message nested too deeply.
    Unanswered(String),
    /// The connection closed, and why: the server exited (with its status
    /// and the end of its stderr), or sent a message over the size limit.
    Disconnected(String),
    /// The server's answer did not have the expected shape.
    InvalidResponse(String),
    /// The arguments could not be encoded as a JSON object.
    InvalidArguments(String),
    /// Neither protocol era could be agreed on.
    Negotiation(String),
    /// The server needs input (elicitation, sampling, roots) and no input
    /// handler was configured.
    InputRequired,
    /// The client could not answer a server's question (elicitation,
    /// sampling, roots): no handler of [`InputHandlers`](super::InputHandlers)
    /// takes its kind, or the handler failed; says which.
    InputDeclined(String),
    /// The method does not exist in the era the server speaks (such as
    /// `resources/subscribe` in 2026-07-28); says what to use instead.
    NotInEra(String),
    /// The task (its id here) ended as `cancelled` before it had a result.
    TaskCancelled(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Connect(error) => error.fmt(f),
            ClientError::Auth(error) => error.fmt(f),
            ClientError::Authorization(why) => write!(f, "authorization failed: {why}"),
            ClientError::Protocol(error) => write!(f, "server error: {error}"),
            ClientError::Io(error) => write!(f, "transport error: {error}"),
            ClientError::Closed => f.write_str("the connection to the server closed"),
            ClientError::SessionExpired => {
                f.write_str("the server no longer knows this session (HTTP 404)")
            }
            ClientError::Timeout => f.write_str("the server did not answer in time"),
            ClientError::Unanswered(why) => write!(f, "the server did not answer in time: {why}"),
            ClientError::Disconnected(why) => {
                write!(f, "the connection to the server closed: {why}")
            }
            ClientError::InvalidResponse(detail) => {
                write!(f, "unexpected answer from the server: {detail}")
            }
            ClientError::InvalidArguments(detail) => {
                write!(f, "arguments are not a JSON object: {detail}")
            }
            ClientError::Negotiation(detail) => write!(f, "no common protocol version: {detail}"),
            ClientError::InputRequired => {
                f.write_str("the server asked for input but the client has no input handler")
            }
            ClientError::InputDeclined(why) => write!(f, "the client declined to answer: {why}"),
            ClientError::NotInEra(detail) => write!(f, "not in this protocol era: {detail}"),
            ClientError::TaskCancelled(id) => write!(f, "the task {id} was cancelled"),
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Protocol(error) => Some(error),
            ClientError::Io(error) => Some(error),
            ClientError::Connect(error) => Some(error),
            ClientError::Auth(error) => Some(error),
            _ => None,
        }
    }
}

impl ClientError {
    /// Whether the failure is about reaching or being let in by the server
    /// (TLS, DNS, refused, 401, 403), where trying another protocol era
    /// cannot help.
    pub fn is_access_failure(&self) -> bool {
        matches!(
            self,
            ClientError::Connect(_) | ClientError::Auth(_) | ClientError::Authorization(_)
        )
    }
}

/// An HTTP 401 or 403 from a server, with its `WWW-Authenticate` challenge.
#[derive(Debug, Clone)]
pub struct AuthError {
    /// 401 (no valid token) or 403 (the token lacks a scope).
    pub status: u16,
    /// The `Bearer` challenge, when the server sent a readable one.
    pub challenge: Option<Challenge>,
}

impl AuthError {
    /// The scopes the server asked for (`scope` in the challenge).
    pub fn scope(&self) -> Option<&str> {
        self.challenge.as_ref().and_then(Challenge::scope)
    }

    /// Where the server's protected-resource metadata is
    /// (`resource_metadata` in the challenge).
    pub fn resource_metadata(&self) -> Option<&str> {
        self.challenge
            .as_ref()
            .and_then(Challenge::resource_metadata)
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let challenge = self.challenge.as_ref();
        let description = challenge.and_then(|c| c.get("error_description"));
        match (self.status, self.scope()) {
            (403, Some(scope)) => write!(
                f,
                "the access token lacks a scope the server requires (HTTP 403 \
                 insufficient_scope; needed: {scope})"
            )?,
            (403, None) => f.write_str("the server refused the access token (HTTP 403)")?,
            (status, _) => write!(
                f,
                "the server requires authorization (HTTP {status}{})",
                challenge
                    .and_then(Challenge::error)
                    .map(|e| format!(" {e}"))
                    .unwrap_or_default()
            )?,
        }
        if let Some(description) = description {
            write!(f, ": {description}")?;
        }
        match challenge {
            Some(challenge) => write!(f, "; WWW-Authenticate: {challenge}"),
            None => f.write_str("; no readable Bearer challenge"),
        }
    }
}

impl std::error::Error for AuthError {}

impl From<std::io::Error> for ClientError {
    fn from(error: std::io::Error) -> Self {
        ClientError::Io(error)
    }
}

/// A typed tool call that did not produce its typed output.
#[derive(Debug)]
pub enum ToolCallError {
    /// The call itself failed (transport, or a JSON-RPC error such as an
    /// unknown tool).
    Client(ClientError),
    /// The tool ran and reported a failure (`isError: true`).
    Tool(CallToolResult),
    /// The tool's `structuredContent` is missing or does not match the
    /// expected output type.
    Output(String),
}

impl ToolCallError {
    /// The text of a tool failure, joined from its text blocks.
    pub fn tool_message(&self) -> Option<String> {
        match self {
            ToolCallError::Tool(result) => Some(
                result
                    .content
                    .iter()
                    .filter_map(|block| block.as_text())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            _ => None,
        }
    }
}

impl fmt::Display for ToolCallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolCallError::Client(error) => error.fmt(f),
            ToolCallError::Tool(_) => {
                write!(
                    f,
                    "the tool reported an error: {}",
                    self.tool_message().unwrap_or_default()
                )
            }
            ToolCallError::Output(detail) => write!(f, "unexpected tool output: {detail}"),
        }
    }
}

impl std::error::Error for ToolCallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ToolCallError::Client(error) => Some(error),
            _ => None,
        }
    }
}

impl From<ClientError> for ToolCallError {
    fn from(error: ClientError) -> Self {
        ToolCallError::Client(error)
    }
}

/// Tools whose schemas no longer match the ones a client was generated from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriftError {
    /// Tools the client expects that the server no longer lists.
    pub missing: Vec<String>,
    /// Tools whose schemas changed.
    pub changed: Vec<String>,
}

impl fmt::Display for DriftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the server's tools drifted from the generated client")?;
        if !self.missing.is_empty() {
            write!(f, "; missing: {}", self.missing.join(", "))?;
        }
        if !self.changed.is_empty() {
            write!(f, "; changed schemas: {}", self.changed.join(", "))?;
        }
        f.write_str(" (regenerate the client with mcp-codegen)")
    }
}

impl std::error::Error for DriftError {}
