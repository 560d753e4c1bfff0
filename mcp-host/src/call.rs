//! One tool call through the host: policy, argument validation, consent,
//! a timeout that progress extends under an absolute cap (the call is
//! cancelled on the wire when it runs out), output validation, and an
//! audit record whatever happens.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectErrorKind};
use mcp_toolkit_runtime::lifetime::bounded;
use mcp_toolkit_runtime::protocol::{CallToolResult, ProgressNotificationParams};
use serde_json::Value;

use crate::audit::{AuditRecord, Decision, argument_digest, trace};
use crate::error::HostError;
use crate::host::Host;
use crate::policy::{Consent, ConsentRequest};
use crate::state::ServerState;
use crate::sync::lock;

/// How one call is bounded and who consents.
pub struct CallOptions<'a> {
    /// The longest wait without news: each progress notification starts it
    /// again (default 60 s).
    pub timeout: Duration,
    /// The longest wait in all, progress or not (default 10 minutes).
    pub max_timeout: Duration,
    /// Asked before a call with possible side effects.
    pub consent: &'a dyn Consent,
    /// Receives each progress notification the server sends for the call
    /// (default none); the gateway passes them on to its own client.
    pub on_progress: Option<&'a (dyn Fn(&ProgressNotificationParams) + Send + Sync)>,
}

impl<'a> CallOptions<'a> {
    /// Default bounds with `consent`.
    pub fn new(consent: &'a dyn Consent) -> Self {
        CallOptions {
            timeout: Duration::from_secs(60),
            max_timeout: Duration::from_secs(600),
            consent,
            on_progress: None,
        }
    }
}

/// A tool's result with its provenance: the text in it is the server's,
/// untrusted data, never instructions.
#[derive(Debug, Clone)]
pub struct CallOutcome {
    /// The server that produced it.
    pub server: String,
    /// The tool.
    pub tool: String,
    /// What the server returned (`is_error` set when the tool failed).
    pub result: CallToolResult,
}

impl Host {
    /// Calls `SERVER.TOOL` with `arguments` (a JSON object).
    pub async fn call(
        &self,
        qualified: &str,
        arguments: Value,
        options: &CallOptions<'_>,
    ) -> Result<CallOutcome, HostError> {
        let started = Instant::now();
        let unknown = || HostError::UnknownTool(qualified.to_owned());
        let (server, tool_name) = qualified.split_once('.').ok_or_else(unknown)?;
        let slot = self.servers.get(server).ok_or_else(unknown)?;
        slot.refresh_if_stale().await;
        let mut state = slot.current();
        let (client, listed) = match &*state {
            ServerState::Ready { client, tools, .. } => {
                let listed = tools
                    .iter()
                    .find(|listed| listed.tool.name == tool_name)
                    .ok_or_else(unknown)?;
                (client.clone(), listed.clone())
            }
            ServerState::Failed(why) => {
                return Err(HostError::Unavailable {
                    server: server.to_owned(),
                    why: why.clone(),
                });
            }
        };
        let tool = &listed.tool;
        let audit = |decision: Decision, outcome: &str| {
            let record = AuditRecord {
                server: server.to_owned(),
                tool: tool_name.to_owned(),
                argument_digest: argument_digest(&self.audit_key, &arguments),
                decision,
                outcome: outcome.to_owned(),
                duration: started.elapsed(),
            };
            trace(&record);
            for sink in &self.audit {
                sink.record(&record);
            }
        };

        if let Some(why) = self.policy.refusal(server, tool_name) {
            audit(Decision::Denied, &why);
            return Err(HostError::Refused {
                tool: qualified.to_owned(),
                why,
            });
        }
        // Compiled when the tools were listed: a tool whose schemas do not
        // compile is not called, since nothing it takes or returns could be
        // checked.
        let schemas = listed.schemas().map_err(|why| HostError::Unavailable {
            server: server.to_owned(),
            why: why.to_owned(),
        })?;
        if let Err(detail) = schemas.check_arguments(&arguments) {
            audit(Decision::Invalid, &detail);
            return Err(HostError::InvalidArguments {
                tool: qualified.to_owned(),
                detail,
            });
        }
        if let Some(reason) = self.policy.consent_reason(server, tool) {
            let request = ConsentRequest {
                server: server.to_owned(),
                tool: tool_name.to_owned(),
                reason: reason.clone(),
                arguments: arguments.clone(),
            };
            if !options.consent.confirm(&request).await {
                audit(Decision::NotConfirmed, &reason);
                return Err(HostError::Refused {
                    tool: qualified.to_owned(),
                    why: format!("not confirmed ({reason})"),
                });
            }
        }

        // Wait for a turn, within the call's own bounds.
        let turn =
            tokio::time::timeout(options.max_timeout, slot.in_flight.clone().acquire_owned());
        let Ok(Ok(_turn)) = turn.await else {
            audit(Decision::Allowed, "timeout waiting for a turn");
            return Err(HostError::Timeout {
                tool: qualified.to_owned(),
                after: started.elapsed(),
            });
        };
        let may_retry = self.policy.may_retry(server, tool);
        let mut client = client;
        let mut retries = 0;
        let outcome = loop {
            let outcome = bounded_call(&client, tool_name, &arguments, options, started).await;
            let Some(Err(error)) = &outcome else {
                break outcome;
            };
            if is_gone(error) {
                // A stdio server that went away is restarted (with backoff)
                // for this call's retry, or for the next call.
                match slot.restart(&state, started + options.max_timeout).await {
                    Ok(restarted) => {
                        state = restarted;
                        if let ServerState::Ready { client: fresh, .. } = &*state {
                            client = fresh.clone();
                        }
                    }
                    Err(why) => tracing::warn!(%server, reason = %why, "not restarted"),
                }
            }
            let retry = retries < MAX_RETRIES
                && (not_sent(error) || (may_retry && is_transport_failure(error)));
            if !retry {
                break outcome;
            }
            retries += 1;
            tracing::info!(%server, tool = %tool_name, retries, "retrying after a transport failure");
            tokio::time::sleep(backoff(retries)).await;
        };
        let result = match outcome {
            None => {
                audit(Decision::Allowed, "timeout");
                return Err(HostError::Timeout {
                    tool: qualified.to_owned(),
                    after: started.elapsed(),
                });
            }
            Some(Err(error)) => {
                audit(Decision::Allowed, &error.to_string());
                return Err(HostError::Unavailable {
                    server: server.to_owned(),
                    why: format!("{tool_name}: {error}"),
                });
            }
            Some(Ok(result)) => result,
        };
        if let Err(detail) = schemas.check_output(&result) {
            audit(Decision::Allowed, "output schema violated");
            return Err(HostError::Unavailable {
                server: server.to_owned(),
                why: format!("{tool_name} broke its own output schema: {detail}"),
            });
        }
        let outcome = if result.is_error.unwrap_or(false) {
            "tool error"
        } else {
            "ok"
        };
        audit(Decision::Allowed, outcome);
        Ok(CallOutcome {
            server: server.to_owned(),
            tool: tool_name.to_owned(),
            result,
        })
    }
}

/// Retries after transport failures, at most.
const MAX_RETRIES: u32 = 2;

/// One attempt, bounded: `None` when it ran out of time (the call is then
/// dropped, which cancels it on the wire).
async fn bounded_call(
    client: &Client,
    tool: &str,
    arguments: &Value,
    options: &CallOptions<'_>,
    started: Instant,
) -> Option<Result<CallToolResult, ClientError>> {
    let last_news = Arc::new(Mutex::new(Instant::now()));
    let news = last_news.clone();
    let on_progress = options.on_progress;
    let call = client.call_tool_with_progress(tool, arguments, move |progress| {
        *lock(&news) = Instant::now();
        if let Some(forward) = on_progress {
            forward(&progress);
        }
    });
    // On the heap: the client's call is a large future, and the host's own
    // (restart, retry, consent) nest around it.
    let mut call = Box::pin(call);
    // Bounded: `Instant + Duration` panics past the clock's range.
    let cap = started + bounded(options.max_timeout);
    let deadline = || {
        let quiet_until = *lock(&last_news) + bounded(options.timeout);
        quiet_until.min(cap)
    };
    loop {
        tokio::select! {
            outcome = &mut call => return Some(outcome),
            // Progress may have moved the deadline meanwhile.
            () = tokio::time::sleep_until(deadline().into()) => {
                if Instant::now() >= deadline() {
                    return None;
                }
            }
        }
    }
}

/// A failure to connect: the request never left, so any tool may be tried
/// again.
fn not_sent(error: &ClientError) -> bool {
    matches!(
        error,
        ClientError::Connect(e) if matches!(e.kind, ConnectErrorKind::Refused | ConnectErrorKind::Dns(_))
    )
}

/// The server went away: its connection closed.
fn is_gone(error: &ClientError) -> bool {
    matches!(error, ClientError::Closed | ClientError::Disconnected(_))
}

/// The connection failed or closed while the request was out: it may or
/// may not have run.
fn is_transport_failure(error: &ClientError) -> bool {
    matches!(
        error,
        ClientError::Connect(_)
            | ClientError::Closed
            | ClientError::Disconnected(_)
            | ClientError::Io(_)
    )
}

/// 100 ms, 200 ms, ... with up to 50 ms of jitter, so that clients that
/// failed together do not retry together.
fn backoff(retry: u32) -> Duration {
    let jitter = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() % 50);
    Duration::from_millis(100 * 2u64.pow(retry.saturating_sub(1)) + u64::from(jitter))
}

#[cfg(test)]
mod tests {
    use mcp_toolkit_runtime::client::ConnectOptions;
    use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
    use serde_json::json;

    use super::*;
    use crate::policy::AlwaysAllow;

    #[tokio::test]
    async fn timeouts_past_a_year_run_out_after_a_year_instead_of_panicking() {
        let hello = ToolDef::new("hello", |_call: ToolCall| async {
            Ok(CallToolResult::text("hi"))
        });
        let server = Server::builder(mcp_toolkit_runtime::server_info!())
            .tool(hello)
            .build()
            .unwrap();
        let client = Client::connect_in_memory(server, ConnectOptions::default())
            .await
            .unwrap();
        let options = CallOptions {
            timeout: Duration::MAX,
            max_timeout: Duration::MAX,
            ..CallOptions::new(&AlwaysAllow)
        };
        let outcome = bounded_call(&client, "hello", &json!({}), &options, Instant::now()).await;
        let result = outcome.expect("in time").expect("answered");
        assert_eq!(result.content[0].as_text(), Some("hi"));
    }
}
