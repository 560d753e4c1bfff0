//! Requests a legacy server sends its client (ping, elicitation, sampling,
//! roots), answered through the client's [`InputHandler`].

use std::collections::BTreeMap;

use super::InputHandler;
use crate::jsonrpc::{ErrorObject, Request, error_frame, result_frame};
use crate::protocol::{InputRequest, Method};

/// Answers `ping`, and elicitation, sampling and roots requests through the
/// input handler; anything else is -32601.
pub(crate) async fn answer(request: Request, answers: Option<&dyn InputHandler>) -> Vec<u8> {
    let Request { id, method, params } = request;
    if Method::parse(&method) == Some(Method::Ping) {
        return result_frame(&id, &serde_json::json!({}));
    }
    let params = params.unwrap_or_else(|| serde_json::json!({}));
    let envelope = serde_json::json!({ "method": method, "params": params });
    let question = serde_json::from_value::<InputRequest>(envelope);
    let (Some(handler), Ok(question)) = (answers, question) else {
        return error_frame(Some(&id), &ErrorObject::method_not_found(&method));
    };
    let key = "request".to_owned();
    match handler
        .respond(BTreeMap::from([(key.clone(), question)]))
        .await
    {
        Ok(mut responses) => match responses.remove(&key) {
            Some(answer) => result_frame(&id, &answer),
            None => error_frame(
                Some(&id),
                &ErrorObject::internal("the input handler gave no answer"),
            ),
        },
        Err(error) => error_frame(Some(&id), &ErrorObject::internal(error)),
    }
}
