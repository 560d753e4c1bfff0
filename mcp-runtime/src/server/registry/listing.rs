//! A named collection (tools, resources, templates, prompts, skills, the
//! children of a skill directory) kept sorted by name, with each entry's
//! listed JSON serialized once when the collection is built so that
//! `*/list` only concatenates bytes. Entries are shared (`Arc`), so that a
//! live registry's next collection reuses the ones a change kept, and a
//! request in flight keeps the entry it started with.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;

use super::audience::Restricted;
use crate::canonical::write_json_string;
use crate::jsonrpc::ErrorObject;
use crate::protocol::{CacheScope, ResultType};
use crate::server::auth::Principal;
use crate::server::engine::shape::shaped;

pub(crate) struct Listing<T> {
    entries: Vec<Arc<T>>,
    index: HashMap<String, usize>,
    /// Each entry's JSON text, as listed.
    listed: Vec<Box<str>>,
    /// Whether some entry is hidden from some caller.
    restricted: bool,
}

/// The positions of `keys` in sorted order: one sort compiled for every
/// kind of entry rather than one per kind. Pairs, not bare positions: the
/// standard library sorts a slice of word-sized values with a sorting
/// network, several kilobytes of code.
fn sorted_order(keys: &[&str]) -> Vec<usize> {
    let mut order: Vec<(&str, usize)> = keys.iter().copied().zip(0..).collect();
    order.sort_unstable();
    order.into_iter().map(|(_, at)| at).collect()
}

impl<T: Restricted> Listing<T> {
    /// Sorts `entries` by key; fails on the first duplicate key, naming it.
    #[cfg(any(feature = "skills", test))]
    pub(crate) fn build<S: Serialize>(
        entries: Vec<T>,
        key: impl Fn(&T) -> &str,
        listed: impl Fn(&T) -> &S,
        kind: &str,
    ) -> Result<Self, String> {
        let entries = entries.into_iter().map(Arc::new).collect();
        Self::from_shared(entries, key, listed, kind)
    }

    /// [`build`](Self::build) from entries another listing may share.
    pub(crate) fn from_shared<S: Serialize>(
        entries: Vec<Arc<T>>,
        key: impl Fn(&T) -> &str,
        listed: impl Fn(&T) -> &S,
        kind: &str,
    ) -> Result<Self, String> {
        let keys: Vec<&str> = entries.iter().map(|entry| key(entry)).collect();
        let entries: Vec<Arc<T>> = sorted_order(&keys)
            .into_iter()
            .map(|at| entries[at].clone())
            .collect();
        let mut index = HashMap::with_capacity(entries.len());
        let mut raw = Vec::with_capacity(entries.len());
        for (i, entry) in entries.iter().enumerate() {
            let entry = entry.as_ref();
            if index.insert(key(entry).to_owned(), i).is_some() {
                return Err(format!("two {kind}s are named `{}`", key(entry)));
            }
            let json = serde_json::to_string(listed(entry))
                .map_err(|e| format!("{kind} `{}` cannot be serialized: {e}", key(entry)))?;
            raw.push(json.into_boxed_str());
        }
        Ok(Listing {
            restricted: entries.iter().any(|entry| entry.audience().is_some()),
            entries,
            index,
            listed: raw,
        })
    }

    /// The entry `key`, whoever asks (for the server's own use).
    pub(crate) fn get(&self, key: &str) -> Option<&Arc<T>> {
        self.index.get(key).map(|&i| &self.entries[i])
    }

    /// The entry `key`, when `caller` sees it.
    pub(crate) fn get_for(&self, key: &str, caller: Option<&Principal>) -> Option<&Arc<T>> {
        self.get(key).filter(|entry| entry.shown_to(caller))
    }

    /// The entries `caller` sees, in key order.
    pub(crate) fn iter_for<'a, 'c>(
        &'a self,
        caller: Option<&'c Principal>,
    ) -> impl Iterator<Item = &'a Arc<T>> + use<'a, 'c, T> {
        self.entries
            .iter()
            .filter(move |entry| entry.shown_to(caller))
    }

    /// The listed JSON of the entry `key`, as serialized at build time.
    #[cfg(feature = "skills")]
    pub(crate) fn get_listed(&self, key: &str) -> Option<&str> {
        self.index.get(key).map(|&i| &*self.listed[i])
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Arc<T>> {
        self.entries.iter()
    }

    /// How many entries there are.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The page starting at `cursor` (an offset we issued earlier) of
    /// the entries `caller` sees. A listing with restricted entries pages
    /// over what this caller sees, and its page is cached privately.
    pub(crate) fn page<'a>(
        &'a self,
        member: &'static str,
        cursor: Option<&str>,
        page_size: usize,
        caller: Option<&Principal>,
    ) -> Result<Page<'a>, ErrorObject> {
        let (items, cache_scope) = match self.restricted {
            false => (Items::All(&self.listed), None),
            true => {
                let shown = self.entries.iter().zip(&self.listed);
                let shown = shown
                    .filter(|(entry, _)| entry.shown_to(caller))
                    .map(|(_, listed)| &**listed)
                    .collect();
                (Items::Picked(shown), Some(CacheScope::Private))
            }
        };
        let total = items.len();
        let start = match cursor {
            None => 0,
            Some(text) => text
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0 && n < total)
                .ok_or_else(|| ErrorObject::invalid_params(format!("invalid cursor `{text}`")))?,
        };
        let end = start.saturating_add(page_size.max(1)).min(total);
        let next_cursor = (end < total).then(|| end.to_string());
        Ok(Page {
            member,
            items: items.range(start, end),
            next_cursor,
            result_type: None,
            ttl_ms: None,
            cache_scope,
        })
    }
}

/// The entries of one page: a slice of the listing, or those picked for
/// one caller.
enum Items<'a> {
    All(&'a [Box<str>]),
    Picked(Vec<&'a str>),
}

impl<'a> Items<'a> {
    fn len(&self) -> usize {
        match self {
            Items::All(all) => all.len(),
            Items::Picked(picked) => picked.len(),
        }
    }

    fn range(self, start: usize, end: usize) -> Self {
        match self {
            Items::All(all) => Items::All(&all[start..end]),
            Items::Picked(mut picked) => {
                picked.truncate(end);
                picked.drain(..start);
                Items::Picked(picked)
            }
        }
    }

    /// `[…]`, each entry's JSON as serialized when the listing was built.
    fn write(&self, out: &mut Vec<u8>) {
        let (all, picked): (&[Box<str>], &[&str]) = match self {
            Items::All(all) => (all, &[]),
            Items::Picked(picked) => (&[], picked),
        };
        let entries = all
            .iter()
            .map(|entry| &**entry)
            .chain(picked.iter().copied());
        out.push(b'[');
        for (at, entry) in entries.enumerate() {
            if at > 0 {
                out.push(b',');
            }
            out.extend_from_slice(entry.as_bytes());
        }
        out.push(b']');
    }
}

/// One page of a `*/list` result.
pub(crate) struct Page<'a> {
    member: &'static str,
    items: Items<'a>,
    next_cursor: Option<String>,
    /// 2026-07-28's envelope, set by [`shape`](crate::server::engine::shape).
    result_type: Option<ResultType>,
    ttl_ms: Option<u64>,
    /// Set here when the page depends on the caller; else by `shape`.
    cache_scope: Option<CacheScope>,
}

shaped! {
    written: Page<'_>;
}

impl Page<'_> {
    /// The result object, written by hand: the entries are JSON text
    /// already.
    fn write_result(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        push_json_string(out, self.member);
        out.push(b':');
        self.items.write(out);
        write_member(out, "nextCursor", &self.next_cursor);
        write_shape(out, self.result_type, self.ttl_ms, self.cache_scope);
        out.push(b'}');
    }
}

/// Appends `,"resultType":…,"ttlMs":…,"cacheScope":…`, each only when set,
/// to a result object being written by hand.
pub(crate) fn write_shape(
    out: &mut Vec<u8>,
    result_type: Option<ResultType>,
    ttl_ms: Option<u64>,
    cache_scope: Option<CacheScope>,
) {
    write_member(out, "resultType", &result_type);
    write_member(out, "ttlMs", &ttl_ms);
    write_member(out, "cacheScope", &cache_scope);
}

/// Appends `text` as a JSON string (one sink type, so one copy of the
/// escaper for every caller here).
fn push_json_string(out: &mut Vec<u8>, text: &str) {
    write_json_string(text, &mut |bytes| out.extend_from_slice(bytes));
}

/// Appends `,"name":value` when `value` is set.
fn write_member<T: Serialize>(out: &mut Vec<u8>, name: &str, value: &Option<T>) {
    if let Some(value) = value {
        out.push(b',');
        push_json_string(out, name);
        out.push(b':');
        serde_json::to_writer(&mut *out, value).expect("a string, number or name serializes");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::RequestId;
    use crate::protocol::{Era, Method};
    use crate::server::ServerOptions;
    use crate::server::engine::shape;
    use serde_json::json;

    impl Restricted for String {
        fn audience(&self) -> Option<&super::super::audience::Audience> {
            None
        }
    }

    fn listing(names: &[&str]) -> Listing<String> {
        let entries = names.iter().map(|s| s.to_string()).collect();
        Listing::build(entries, |s| s.as_str(), |s| s, "thing").unwrap()
    }

    #[test]
    fn pages_walk_every_entry_in_name_order() {
        let list = listing(&["c", "a", "e", "b", "d"]);
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = list.page("things", cursor.as_deref(), 2, None).unwrap();
            let Items::All(items) = page.items else {
                panic!("an unrestricted listing pages by slices")
            };
            seen.extend(items.iter().map(|r| r.to_string()));
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(seen, ["\"a\"", "\"b\"", "\"c\"", "\"d\"", "\"e\""]);
    }

    #[test]
    fn bad_cursors_are_invalid_params() {
        let list = listing(&["a", "b"]);
        for cursor in ["x", "0", "2", "-1", "99999999999999999999999"] {
            let err = list.page("things", Some(cursor), 1, None).err().unwrap();
            assert_eq!(err.code, crate::jsonrpc::code::INVALID_PARAMS, "{cursor}");
        }
    }

    #[test]
    fn duplicates_are_rejected() {
        let entries = vec!["a".to_owned(), "a".to_owned()];
        let err = Listing::build(entries, |s| s.as_str(), |s| s, "tool")
            .err()
            .unwrap();
        assert_eq!(err, "two tools are named `a`");
    }

    /// A page encoded as the router encodes an answer to `method`.
    fn shaped(page: Page<'_>, era: Era, method: Method) -> serde_json::Value {
        let options = ServerOptions {
            list_ttl_ms: 5,
            ..ServerOptions::default()
        };
        let frame = shape::encode(era, method, &RequestId::Int(1), page, &options);
        let frame: serde_json::Value = serde_json::from_slice(&frame).unwrap();
        frame["result"].clone()
    }

    #[test]
    fn a_page_frame_is_the_response_with_every_member_set() {
        let list = listing(&["b", "a\"q", "c"]);
        let page = list.page("things", None, 2, None).unwrap();
        let frame = shape::encode(
            Era::Modern,
            Method::ToolsList,
            &RequestId::String("r-1".into()),
            page,
            &ServerOptions::default(),
        );
        let frame: serde_json::Value = serde_json::from_slice(&frame).unwrap();
        assert_eq!(
            frame,
            json!({"jsonrpc": "2.0", "id": "r-1", "result": {
                "things": ["a\"q", "b"], "nextCursor": "2", "resultType": "complete",
                "ttlMs": ServerOptions::default().list_ttl_ms,
                "cacheScope": ServerOptions::default().list_cache_scope,
            }})
        );
    }

    #[test]
    fn modern_pages_carry_cache_fields() {
        let list = listing(&["a"]);
        let page = |era| {
            shaped(
                list.page("things", None, 10, None).unwrap(),
                era,
                Method::ToolsList,
            )
        };
        assert_eq!(
            page(Era::Modern),
            json!({"things": ["a"], "resultType": "complete", "ttlMs": 5, "cacheScope": "public"})
        );
        assert_eq!(page(Era::Legacy), json!({"things": ["a"]}));
    }

    #[test]
    fn pages_without_cache_hints_carry_only_the_result_type() {
        let list = listing(&["a"]);
        let page = |era| {
            let page = list.page("things", None, 10, None).unwrap();
            shaped(page, era, Method::ReadDirectory)
        };
        assert_eq!(
            page(Era::Modern),
            json!({"things": ["a"], "resultType": "complete"})
        );
        assert_eq!(page(Era::Legacy), json!({"things": ["a"]}));
    }

    #[test]
    #[cfg(feature = "skills")]
    fn an_entry_is_found_serialized() {
        let list = listing(&["b", "a"]);
        assert_eq!(list.get_listed("b"), Some("\"b\""));
        assert!(list.get_listed("c").is_none());
    }

    /// An entry shown only to principals with the scope it names.
    struct Scoped(&'static str, Option<super::super::audience::Audience>);

    impl Restricted for Scoped {
        fn audience(&self) -> Option<&super::super::audience::Audience> {
            self.1.as_ref()
        }
    }

    #[test]
    fn a_restricted_listing_pages_over_what_the_caller_sees_privately() {
        use super::super::audience::Audience;
        let admin_only = || Some(Audience::with_scopes(vec!["admin".into()]));
        let entries = vec![
            Scoped("a", None),
            Scoped("b", admin_only()),
            Scoped("c", None),
            Scoped("d", admin_only()),
            Scoped("e", None),
        ];
        let list = Listing::build(entries, |e| e.0, |e| &e.0, "thing").unwrap();
        let mut admin = Principal::default();
        admin.scopes.insert("admin".into());
        let walk = |caller: Option<&Principal>| {
            let mut seen = Vec::new();
            let mut cursor: Option<String> = None;
            for _ in 0..10 {
                let page = list.page("things", cursor.as_deref(), 2, caller).unwrap();
                assert_eq!(page.cache_scope, Some(CacheScope::Private));
                let mut items = Vec::new();
                page.items.write(&mut items);
                seen.extend(serde_json::from_slice::<Vec<String>>(&items).unwrap());
                match page.next_cursor {
                    Some(next) => cursor = Some(next),
                    None => break,
                }
            }
            seen
        };
        assert_eq!(walk(None), ["a", "c", "e"]);
        assert_eq!(walk(Some(&admin)), ["a", "b", "c", "d", "e"]);
        assert!(list.get_for("b", None).is_none());
        assert!(list.get_for("b", Some(&admin)).is_some());
        // A cursor past what this caller sees is refused.
        assert!(list.page("things", Some("3"), 2, None).is_err());
    }
}
