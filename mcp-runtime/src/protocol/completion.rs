//! Argument completion (`completion/complete`).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use super::serde_util::{bad_tag, from_object, object, str_member};
use super::{Meta, ResultType};

/// Identifies a prompt (`"type": "ref/prompt"`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "ref/prompt", rename_all = "camelCase")]
pub struct PromptReference {
    /// Name of the prompt.
    pub name: String,
    /// Human-readable display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// Identifies a resource template (`"type": "ref/resource"`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "ref/resource", rename_all = "camelCase")]
pub struct ResourceTemplateReference {
    /// The URI template.
    pub uri: String,
}

/// What is being completed, discriminated by `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum CompletionReference {
    /// `"ref/prompt"`: an argument of a prompt.
    Prompt(PromptReference),
    /// `"ref/resource"`: a variable of a resource template.
    Resource(ResourceTemplateReference),
}

impl<'de> Deserialize<'de> for CompletionReference {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let obj = object(deserializer)?;
        match str_member(&obj, "type") {
            Some("ref/prompt") => from_object(obj).map(Self::Prompt),
            Some("ref/resource") => from_object(obj).map(Self::Resource),
            other => Err(bad_tag("completion reference", "type", other)),
        }
    }
}

/// The argument being completed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompletionArgument {
    /// Name of the argument.
    pub name: String,
    /// The value typed so far.
    pub value: String,
}

/// Additional context for a completion.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompletionContext {
    /// Already-resolved arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
}

/// Parameters of `completion/complete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompleteRequestParams {
    /// What is being completed.
    pub r#ref: CompletionReference,
    /// The argument being completed.
    pub argument: CompletionArgument,
    /// Additional context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Completion candidates.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    /// Candidate values (at most 100).
    pub values: Vec<String>,
    /// Total number of candidates, which may exceed `values.len()`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether more candidates exist beyond those returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

/// Result of `completion/complete`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompleteResult {
    /// The candidates.
    pub completion: Completion,
    /// Result kind (modern era).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}
