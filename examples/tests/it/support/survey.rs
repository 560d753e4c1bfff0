//! A client side for `interop-server`'s `survey` tool: an input handler that
//! answers its questions and remembers them, and client options to use it.

use std::sync::{Arc, Mutex};

use mcp_toolkit_runtime::client::{ClientError, ConnectOptions, EraChoice, InputHandler};
use mcp_toolkit_runtime::protocol::{
    ClientCapabilities, ElicitRequestParams, InputRequest, InputRequests, InputResponse,
    InputResponses,
};
use mcp_toolkit_runtime::server::BoxFuture;
use serde_json::json;

/// The answer `survey` gives for [`SurveyAnswers`].
pub const EXPECTED: &str = "Ada likes teal";

/// Answers "Ada" to the name question and "teal" to the colour question;
/// records every question's message (`[INSTANCE] ...`).
#[derive(Clone, Default)]
pub struct SurveyAnswers {
    /// The messages of the questions asked, in order.
    pub asked: Arc<Mutex<Vec<String>>>,
}

impl SurveyAnswers {
    /// The messages asked so far.
    pub fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }

    /// Client options that declare elicitation and answer through `self`.
    pub fn options(&self, era: EraChoice) -> ConnectOptions {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {}})).unwrap();
        ConnectOptions {
            era,
            capabilities,
            input_handler: Some(Arc::new(self.clone())),
            ..ConnectOptions::default()
        }
    }
}

impl InputHandler for SurveyAnswers {
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>> {
        let mut responses = InputResponses::new();
        for (key, request) in requests {
            let InputRequest::Elicit(elicit) = request else {
                panic!("survey only elicits, got {request:?}");
            };
            let ElicitRequestParams::Form(form) = elicit.params else {
                panic!("survey asks with forms");
            };
            let (field, value) = if form.message.ends_with("What is your name?") {
                ("name", "Ada")
            } else {
                ("colour", "teal")
            };
            self.asked.lock().unwrap().push(form.message);
            let response: InputResponse =
                serde_json::from_value(json!({"action": "accept", "content": {field: value}}))
                    .unwrap();
            responses.insert(key, response);
        }
        Box::pin(async move { Ok(responses) })
    }
}
