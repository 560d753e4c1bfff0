//! Modern-era multi-round-trip input: `InputRequiredResult`, input requests and responses.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::serde_util::{bad_tag, from_object, object, str_member, to_json_via_bytes};
use super::{
    CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, JsonObject,
    ListRootsRequest, ListRootsResult, Meta, ResultType,
};

/// A request the server needs the client to fulfil, discriminated by `method`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum InputRequest {
    /// `sampling/createMessage`.
    CreateMessage(CreateMessageRequest),
    /// `roots/list`.
    ListRoots(ListRootsRequest),
    /// `elicitation/create`.
    Elicit(ElicitRequest),
}

impl<'de> Deserialize<'de> for InputRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let obj = object(deserializer)?;
        match str_member(&obj, "method") {
            Some("sampling/createMessage") => from_object(obj).map(Self::CreateMessage),
            Some("roots/list") => from_object(obj).map(Self::ListRoots),
            Some("elicitation/create") => from_object(obj).map(Self::Elicit),
            other => Err(bad_tag("input request", "method", other)),
        }
    }
}

impl InputRequest {
    /// Reads `response` as the answer to this question: an elicitation
    /// result, a sampling result or a roots list, as the question asked.
    pub fn read_response(&self, response: &Value) -> Result<InputResponse, serde_json::Error> {
        self.response_reader()(response)
    }

    /// [`read_response`](Self::read_response) for this kind of question, as
    /// a function that outlives it.
    pub(crate) fn response_reader(&self) -> ReadResponse {
        match self {
            InputRequest::CreateMessage(_) => |r| read(r).map(InputResponse::CreateMessage),
            InputRequest::ListRoots(_) => |r| read(r).map(InputResponse::ListRoots),
            InputRequest::Elicit(_) => |r| read(r).map(InputResponse::Elicit),
        }
    }
}

/// Reads an answer as one kind of question asked.
pub(crate) type ReadResponse = fn(&Value) -> Result<InputResponse, serde_json::Error>;

/// An answer is an object; read from the map itself, not the `Value`
/// (which would compile serde's struct-from-array reader per type).
fn read<T: DeserializeOwned>(response: &Value) -> Result<T, serde_json::Error> {
    match response {
        Value::Object(object) => T::deserialize(object),
        _ => Err(serde::de::Error::custom(
            "an input response must be an object",
        )),
    }
}

/// The client's answer to an [`InputRequest`].
///
/// The schema gives no discriminator: read one with
/// [`InputRequest::read_response`] when the question is known. Read alone, a
/// response with `action` is an elicitation result, one with `roots` a roots
/// list, anything else a sampling result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum InputResponse {
    /// Answer to `sampling/createMessage`.
    CreateMessage(CreateMessageResult),
    /// Answer to `roots/list`.
    ListRoots(ListRootsResult),
    /// Answer to `elicitation/create`.
    Elicit(ElicitResult),
}

impl<'de> Deserialize<'de> for InputResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let obj = object(deserializer)?;
        if obj.contains_key("action") {
            from_object(obj).map(Self::Elicit)
        } else if obj.contains_key("roots") {
            from_object(obj).map(Self::ListRoots)
        } else {
            from_object(obj).map(Self::CreateMessage)
        }
    }
}

/// Input requests keyed by a server-chosen name.
pub type InputRequests = BTreeMap<String, InputRequest>;

/// The client's answers, keyed like the [`InputRequests`] they answer.
///
/// Kept as the JSON the client sent: an answer says nothing of its own type,
/// so the server reads one as the result the question asked for, when its
/// handler asks that question again ([`InputRequest::read_response`]), and
/// never reads an answer to a question it did not ask. A server that asks
/// nothing compiles none of the readers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct InputResponses(JsonObject);

impl InputResponses {
    /// No answers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers the question `key` with `response`.
    pub fn insert(&mut self, key: impl Into<String>, response: InputResponse) {
        // Plain structs with string keys: nothing in them fails to write.
        // Through bytes, the writer the client sends them with: `to_value`
        // would compile a second one.
        let response = to_json_via_bytes(&response).expect("an input response serializes");
        self.0.insert(key.into(), response);
    }

    /// The answer to the question `key`, as the client sent it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    /// Takes the answer to the question `key` out, as the client sent it.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.0.remove(key)
    }

    /// Whether the question `key` is answered.
    pub fn contains_key(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }

    /// The answers, keyed, as the client sent them.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter()
    }

    /// The keys of the questions answered.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.keys()
    }

    /// How many questions are answered.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no question is answered.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The answers as a JSON object, keyed like the questions.
    pub fn into_object(self) -> JsonObject {
        self.0
    }
}

impl From<JsonObject> for InputResponses {
    fn from(answers: JsonObject) -> Self {
        InputResponses(answers)
    }
}

impl<const N: usize> From<[(String, InputResponse); N]> for InputResponses {
    fn from(answers: [(String, InputResponse); N]) -> Self {
        answers.into_iter().collect()
    }
}

impl FromIterator<(String, InputResponse)> for InputResponses {
    fn from_iter<I: IntoIterator<Item = (String, InputResponse)>>(answers: I) -> Self {
        let mut responses = InputResponses::new();
        for (key, response) in answers {
            responses.insert(key, response);
        }
        responses
    }
}

/// A result telling the client that more input is needed before the request can complete;
/// the client retries the original request with `inputResponses` and `requestState`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequiredResult {
    /// Always [`ResultType::InputRequired`].
    pub result_type: ResultType,
    /// Requests for the client to fulfil, keyed by name, as JSON (read
    /// them as [`InputRequests`]): the server writes each question when its
    /// handler asks it, so a server that asks nothing compiles no writer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<JsonObject>,
    /// Opaque state to echo back on retry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl InputRequiredResult {
    /// An `input_required` result asking `input_requests`, with the
    /// `request_state` the retry must bring back.
    pub fn new(input_requests: JsonObject, request_state: String) -> Self {
        InputRequiredResult {
            result_type: ResultType::InputRequired,
            input_requests: Some(input_requests),
            request_state: Some(request_state),
            meta: None,
        }
    }
}

impl Default for InputRequiredResult {
    fn default() -> Self {
        Self {
            result_type: ResultType::InputRequired,
            input_requests: None,
            request_state: None,
            meta: None,
        }
    }
}

/// Parameters carrying only input responses (schema `InputResponseRequestParams`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputResponseRequestParams {
    /// Answers to a previous `InputRequiredResult`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// Opaque state echoed from a previous `InputRequiredResult`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A result that is either the final `T` or an [`InputRequiredResult`],
/// discriminated by `resultType`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ResultOrInputRequired<T> {
    /// More input is needed (`"resultType": "input_required"`).
    InputRequired(InputRequiredResult),
    /// The final result.
    Complete(T),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for ResultOrInputRequired<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let obj = object(deserializer)?;
        if str_member(&obj, "resultType") == Some("input_required") {
            from_object(obj).map(Self::InputRequired)
        } else {
            from_object(obj).map(Self::Complete)
        }
    }
}

impl<T> From<InputRequiredResult> for ResultOrInputRequired<T> {
    fn from(value: InputRequiredResult) -> Self {
        Self::InputRequired(value)
    }
}
