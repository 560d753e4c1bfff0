//! Typed calls for the server's features beyond tools: prompts, resources
//! and their templates, completion, logging, liveness and discovery. Each
//! works in both eras; where a method exists in one era only, the call
//! says what it does in the other.

use std::collections::BTreeMap;

use serde_json::json;

use super::{Client, ClientError};
use crate::protocol::{
    CompleteRequestParams, CompleteResult, Completion, CompletionArgument, CompletionContext,
    CompletionReference, DiscoverResult, Era, GetPromptResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, LoggingLevel, Method, Prompt,
    PromptReference, ReadResourceResult, Resource, ResourceTemplate, ResourceTemplateReference,
};
use crate::sync::lock;

impl Client {
    /// Every prompt the server lists, following pagination (at most 1,000
    /// pages); from the cache while the server's `ttlMs` lasts (see
    /// [`Caching`](super::Caching)).
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ClientError> {
        let listed = self.cached_list(Method::PromptsList, |page: ListPromptsResult| page.prompts);
        Ok(listed.await?.items)
    }

    /// One page of `prompts/list`, from `cursor` (the first page without).
    pub async fn list_prompts_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListPromptsResult, ClientError> {
        self.page(Method::PromptsList, cursor).await
    }

    /// Gets the prompt `name` with `arguments` (name, value pairs):
    ///
    /// ```no_run
    /// # async fn run(client: mcp_toolkit_runtime::client::Client) -> Result<(), mcp_toolkit_runtime::client::ClientError> {
    /// let prompt = client.get_prompt("greet", [("name", "Ada")]).await?;
    /// for message in &prompt.messages {
    ///     println!("{:?}: {:?}", message.role, message.content);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub async fn get_prompt<K, V>(
        &self,
        name: &str,
        arguments: impl IntoIterator<Item = (K, V)>,
    ) -> Result<GetPromptResult, ClientError>
    where
        K: Into<String>,
        V: Into<String>,
    {
        let arguments: BTreeMap<String, String> = arguments
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect();
        let params = json!({ "name": name, "arguments": arguments });
        self.send(Method::GetPrompt, &params).await
    }

    /// Every resource the server lists, following pagination (at most
    /// 1,000 pages); cached as [`list_prompts`](Self::list_prompts) is.
    pub async fn list_resources(&self) -> Result<Vec<Resource>, ClientError> {
        let listed = self.cached_list(Method::ResourcesList, |page: ListResourcesResult| {
            page.resources
        });
        Ok(listed.await?.items)
    }

    /// One page of `resources/list`, from `cursor`.
    pub async fn list_resources_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListResourcesResult, ClientError> {
        self.page(Method::ResourcesList, cursor).await
    }

    /// Every resource template the server lists, following pagination (at
    /// most 1,000 pages); cached as [`list_prompts`](Self::list_prompts) is.
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ClientError> {
        let listed = self.cached_list(
            Method::TemplatesList,
            |page: ListResourceTemplatesResult| page.resource_templates,
        );
        Ok(listed.await?.items)
    }

    /// One page of `resources/templates/list`, from `cursor`.
    pub async fn list_resource_templates_page(
        &self,
        cursor: Option<&str>,
    ) -> Result<ListResourceTemplatesResult, ClientError> {
        self.page(Method::TemplatesList, cursor).await
    }

    /// Reads the resource at `uri` (a listed one, or one a template
    /// expands to); from the cache while the server's `ttlMs` lasts and no
    /// `notifications/resources/updated` for `uri` (or list change) came.
    /// A result served from the cache has the `ttlMs` it has left.
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        self.cached_read(uri).await
    }

    /// Asks a legacy server to send `notifications/resources/updated` for
    /// `uri` (see [`notifications`](Self::notifications)). In 2026-07-28
    /// there is no such method: subscribe with [`listen`](Self::listen)
    /// and a filter naming the resource.
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), ClientError> {
        self.in_era(Method::Subscribe, "subscribe with `Client::listen`")?;
        self.send::<_, serde_json::Value>(Method::Subscribe, &json!({ "uri": uri }))
            .await
            .map(drop)
    }

    /// Undoes [`subscribe_resource`](Self::subscribe_resource).
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), ClientError> {
        self.in_era(
            Method::Unsubscribe,
            "drop the `Client::listen` subscription",
        )?;
        self.send::<_, serde_json::Value>(Method::Unsubscribe, &json!({ "uri": uri }))
            .await
            .map(drop)
    }

    /// Completes the argument `argument` of the prompt `prompt`, typed so
    /// far as `value`; `context` holds the arguments already chosen.
    pub async fn complete_prompt_argument(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
        context: &BTreeMap<String, String>,
    ) -> Result<Completion, ClientError> {
        let reference = CompletionReference::Prompt(PromptReference {
            name: prompt.to_owned(),
            title: None,
        });
        self.complete(reference, argument, value, context).await
    }

    /// Completes the variable `variable` of the resource template
    /// `uri_template`, typed so far as `value`; `context` holds the
    /// variables already chosen.
    pub async fn complete_template_variable(
        &self,
        uri_template: &str,
        variable: &str,
        value: &str,
        context: &BTreeMap<String, String>,
    ) -> Result<Completion, ClientError> {
        let reference = CompletionReference::Resource(ResourceTemplateReference {
            uri: uri_template.to_owned(),
        });
        self.complete(reference, variable, value, context).await
    }

    /// `completion/complete` for `reference`.
    pub async fn complete(
        &self,
        reference: CompletionReference,
        argument: &str,
        value: &str,
        context: &BTreeMap<String, String>,
    ) -> Result<Completion, ClientError> {
        let params = CompleteRequestParams {
            r#ref: reference,
            argument: CompletionArgument {
                name: argument.to_owned(),
                value: value.to_owned(),
            },
            context: (!context.is_empty()).then(|| CompletionContext {
                arguments: Some(context.clone()),
            }),
            meta: None,
        };
        let result: CompleteResult = self.send(Method::Complete, &params).await?;
        Ok(result.completion)
    }

    /// The least severe log messages the server should send. A legacy
    /// server is told with `logging/setLevel`; in 2026-07-28 every later
    /// request carries the level in its `_meta`, which is how that era
    /// asks for log messages.
    pub async fn set_log_level(&self, level: LoggingLevel) -> Result<(), ClientError> {
        if self.server().era == Era::Legacy {
            let params = json!({ "level": level });
            self.send::<_, serde_json::Value>(Method::SetLogLevel, &params)
                .await?;
        }
        *lock(&self.inner.log_level) = Some(level);
        Ok(())
    }

    /// Checks that the server answers: `ping` in the legacy era, and
    /// `server/discover` in 2026-07-28, which has no `ping`.
    pub async fn ping(&self) -> Result<(), ClientError> {
        match self.server().era {
            Era::Legacy => self
                .send::<_, serde_json::Value>(Method::Ping, &json!({}))
                .await
                .map(drop),
            Era::Modern => self.discover().await.map(drop),
        }
    }

    /// Asks a 2026-07-28 server what it offers now (`server/discover`);
    /// what it said when the client connected is [`server`](Self::server).
    pub async fn discover(&self) -> Result<DiscoverResult, ClientError> {
        self.in_era(
            Method::Discover,
            "see `Client::server` for what it said at `initialize`",
        )?;
        self.send(Method::Discover, &json!({})).await
    }

    /// Refuses, without a request, a method the era the server speaks
    /// does not define; `instead` says what to do.
    pub(crate) fn in_era(&self, method: Method, instead: &str) -> Result<(), ClientError> {
        let server = self.server();
        if method.eras().contains(server.era) {
            return Ok(());
        }
        Err(ClientError::NotInEra(format!(
            "{method} is not a method of protocol {}: {instead}",
            server.protocol_version
        )))
    }
}
