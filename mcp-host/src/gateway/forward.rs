//! One call through the gateway: the gateway's client calls `SERVER.TOOL`,
//! the host calls the server under its policy, and the result, or why there
//! is none, goes back as the tool's result.

use std::sync::Arc;

use mcp_toolkit_runtime::protocol::{CallToolResult, ProgressNotificationParams};
use mcp_toolkit_runtime::server::{BoxFuture, RequestContext, ToolCall, ToolError, ToolOutcome};
use serde_json::Value;
use tokio::sync::mpsc;

use super::GatewayOptions;
use super::consent::{Asked, ClientConsent};
use crate::call::CallOptions;
use crate::error::HostError;
use crate::host::Host;

/// The handler of the gateway's tool `name` (`SERVER.TOOL`).
pub(super) fn handler(
    host: Arc<Host>,
    options: Arc<GatewayOptions>,
    name: String,
) -> impl Fn(ToolCall) -> BoxFuture<ToolOutcome> + Send + Sync + 'static {
    let name: Arc<str> = name.into();
    move |call| Box::pin(forward(host.clone(), options.clone(), name.clone(), call))
}

/// Calls `name` through the host with the call's arguments, passing the
/// server's progress on to the gateway's client.
async fn forward(
    host: Arc<Host>,
    options: Arc<GatewayOptions>,
    name: Arc<str>,
    call: ToolCall,
) -> ToolOutcome {
    let context = call.context().clone();
    let arguments = Value::Object(call.arguments().clone());
    let consent = ClientConsent::new(options.consent, options.consent_callers, context.clone());
    let (progress, mut news) = mpsc::unbounded_channel();
    let on_progress = move |update: &ProgressNotificationParams| {
        let _ = progress.send(update.clone());
    };
    let call_options = CallOptions {
        timeout: options.timeout,
        max_timeout: options.max_timeout,
        consent: &consent,
        on_progress: Some(&on_progress),
    };
    let called = host.call(&name, arguments, &call_options);
    tokio::pin!(called);
    let outcome = loop {
        tokio::select! {
            outcome = &mut called => break outcome,
            Some(update) = news.recv() => pass_on(&context, update).await,
        }
    };
    while let Ok(update) = news.try_recv() {
        pass_on(&context, update).await;
    }
    match outcome {
        Ok(outcome) => Ok(as_served(outcome.result)),
        Err(error) => Err(ToolError::new(explain(&name, &error, consent.refusal()))),
    }
}

/// Sends the server's progress to the gateway's client, when it asked for
/// progress.
async fn pass_on(context: &RequestContext, update: ProgressNotificationParams) {
    context
        .report_progress(update.progress, update.total, update.message.as_deref())
        .await;
}

/// The server's result as the gateway returns it: its content, structured
/// content and error flag. The server's era markers and `_meta` stay
/// behind: the gateway's own era decides `resultType`.
fn as_served(mut result: CallToolResult) -> CallToolResult {
    result.result_type = None;
    result.meta = None;
    result
}

/// Why the call produced no result, for the model and the user.
fn explain(name: &str, error: &HostError, asked: Option<Asked>) -> String {
    match (error, asked) {
        (HostError::UnknownTool(_), _) => {
            format!("{name}: its server no longer offers this tool")
        }
        (HostError::Refused { .. }, Some(Asked::NoOneToAsk)) => format!(
            "{error}. The gateway has no one to ask: start it with `mcp-host serve --yes` to \
             allow tools that may have side effects, or call it from a client that supports \
             elicitation"
        ),
        (HostError::Refused { .. }, Some(Asked::Unauthenticated)) => format!(
            "{error}. The gateway asks for consent only a caller it authenticated: serve it \
             with authentication (`--auth-issuer` or `--bearer-env`), or with `--yes`"
        ),
        (HostError::Refused { .. }, Some(Asked::Declined)) => format!("{error}: the user declined"),
        (HostError::Refused { .. }, Some(Asked::Failed(why))) => {
            format!("{error}: asking the user failed: {why}")
        }
        // `Waiting` ends as `input_required`: this text is not sent.
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused() -> HostError {
        HostError::Refused {
            tool: "fs.write_file".into(),
            why: "not confirmed (it is marked destructive)".into(),
        }
    }

    #[test]
    fn a_refusal_says_what_would_allow_the_call() {
        let none = explain("fs.write_file", &refused(), Some(Asked::NoOneToAsk));
        assert!(
            none.starts_with("fs.write_file: refused: not confirmed"),
            "{none}"
        );
        assert!(
            none.contains("--yes") && none.contains("elicitation"),
            "{none}"
        );
        let declined = explain("fs.write_file", &refused(), Some(Asked::Declined));
        assert!(declined.ends_with("the user declined"), "{declined}");
        let gone = HostError::UnknownTool("fs.write_file".into());
        assert!(explain("fs.write_file", &gone, None).contains("no longer offers"));
    }

    #[test]
    fn the_servers_era_markers_stay_behind() {
        let mut result = CallToolResult::text("hi");
        result.result_type = Some(mcp_toolkit_runtime::protocol::ResultType::Complete);
        result.meta = Some(Default::default());
        let served = as_served(result);
        assert_eq!(served.result_type, None);
        assert_eq!(served.meta, None);
        assert_eq!(served.content[0].as_text(), Some("hi"));
    }
}
