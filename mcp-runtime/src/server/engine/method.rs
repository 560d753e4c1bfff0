//! The request methods the server knows, parsed once from the wire name.

use crate::protocol::methods as names;

/// A request method the server knows; any other is answered with -32601.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    /// `initialize` (legacy).
    Initialize,
    /// `ping` (legacy).
    Ping,
    /// `logging/setLevel` (legacy).
    SetLogLevel,
    /// `resources/subscribe` (legacy).
    Subscribe,
    /// `resources/unsubscribe` (legacy).
    Unsubscribe,
    /// `server/discover` (2026-07-28).
    Discover,
    /// `subscriptions/listen` (2026-07-28).
    Listen,
    /// `tasks/get` (2026-07-28, tasks extension).
    TasksGet,
    /// `tasks/update` (2026-07-28, tasks extension).
    TasksUpdate,
    /// `tasks/cancel` (2026-07-28, tasks extension).
    TasksCancel,
    /// `tools/list`.
    ToolsList,
    /// `resources/list`.
    ResourcesList,
    /// `resources/templates/list`.
    TemplatesList,
    /// `prompts/list`.
    PromptsList,
    /// `tools/call`.
    CallTool,
    /// `resources/read`.
    ReadResource,
    /// `prompts/get`.
    GetPrompt,
    /// `completion/complete`.
    Complete,
    /// `skills/list` (Skills extension).
    SkillsList,
    /// `skills/get` (Skills extension).
    SkillsGet,
    /// `resources/directory/read` (Skills extension).
    ReadDirectory,
}

impl Method {
    /// The method named `name`, if the server knows it.
    pub(crate) fn parse(name: &str) -> Option<Method> {
        Some(match name {
            names::INITIALIZE => Method::Initialize,
            names::PING => Method::Ping,
            names::LOGGING_SET_LEVEL => Method::SetLogLevel,
            names::RESOURCES_SUBSCRIBE => Method::Subscribe,
            names::RESOURCES_UNSUBSCRIBE => Method::Unsubscribe,
            names::SERVER_DISCOVER => Method::Discover,
            names::SUBSCRIPTIONS_LISTEN => Method::Listen,
            names::TASKS_GET => Method::TasksGet,
            names::TASKS_UPDATE => Method::TasksUpdate,
            names::TASKS_CANCEL => Method::TasksCancel,
            names::TOOLS_LIST => Method::ToolsList,
            names::RESOURCES_LIST => Method::ResourcesList,
            names::RESOURCES_TEMPLATES_LIST => Method::TemplatesList,
            names::PROMPTS_LIST => Method::PromptsList,
            names::TOOLS_CALL => Method::CallTool,
            names::RESOURCES_READ => Method::ReadResource,
            names::PROMPTS_GET => Method::GetPrompt,
            names::COMPLETION_COMPLETE => Method::Complete,
            names::SKILLS_LIST => Method::SkillsList,
            names::SKILLS_GET => Method::SkillsGet,
            names::RESOURCES_DIRECTORY_READ => Method::ReadDirectory,
            _ => return None,
        })
    }

    /// The wire name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Method::Initialize => names::INITIALIZE,
            Method::Ping => names::PING,
            Method::SetLogLevel => names::LOGGING_SET_LEVEL,
            Method::Subscribe => names::RESOURCES_SUBSCRIBE,
            Method::Unsubscribe => names::RESOURCES_UNSUBSCRIBE,
            Method::Discover => names::SERVER_DISCOVER,
            Method::Listen => names::SUBSCRIPTIONS_LISTEN,
            Method::TasksGet => names::TASKS_GET,
            Method::TasksUpdate => names::TASKS_UPDATE,
            Method::TasksCancel => names::TASKS_CANCEL,
            Method::ToolsList => names::TOOLS_LIST,
            Method::ResourcesList => names::RESOURCES_LIST,
            Method::TemplatesList => names::RESOURCES_TEMPLATES_LIST,
            Method::PromptsList => names::PROMPTS_LIST,
            Method::CallTool => names::TOOLS_CALL,
            Method::ReadResource => names::RESOURCES_READ,
            Method::GetPrompt => names::PROMPTS_GET,
            Method::Complete => names::COMPLETION_COMPLETE,
            Method::SkillsList => names::SKILLS_LIST,
            Method::SkillsGet => names::SKILLS_GET,
            Method::ReadDirectory => names::RESOURCES_DIRECTORY_READ,
        }
    }
}

/// A request's method: known, or the name as received.
pub(crate) type Requested = Result<Method, String>;

/// The wire name of a requested method.
pub(crate) fn method_name(method: &Requested) -> &str {
    match method {
        Ok(method) => method.name(),
        Err(unknown) => unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_parses_back_from_its_name() {
        let methods = [
            Method::Initialize,
            Method::Ping,
            Method::SetLogLevel,
            Method::Subscribe,
            Method::Unsubscribe,
            Method::Discover,
            Method::Listen,
            Method::TasksGet,
            Method::TasksUpdate,
            Method::TasksCancel,
            Method::ToolsList,
            Method::ResourcesList,
            Method::TemplatesList,
            Method::PromptsList,
            Method::CallTool,
            Method::ReadResource,
            Method::GetPrompt,
            Method::Complete,
            Method::SkillsList,
            Method::SkillsGet,
            Method::ReadDirectory,
        ];
        for method in methods {
            assert_eq!(Method::parse(method.name()), Some(method));
        }
        assert_eq!(Method::parse("tools/unknown"), None);
    }
}
