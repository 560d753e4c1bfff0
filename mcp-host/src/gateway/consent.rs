//! Consent through the gateway: `--yes`, or the gateway's own client asked
//! with an elicitation form, or a refusal when there is no one to ask (the
//! client cannot answer forms, or it came over HTTP and nobody
//! authenticated it).

use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

use mcp_toolkit_runtime::protocol::{
    BooleanSchema, ElicitAction, ElicitRequestFormParams, ElicitRequestParams, ElicitValue,
    PrimitiveSchemaDefinition, RequestedSchema,
};
use mcp_toolkit_runtime::server::{InputError, RequestContext};

use super::{ConsentCallers, GatewayConsent};
use crate::policy::{Consent, ConsentRequest};
use crate::sync::lock;

/// The form's one field: whether to allow the call.
const ALLOW: &str = "allow";

/// What became of asking, for the message of a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Asked {
    /// The client did not declare elicitation.
    NoOneToAsk,
    /// The client came over HTTP without a verified access token, to a
    /// gateway that asks only authenticated callers.
    Unauthenticated,
    /// 2026-07-28: the question went back to the client; the call ends
    /// with `input_required` and runs again with the answer.
    Waiting,
    /// The user said no, or dismissed the form.
    Declined,
    /// The question failed.
    Failed(String),
}

/// Consent for one call through the gateway.
pub(super) struct ClientConsent {
    mode: GatewayConsent,
    callers: ConsentCallers,
    context: RequestContext,
    asked: Mutex<Option<Asked>>,
}

impl ClientConsent {
    /// Consent in `mode`, asking `callers`, for the call whose request is
    /// `context`.
    pub(super) fn new(
        mode: GatewayConsent,
        callers: ConsentCallers,
        context: RequestContext,
    ) -> Self {
        ClientConsent {
            mode,
            callers,
            context,
            asked: Mutex::new(None),
        }
    }

    /// Why consent was not given, once it was not.
    pub(super) fn refusal(&self) -> Option<Asked> {
        lock(&self.asked).clone()
    }

    async fn ask(&self, request: &ConsentRequest) -> Result<(), Asked> {
        if !may_ask(
            self.callers,
            self.context.http_headers().is_some(),
            self.context.principal().is_some(),
        ) {
            return Err(Asked::Unauthenticated);
        }
        if self.context.client().capabilities.elicitation.is_none() {
            return Err(Asked::NoOneToAsk);
        }
        let answer = match self.context.elicit(question(request)).await {
            Ok(answer) => answer,
            Err(InputError::Pending) => return Err(Asked::Waiting),
            Err(error) => return Err(Asked::Failed(error.to_string())),
        };
        let allowed = answer.action == ElicitAction::Accept
            && !matches!(
                answer.content.as_ref().and_then(|c| c.get(ALLOW)),
                Some(ElicitValue::Boolean(false))
            );
        if allowed {
            Ok(())
        } else {
            Err(Asked::Declined)
        }
    }
}

impl Consent for ClientConsent {
    fn confirm<'a>(
        &'a self,
        request: &'a ConsentRequest,
    ) -> Pin<Box<dyn Future<Output = bool> + Send + 'a>> {
        Box::pin(async move {
            if self.mode == GatewayConsent::AllowAll {
                return true;
            }
            match self.ask(request).await {
                Ok(()) => true,
                Err(asked) => {
                    *lock(&self.asked) = Some(asked);
                    false
                }
            }
        })
    }
}

/// Whether a caller may be asked: over stdio always (it started the
/// gateway), over HTTP when its token was verified or every caller is
/// local.
fn may_ask(callers: ConsentCallers, over_http: bool, authenticated: bool) -> bool {
    !over_http || authenticated || callers == ConsentCallers::Local
}

/// The form the user sees: what would be called, why it needs consent,
/// with which arguments, and one checkbox.
fn question(request: &ConsentRequest) -> ElicitRequestParams {
    let message = format!(
        "Allow {}.{}? It may have side effects: {}.\nArguments: {}",
        request.server, request.tool, request.reason, request.arguments
    );
    let allow = BooleanSchema {
        title: Some("Allow this call".to_owned()),
        description: None,
        default: Some(true),
    };
    ElicitRequestParams::Form(ElicitRequestFormParams {
        message,
        requested_schema: RequestedSchema {
            schema: None,
            properties: [(ALLOW.to_owned(), PrimitiveSchemaDefinition::Boolean(allow))].into(),
            required: Some(vec![ALLOW.to_owned()]),
        },
        ..ElicitRequestFormParams::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_form_names_the_tool_the_reason_and_the_arguments() {
        let request = ConsentRequest {
            server: "fs".into(),
            tool: "write_file".into(),
            reason: "it is marked destructive".into(),
            arguments: json!({"path": "/tmp/x"}),
        };
        let ElicitRequestParams::Form(form) = question(&request) else {
            panic!("a form");
        };
        assert!(form.message.starts_with("Allow fs.write_file? "));
        assert!(form.message.contains("it is marked destructive"));
        assert!(form.message.contains(r#"{"path":"/tmp/x"}"#));
        assert!(form.requested_schema.properties.contains_key(ALLOW));
    }

    #[test]
    fn an_unauthenticated_http_caller_is_asked_only_on_a_local_gateway() {
        use ConsentCallers::{Authenticated, Local};
        assert!(!may_ask(Authenticated, true, false));
        assert!(may_ask(Authenticated, true, true));
        assert!(may_ask(Authenticated, false, false), "stdio");
        assert!(may_ask(Local, true, false));
    }
}
