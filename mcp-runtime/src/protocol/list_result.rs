//! The shape every list result shares (`tools/list`, `resources/list`,
//! `resources/templates/list`, `prompts/list`): one page of items, the
//! cursor to the next page, and the result fields of 2026-07-28
//! (`resultType`, `ttlMs`, `cacheScope`) and `_meta`. Declared once here, so
//! that the lists cannot drift apart.

/// A list result: one page, with a cursor to the next one. Lets a caller
/// read every page of any list the same way.
pub trait Paged {
    /// The cursor to the next page; `None` on the last page.
    fn next_cursor(&self) -> Option<&str>;
}

/// Declares a list result named `$name` whose items are `Vec<$item>` under
/// `$items` (serialized in camelCase), followed by the fields every list
/// result has, in this order: `nextCursor`, `resultType`, `ttlMs`,
/// `cacheScope`, `_meta`.
macro_rules! list_result {
    (
        $(#[$doc:meta])*
        pub struct $name:ident {
            $(#[$items_doc:meta])*
            pub $items:ident: Vec<$item:ty>,
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Default, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $(#[$items_doc])*
            pub $items: Vec<$item>,
            /// Cursor for the next page, if any.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub next_cursor: Option<String>,
            /// Result kind (modern era).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub result_type: Option<$crate::protocol::ResultType>,
            /// How long the client may cache this result, in milliseconds (modern era).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub ttl_ms: Option<u64>,
            /// Who may cache this result (modern era).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub cache_scope: Option<$crate::protocol::CacheScope>,
            /// Result metadata.
            #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
            pub meta: Option<$crate::protocol::Meta>,
        }

        impl $crate::protocol::Paged for $name {
            fn next_cursor(&self) -> Option<&str> {
                self.next_cursor.as_deref()
            }
        }
    };
}

pub(crate) use list_result;

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::protocol::{CacheScope, ListResourceTemplatesResult, Paged, ResultType};

    #[test]
    fn every_field_keeps_its_wire_name_and_place() {
        let page = ListResourceTemplatesResult {
            resource_templates: Vec::new(),
            next_cursor: Some("2".into()),
            result_type: Some(ResultType::Complete),
            ttl_ms: Some(60_000),
            cache_scope: Some(CacheScope::Private),
            meta: Some(json!({"k": 1}).as_object().unwrap().clone()),
        };
        let text = serde_json::to_string(&page).unwrap();
        assert_eq!(
            text,
            r#"{"resourceTemplates":[],"nextCursor":"2","resultType":"complete","ttlMs":60000,"cacheScope":"private","_meta":{"k":1}}"#
        );
        let back: ListResourceTemplatesResult = serde_json::from_str(&text).unwrap();
        assert_eq!(back, page);
        assert_eq!(back.next_cursor(), Some("2"));
        let last: ListResourceTemplatesResult =
            serde_json::from_value(json!({"resourceTemplates": []})).unwrap();
        assert_eq!(last.next_cursor(), None);
    }
}
