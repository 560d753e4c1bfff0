//! The last stage: a result, whatever answered it, takes the shape of its
//! era and is encoded. A 2026-07-28 result says `resultType: "complete"`
//! unless it already names its kind (`input_required`, `task`), and a
//! cacheable one carries `ttlMs` and `cacheScope` (the server's options),
//! unless its handler chose them; a legacy result is left as it is.

use crate::jsonrpc::RequestId;
use crate::protocol::{
    CacheScope, CallToolResult, CompleteResult, CreateTaskResult, DiscoverResult, EmptyResult, Era,
    GetPromptResult, GetTaskResult, InitializeResult, InputRequiredResult, Method,
    ReadResourceResult, ResultType, SubscriptionsListenResult, TaskAck,
};
use crate::server::{Server, ServerOptions};

/// A result the era shapes: where its optional `resultType` and cache
/// hints are, if it has them, and how it is encoded.
pub(crate) trait Shaped {
    /// The optional `resultType`; `None` for results of a fixed kind.
    fn result_type(&mut self) -> Option<&mut Option<ResultType>>;

    /// The optional `ttlMs` and `cacheScope`; `None` for results that
    /// carry no cache hints.
    fn cache(&mut self) -> Option<(&mut Option<u64>, &mut Option<CacheScope>)> {
        None
    }

    /// The response to `id` carrying this result:
    /// [`result_frame`](crate::jsonrpc::result_frame) for a typed result;
    /// results made of JSON serialized earlier (a listing's entries) write
    /// their own.
    fn frame(&self, id: &RequestId) -> Vec<u8>;
}

/// Implements [`Shaped`] for results with an optional `result_type`
/// (`kind`), also `ttl_ms` and `cache_scope` (`cached`), or neither
/// (`fixed`: their kind is part of what they are); or, for `cached`
/// results made of JSON serialized earlier (`written`), whose frame their
/// `write_result(&self, out: &mut Vec<u8>)` writes.
macro_rules! shaped {
    (written: $($written:ty),*;) => {
        $(impl $crate::server::engine::shape::Shaped for $written {
            $crate::server::engine::shape::shaped!(@cached);
            fn frame(&self, id: &$crate::jsonrpc::RequestId) -> Vec<u8> {
                $crate::jsonrpc::written_result_frame(id, |out| self.write_result(out))
            }
        })*
    };
    (kind: $($kind:ty),*; cached: $($cached:ty),*; fixed: $($fixed:ty),*;) => {
        $(impl $crate::server::engine::shape::Shaped for $kind {
            fn result_type(&mut self) -> Option<&mut Option<$crate::protocol::ResultType>> {
                Some(&mut self.result_type)
            }
            $crate::server::engine::shape::shaped!(@typed);
        })*
        $(impl $crate::server::engine::shape::Shaped for $cached {
            $crate::server::engine::shape::shaped!(@cached);
            $crate::server::engine::shape::shaped!(@typed);
        })*
        $(impl $crate::server::engine::shape::Shaped for $fixed {
            fn result_type(&mut self) -> Option<&mut Option<$crate::protocol::ResultType>> {
                None
            }
            $crate::server::engine::shape::shaped!(@typed);
        })*
    };
    // The members of a result with `result_type`, `ttl_ms` and `cache_scope`.
    (@cached) => {
        fn result_type(&mut self) -> Option<&mut Option<$crate::protocol::ResultType>> {
            Some(&mut self.result_type)
        }
        fn cache(&mut self) -> Option<(&mut Option<u64>, &mut Option<$crate::protocol::CacheScope>)> {
            Some((&mut self.ttl_ms, &mut self.cache_scope))
        }
    };
    // The frame of a `Serialize` result.
    (@typed) => {
        fn frame(&self, id: &$crate::jsonrpc::RequestId) -> Vec<u8> {
            $crate::jsonrpc::result_frame(id, self)
        }
    };
}

pub(crate) use shaped;

shaped! {
    kind: CallToolResult, GetPromptResult, CompleteResult, SubscriptionsListenResult, EmptyResult;
    cached: ReadResourceResult, DiscoverResult;
    fixed: InputRequiredResult, CreateTaskResult, GetTaskResult, TaskAck, InitializeResult;
}

/// How long (ms) and by whom a 2026-07-28 result may be cached.
pub(crate) type CacheHints = (u64, CacheScope);

/// The cache hints a method's results carry in 2026-07-28: the list
/// options for what changes only with the registry, the read options for
/// resource contents.
pub(crate) fn cache_hints(method: Method, options: &ServerOptions) -> Option<CacheHints> {
    let listed = Some((options.list_ttl_ms, options.list_cache_scope));
    match method {
        Method::ToolsList
        | Method::ResourcesList
        | Method::TemplatesList
        | Method::PromptsList
        | Method::Discover
        | Method::SkillsList
        | Method::SkillsGet => listed,
        Method::ReadResource => Some((options.read_ttl_ms, options.read_cache_scope)),
        Method::Initialize
        | Method::Ping
        | Method::SetLogLevel
        | Method::Subscribe
        | Method::Unsubscribe
        | Method::Listen
        | Method::TasksGet
        | Method::TasksUpdate
        | Method::TasksCancel
        | Method::CallTool
        | Method::GetPrompt
        | Method::Complete
        | Method::ReadDirectory
        | Method::CreateMessage
        | Method::Elicit
        | Method::ListRoots => None,
    }
}

/// Gives `result` the shape of `era`, with `hints` when it is cacheable.
pub(crate) fn apply<R: Shaped>(era: Era, result: &mut R, hints: Option<CacheHints>) {
    if era == Era::Legacy {
        return;
    }
    if let Some(result_type) = result.result_type() {
        result_type.get_or_insert(ResultType::Complete);
    }
    if let (Some((ttl_ms, scope)), Some(hints)) = (result.cache(), hints) {
        ttl_ms.get_or_insert(hints.0);
        scope.get_or_insert(hints.1);
    }
}

/// Shapes `result` for `era` as the answer to `method` and encodes it as
/// the response to `id`.
pub(crate) fn encode<R: Shaped>(
    era: Era,
    method: Method,
    id: &RequestId,
    mut result: R,
    options: &ServerOptions,
) -> Vec<u8> {
    apply(era, &mut result, cache_hints(method, options));
    result.frame(id)
}

impl Server {
    /// [`encode`] with this server's options.
    pub(crate) fn answer<R: Shaped>(
        &self,
        era: Era,
        method: Method,
        id: &RequestId,
        result: R,
    ) -> Vec<u8> {
        encode(era, method, id, result, &self.inner.options)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::protocol::{ResourceContents, TextResourceContents};

    fn encoded<R: Shaped>(era: Era, method: Method, result: R) -> Value {
        let options = ServerOptions {
            read_ttl_ms: 7,
            ..ServerOptions::default()
        };
        let frame = encode(era, method, &RequestId::Int(1), result, &options);
        serde_json::from_slice::<Value>(&frame).unwrap()["result"].take()
    }

    #[test]
    fn modern_results_say_they_are_complete() {
        let result = encoded(Era::Modern, Method::CallTool, CallToolResult::text("hi"));
        assert_eq!(result["resultType"], "complete");
        assert!(result.get("ttlMs").is_none());
        let legacy = encoded(Era::Legacy, Method::CallTool, CallToolResult::text("hi"));
        assert!(legacy.get("resultType").is_none());
    }

    #[test]
    fn cacheable_results_carry_the_options_hints_unless_chosen() {
        let read = |ttl_ms| ReadResourceResult {
            contents: vec![ResourceContents::Text(TextResourceContents {
                uri: "file:///a".into(),
                mime_type: None,
                text: "a".into(),
                meta: None,
            })],
            result_type: None,
            ttl_ms,
            cache_scope: None,
            meta: None,
        };
        let result = encoded(Era::Modern, Method::ReadResource, read(None));
        assert_eq!(
            (&result["ttlMs"], &result["cacheScope"]),
            (&json!(7), &json!("private"))
        );
        let chosen = encoded(Era::Modern, Method::ReadResource, read(Some(60_000)));
        assert_eq!(chosen["ttlMs"], 60_000);
        let legacy = encoded(Era::Legacy, Method::ReadResource, read(None));
        assert!(legacy.get("ttlMs").is_none());
    }

    #[test]
    fn a_result_that_names_its_kind_keeps_it() {
        let mut result = CallToolResult::text("later");
        result.result_type = Some(ResultType::Task);
        let result = encoded(Era::Modern, Method::CallTool, result);
        assert_eq!(result["resultType"], "task");
    }
}
