//! Every MCP request method, in one table: its wire name, the eras that
//! define it, who answers it, the parameter its `Mcp-Name` header mirrors,
//! and whether the server answers it before its middleware.
//!
//! This is the one place to add a method. Adding a row here makes every
//! `match` over [`Method`] in the crate fail to compile until the new
//! method is handled: the server's router, its era rules, the client.

use std::fmt;
use std::str::FromStr;

use super::era::Era;
use super::methods as names;

/// Who answers a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answerer {
    /// Sent by the client, answered by the server.
    Server,
    /// Sent by the server, answered by the client (in 2026-07-28, carried
    /// in an `input_required` result rather than sent on its own).
    Client,
    /// Either side may send it (`ping`).
    Either,
}

/// Which eras define a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eras {
    /// 2024-11-05 through 2025-11-25 only.
    Legacy,
    /// 2026-07-28 only.
    Modern,
    /// Both.
    Both,
}

impl Eras {
    /// Whether `era` is one of these.
    pub fn contains(self, era: Era) -> bool {
        matches!(
            (self, era),
            (Eras::Both, _) | (Eras::Legacy, Era::Legacy) | (Eras::Modern, Era::Modern)
        )
    }
}

/// The rows of the table: variant, wire name, eras, answerer, the
/// parameter `Mcp-Name` mirrors, and whether middleware is bypassed.
macro_rules! methods {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $name:ident, $eras:ident, $answerer:ident, $target:expr, $bypass:expr;
    )*) => {
        /// An MCP request method. Parse a wire name with [`Method::parse`]
        /// (or `str::parse`); [`Method::name`] gives it back.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Method {
            $($(#[$doc])* $variant,)*
        }

        impl Method {
            /// Every method, in table order.
            pub const ALL: &'static [Method] = &[$(Method::$variant,)*];

            /// The method named `name`, if MCP defines it.
            pub fn parse(name: &str) -> Option<Method> {
                match name {
                    $(names::$name => Some(Method::$variant),)*
                    _ => None,
                }
            }

            /// The wire name (`tools/call`, `resources/read`, …).
            pub fn name(self) -> &'static str {
                match self {
                    $(Method::$variant => names::$name,)*
                }
            }

            /// The eras that define the method.
            pub fn eras(self) -> Eras {
                match self {
                    $(Method::$variant => Eras::$eras,)*
                }
            }

            /// Who answers the method.
            pub fn answerer(self) -> Answerer {
                match self {
                    $(Method::$variant => Answerer::$answerer,)*
                }
            }

            /// The parameter the 2026-07-28 `Mcp-Name` header mirrors
            /// (`name` of `tools/call`, `uri` of `resources/read`, `taskId`
            /// of `tasks/get`), `None` for methods without that header.
            pub fn target(self) -> Option<&'static str> {
                match self {
                    $(Method::$variant => $target,)*
                }
            }

            /// Whether the server answers the method as part of its era's
            /// plumbing (handshake, discovery, tasks), before any
            /// middleware sees it.
            pub fn bypasses_middleware(self) -> bool {
                match self {
                    $(Method::$variant => $bypass,)*
                }
            }
        }
    };
}

methods! {
    /// `initialize`: the legacy handshake.
    Initialize = INITIALIZE, Legacy, Server, None, true;
    /// `ping`.
    Ping = PING, Legacy, Either, None, true;
    /// `logging/setLevel`.
    SetLogLevel = LOGGING_SET_LEVEL, Legacy, Server, None, true;
    /// `resources/subscribe`.
    Subscribe = RESOURCES_SUBSCRIBE, Legacy, Server, None, true;
    /// `resources/unsubscribe`.
    Unsubscribe = RESOURCES_UNSUBSCRIBE, Legacy, Server, None, true;
    /// `server/discover`: what a 2026-07-28 server offers.
    Discover = SERVER_DISCOVER, Modern, Server, None, true;
    /// `subscriptions/listen`: a 2026-07-28 stream of notifications.
    Listen = SUBSCRIPTIONS_LISTEN, Modern, Server, None, false;
    /// `tasks/get` (tasks extension).
    TasksGet = TASKS_GET, Modern, Server, Some("taskId"), true;
    /// `tasks/update` (tasks extension).
    TasksUpdate = TASKS_UPDATE, Modern, Server, Some("taskId"), true;
    /// `tasks/cancel` (tasks extension).
    TasksCancel = TASKS_CANCEL, Modern, Server, Some("taskId"), true;
    /// `tools/list`.
    ToolsList = TOOLS_LIST, Both, Server, None, false;
    /// `resources/list`.
    ResourcesList = RESOURCES_LIST, Both, Server, None, false;
    /// `resources/templates/list`.
    TemplatesList = RESOURCES_TEMPLATES_LIST, Both, Server, None, false;
    /// `prompts/list`.
    PromptsList = PROMPTS_LIST, Both, Server, None, false;
    /// `tools/call`.
    CallTool = TOOLS_CALL, Both, Server, Some("name"), false;
    /// `resources/read`.
    ReadResource = RESOURCES_READ, Both, Server, Some("uri"), false;
    /// `prompts/get`.
    GetPrompt = PROMPTS_GET, Both, Server, Some("name"), false;
    /// `completion/complete`.
    Complete = COMPLETION_COMPLETE, Both, Server, None, false;
    /// `skills/list` (Skills extension).
    SkillsList = SKILLS_LIST, Both, Server, None, false;
    /// `skills/get` (Skills extension).
    SkillsGet = SKILLS_GET, Both, Server, None, false;
    /// `resources/directory/read` (Skills extension).
    ReadDirectory = RESOURCES_DIRECTORY_READ, Both, Server, None, false;
    /// `sampling/createMessage`: the server asks the client's model.
    CreateMessage = SAMPLING_CREATE_MESSAGE, Both, Client, None, false;
    /// `elicitation/create`: the server asks the user.
    Elicit = ELICITATION_CREATE, Both, Client, None, false;
    /// `roots/list`: the server asks for the client's roots.
    ListRoots = ROOTS_LIST, Both, Client, None, false;
}

impl Method {
    /// Whether the server answers this method (rather than the client).
    pub fn served_by_server(self) -> bool {
        self.answerer() != Answerer::Client
    }

    /// The value `params` gives the parameter [`target`](Self::target)
    /// names, when it is a string: what `Mcp-Name` carries.
    pub fn target_in(self, params: &serde_json::Value) -> Option<&str> {
        params.get(self.target()?)?.as_str()
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a name MCP does not define.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMethod(pub String);

impl fmt::Display for UnknownMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown MCP method `{}`", self.0)
    }
}

impl std::error::Error for UnknownMethod {}

impl FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Method::parse(name).ok_or_else(|| UnknownMethod(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_method_parses_back_from_its_name() {
        for &method in Method::ALL {
            assert_eq!(Method::parse(method.name()), Some(method));
            assert_eq!(method.to_string().parse::<Method>(), Ok(method));
        }
        assert_eq!(Method::parse("tools/unknown"), None);
        assert!("tools/unknown".parse::<Method>().is_err());
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = Method::ALL.iter().map(|m| m.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Method::ALL.len());
    }

    #[test]
    fn targets_are_read_from_params() {
        let call = json!({"name": "echo", "arguments": {}});
        assert_eq!(Method::CallTool.target_in(&call), Some("echo"));
        assert_eq!(Method::ToolsList.target_in(&call), None);
        let task = json!({"taskId": "t-1"});
        assert_eq!(Method::TasksCancel.target_in(&task), Some("t-1"));
        let read = json!({"uri": 7});
        assert_eq!(Method::ReadResource.target_in(&read), None);
    }

    #[test]
    fn era_plumbing_is_what_bypasses_middleware() {
        for &method in Method::ALL {
            if method.bypasses_middleware() {
                assert_ne!(method.eras(), Eras::Both, "{method}");
            }
        }
    }
}
