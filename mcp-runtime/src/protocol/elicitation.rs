//! Elicitation: the server asks the user for information via the client (`elicitation/create`).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::serde_util::{bad_tag, from_object, object, str_member};
use super::{JsonRpcVersion, Meta, RequestedSchema, TaskMetadata};

/// Elicitation mode of form parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitMode {
    /// In-band form (the default when `mode` is absent).
    Form,
    /// Out-of-band URL.
    Url,
}

/// Parameters of a form-mode elicitation (non-sensitive data collected in the client).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitRequestFormParams {
    /// The mode; `form` or absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<ElicitMode>,
    /// What is being requested and why.
    pub message: String,
    /// The form to present.
    pub requested_schema: RequestedSchema,
    /// Run as a task (legacy era).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// Request metadata (legacy era).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Parameters of a URL-mode elicitation (`"mode": "url"`): the user is sent to a URL.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "mode", rename = "url", rename_all = "camelCase")]
pub struct ElicitRequestUrlParams {
    /// What is being requested and why.
    pub message: String,
    /// The URL the user should navigate to.
    pub url: String,
    /// Id of the elicitation (legacy era, required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation_id: Option<String>,
    /// Run as a task (legacy era).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// Request metadata (legacy era).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Parameters of `elicitation/create`, discriminated by `mode` (absent means form).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ElicitRequestParams {
    /// Form mode.
    Form(ElicitRequestFormParams),
    /// URL mode.
    Url(ElicitRequestUrlParams),
}

impl<'de> Deserialize<'de> for ElicitRequestParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let obj = object(deserializer)?;
        match obj.get("mode") {
            None => from_object(obj).map(Self::Form),
            Some(_) => match str_member(&obj, "mode") {
                Some("form") => from_object(obj).map(Self::Form),
                Some("url") => from_object(obj).map(Self::Url),
                other => Err(bad_tag("elicitation request", "mode", other)),
            },
        }
    }
}

/// An `elicitation/create` request.
///
/// Embedded as `{method, params}` in the modern era; a full JSON-RPC request in the
/// legacy era, hence the optional `jsonrpc` and `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "method",
    rename = "elicitation/create",
    rename_all = "camelCase"
)]
pub struct ElicitRequest {
    /// JSON-RPC version (legacy era only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jsonrpc: Option<JsonRpcVersion>,
    /// Request id (legacy era only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    /// The parameters.
    pub params: ElicitRequestParams,
}

/// The user's response to an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// The user submitted the form / consented.
    Accept,
    /// The user explicitly declined.
    Decline,
    /// The user dismissed without choosing.
    Cancel,
}

/// A submitted form value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ElicitValue {
    /// A string.
    String(String),
    /// A boolean.
    Boolean(bool),
    /// An integer.
    Integer(i64),
    /// A non-integral number (outside the schema's `integer`, accepted for robustness).
    Number(f64),
    /// The selections of a multi-select field.
    StringArray(Vec<String>),
}

/// Result of `elicitation/create`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted values (form mode, `accept` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<BTreeMap<String, ElicitValue>>,
    /// Result metadata (legacy era).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}
