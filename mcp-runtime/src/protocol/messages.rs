//! Whole-message aliases: schema message types as typed JSON-RPC envelopes.
//!
//! The aliases fix the parameter/result type; the `method` string is not checked by
//! deserialization — compare it against the constants in [`super::methods`].

use super::*;

/// `server/discover` request.
pub type DiscoverRequest = JsonRpcRequest<RequestParams>;
/// Response to `server/discover`.
pub type DiscoverResultResponse = JsonRpcResponse<DiscoverResult>;
/// `tools/list` request.
pub type ListToolsRequest = JsonRpcRequest<PaginatedRequestParams>;
/// Response to `tools/list`.
pub type ListToolsResultResponse = JsonRpcResponse<ListToolsResult>;
/// `tools/call` request.
pub type CallToolRequest = JsonRpcRequest<CallToolRequestParams>;
/// Response to `tools/call`.
pub type CallToolResultResponse = JsonRpcResponse<ResultOrInputRequired<CallToolResult>>;
/// `resources/list` request.
pub type ListResourcesRequest = JsonRpcRequest<PaginatedRequestParams>;
/// Response to `resources/list`.
pub type ListResourcesResultResponse = JsonRpcResponse<ListResourcesResult>;
/// `resources/templates/list` request.
pub type ListResourceTemplatesRequest = JsonRpcRequest<PaginatedRequestParams>;
/// Response to `resources/templates/list`.
pub type ListResourceTemplatesResultResponse = JsonRpcResponse<ListResourceTemplatesResult>;
/// `resources/read` request.
pub type ReadResourceRequest = JsonRpcRequest<ReadResourceRequestParams>;
/// Response to `resources/read`.
pub type ReadResourceResultResponse = JsonRpcResponse<ResultOrInputRequired<ReadResourceResult>>;
/// `prompts/list` request.
pub type ListPromptsRequest = JsonRpcRequest<PaginatedRequestParams>;
/// Response to `prompts/list`.
pub type ListPromptsResultResponse = JsonRpcResponse<ListPromptsResult>;
/// `prompts/get` request.
pub type GetPromptRequest = JsonRpcRequest<GetPromptRequestParams>;
/// Response to `prompts/get`.
pub type GetPromptResultResponse = JsonRpcResponse<ResultOrInputRequired<GetPromptResult>>;
/// `completion/complete` request.
pub type CompleteRequest = JsonRpcRequest<CompleteRequestParams>;
/// Response to `completion/complete`.
pub type CompleteResultResponse = JsonRpcResponse<CompleteResult>;
/// `subscriptions/listen` request.
pub type SubscriptionsListenRequest = JsonRpcRequest<SubscriptionsListenRequestParams>;
/// Response to `subscriptions/listen`.
pub type SubscriptionsListenResultResponse = JsonRpcResponse<SubscriptionsListenResult>;
/// Legacy `initialize` request.
pub type InitializeRequest = JsonRpcRequest<InitializeRequestParams>;
/// Response to the legacy `initialize` request.
pub type InitializeResultResponse = JsonRpcResponse<InitializeResult>;
/// Legacy `logging/setLevel` request.
pub type SetLevelRequest = JsonRpcRequest<SetLevelRequestParams>;

/// `notifications/cancelled`.
pub type CancelledNotification = JsonRpcNotification<CancelledNotificationParams>;
/// `notifications/progress`.
pub type ProgressNotification = JsonRpcNotification<ProgressNotificationParams>;
/// `notifications/message`.
pub type LoggingMessageNotification = JsonRpcNotification<LoggingMessageNotificationParams>;
/// `notifications/tools/list_changed`.
pub type ToolListChangedNotification = JsonRpcNotification<NotificationParams>;
/// `notifications/prompts/list_changed`.
pub type PromptListChangedNotification = JsonRpcNotification<NotificationParams>;
/// `notifications/resources/list_changed`.
pub type ResourceListChangedNotification = JsonRpcNotification<NotificationParams>;
/// `notifications/resources/updated`.
pub type ResourceUpdatedNotification = JsonRpcNotification<ResourceUpdatedNotificationParams>;
/// `notifications/subscriptions/acknowledged`.
pub type SubscriptionsAcknowledgedNotification =
    JsonRpcNotification<SubscriptionsAcknowledgedNotificationParams>;
/// Legacy `notifications/initialized`.
pub type InitializedNotification = JsonRpcNotification<NotificationParams>;
/// Legacy `notifications/roots/list_changed`.
pub type RootsListChangedNotification = JsonRpcNotification<NotificationParams>;
/// Legacy `notifications/elicitation/complete`.
pub type ElicitationCompleteNotification =
    JsonRpcNotification<ElicitationCompleteNotificationParams>;

/// Error response with code [`error_codes::HEADER_MISMATCH`].
pub type HeaderMismatchError = JsonRpcErrorResponse;
/// Error response with code [`error_codes::MISSING_REQUIRED_CLIENT_CAPABILITY`].
pub type MissingRequiredClientCapabilityError =
    JsonRpcErrorResponse<MissingRequiredClientCapabilityData>;
/// Error response with code [`error_codes::UNSUPPORTED_PROTOCOL_VERSION`].
pub type UnsupportedProtocolVersionError = JsonRpcErrorResponse<UnsupportedProtocolVersionData>;
/// Legacy error response with code [`error_codes::URL_ELICITATION_REQUIRED`].
pub type UrlElicitationRequiredError = JsonRpcErrorResponse<UrlElicitationRequiredData>;
