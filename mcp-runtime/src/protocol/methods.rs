//! Method names of MCP requests and notifications.

/// `server/discover` (modern era).
pub const SERVER_DISCOVER: &str = "server/discover";
/// `initialize` (legacy era).
pub const INITIALIZE: &str = "initialize";
/// `notifications/initialized` (legacy era).
pub const NOTIFICATION_INITIALIZED: &str = "notifications/initialized";
/// `ping` (legacy era).
pub const PING: &str = "ping";
/// `tools/list`.
pub const TOOLS_LIST: &str = "tools/list";
/// `tools/call`.
pub const TOOLS_CALL: &str = "tools/call";
/// `resources/list`.
pub const RESOURCES_LIST: &str = "resources/list";
/// `resources/templates/list`.
pub const RESOURCES_TEMPLATES_LIST: &str = "resources/templates/list";
/// `resources/read`.
pub const RESOURCES_READ: &str = "resources/read";
/// `resources/directory/read` (the Skills extension, with `directoryRead`).
pub const RESOURCES_DIRECTORY_READ: &str = "resources/directory/read";
/// `skills/list` (the Skills extension).
pub const SKILLS_LIST: &str = "skills/list";
/// `skills/get` (the Skills extension).
pub const SKILLS_GET: &str = "skills/get";
/// `resources/subscribe` (legacy era).
pub const RESOURCES_SUBSCRIBE: &str = "resources/subscribe";
/// `resources/unsubscribe` (legacy era).
pub const RESOURCES_UNSUBSCRIBE: &str = "resources/unsubscribe";
/// `prompts/list`.
pub const PROMPTS_LIST: &str = "prompts/list";
/// `prompts/get`.
pub const PROMPTS_GET: &str = "prompts/get";
/// `completion/complete`.
pub const COMPLETION_COMPLETE: &str = "completion/complete";
/// `logging/setLevel` (legacy era).
pub const LOGGING_SET_LEVEL: &str = "logging/setLevel";
/// `subscriptions/listen` (modern era).
pub const SUBSCRIPTIONS_LISTEN: &str = "subscriptions/listen";
/// `sampling/createMessage`.
pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
/// `elicitation/create`.
pub const ELICITATION_CREATE: &str = "elicitation/create";
/// `roots/list`.
pub const ROOTS_LIST: &str = "roots/list";
/// `notifications/cancelled`.
pub const NOTIFICATION_CANCELLED: &str = "notifications/cancelled";
/// `notifications/progress`.
pub const NOTIFICATION_PROGRESS: &str = "notifications/progress";
/// `notifications/message`.
pub const NOTIFICATION_MESSAGE: &str = "notifications/message";
/// `notifications/tools/list_changed`.
pub const NOTIFICATION_TOOLS_LIST_CHANGED: &str = "notifications/tools/list_changed";
/// `notifications/prompts/list_changed`.
pub const NOTIFICATION_PROMPTS_LIST_CHANGED: &str = "notifications/prompts/list_changed";
/// `notifications/resources/list_changed`.
pub const NOTIFICATION_RESOURCES_LIST_CHANGED: &str = "notifications/resources/list_changed";
/// `notifications/resources/updated`.
pub const NOTIFICATION_RESOURCES_UPDATED: &str = "notifications/resources/updated";
/// `notifications/subscriptions/acknowledged` (modern era).
pub const NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED: &str =
    "notifications/subscriptions/acknowledged";
/// `notifications/roots/list_changed` (legacy era).
pub const NOTIFICATION_ROOTS_LIST_CHANGED: &str = "notifications/roots/list_changed";
/// `notifications/elicitation/complete` (legacy era).
pub const NOTIFICATION_ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";
/// `tasks/get` (modern era, tasks extension).
pub const TASKS_GET: &str = "tasks/get";
/// `tasks/update` (modern era, tasks extension).
pub const TASKS_UPDATE: &str = "tasks/update";
/// `tasks/cancel` (modern era, tasks extension).
pub const TASKS_CANCEL: &str = "tasks/cancel";
