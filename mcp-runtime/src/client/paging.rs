//! Following a list method's cursors, page by page, to the end (bounded).

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Client, ClientError};
use crate::protocol::{Method, Paged};

/// The most pages a list is followed for: a server that keeps returning a
/// cursor is refused rather than followed forever.
pub(crate) const MAX_PAGES: usize = 1000;

impl Client {
    /// One page of a list method, from `cursor` (the first page without).
    pub(crate) async fn page<P: DeserializeOwned>(
        &self,
        method: Method,
        cursor: Option<&str>,
    ) -> Result<P, ClientError> {
        let mut params = Map::new();
        if let Some(cursor) = cursor {
            params.insert("cursor".into(), Value::String(cursor.to_owned()));
        }
        self.send(method, &params).await
    }

    /// Every page of a list method (at most [`MAX_PAGES`]).
    pub(crate) async fn pages<P: DeserializeOwned + Paged>(
        &self,
        method: Method,
    ) -> Result<Vec<P>, ClientError> {
        let mut pages = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let page: P = self.page(method, cursor.as_deref()).await?;
            cursor = page.next_cursor().map(str::to_owned);
            pages.push(page);
            if cursor.is_none() {
                return Ok(pages);
            }
        }
        Err(ClientError::InvalidResponse(format!(
            "{method} returned more than {MAX_PAGES} pages"
        )))
    }
}
