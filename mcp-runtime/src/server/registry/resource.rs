//! Resources: fixed URIs and URI templates, and the read a handler receives.

use std::collections::BTreeMap;

use super::audience::Audience;
use super::completion::{Completer, CompletionRequest};
use super::handler::{Handler, erase};
use crate::jsonrpc::ErrorObject;
use crate::protocol::{
    Completion, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
    TextResourceContents,
};
use crate::server::RequestContext;
use mcp_toolkit_uri_template::{UriTemplate, UriTemplateError};

/// What a resource handler returns. Use [`ErrorObject::resource_not_found`]
/// when a template matched but nothing exists at that URI.
pub type ReadOutcome = Result<ReadResourceResult, ErrorObject>;

/// One `resources/read` of a resource or template.
pub struct ResourceRead {
    /// The URI requested.
    pub uri: String,
    /// The template variables, percent-decoded (empty for fixed resources).
    pub variables: BTreeMap<String, String>,
    /// The request context.
    pub context: RequestContext,
}

/// A resource at a fixed URI.
pub struct ResourceDef {
    pub(crate) resource: Resource,
    pub(crate) handler: Handler<ResourceRead, ReadOutcome>,
    /// Who sees it (`visible_to`, in `audience.rs`); `None`: everyone.
    pub(crate) audience: Option<Audience>,
}

impl ResourceDef {
    /// The resource's URI, its key in the catalogue.
    pub(crate) fn uri(&self) -> &str {
        &self.resource.uri
    }

    /// A resource at `uri`, listed under `name`.
    pub fn new<F, Fut>(uri: impl Into<String>, name: impl Into<String>, handler: F) -> Self
    where
        F: Fn(ResourceRead) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = ReadOutcome> + Send + 'static,
    {
        let resource = Resource {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: None,
            meta: None,
        };
        ResourceDef {
            resource,
            handler: erase(handler),
            audience: None,
        }
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.resource.description = Some(description.into());
        self
    }

    /// Sets the MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.resource.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the human-readable title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.resource.title = Some(title.into());
        self
    }
}

/// A family of resources described by an RFC 6570 URI template.
pub struct ResourceTemplateDef {
    pub(crate) template: ResourceTemplate,
    pub(crate) matcher: UriTemplate,
    pub(crate) handler: Handler<ResourceRead, ReadOutcome>,
    pub(crate) completer: Option<Completer>,
    /// Who sees it (`visible_to`, in `audience.rs`); `None`: everyone.
    pub(crate) audience: Option<Audience>,
}

impl ResourceTemplateDef {
    /// The URI template, its key in the catalogue.
    pub(crate) fn uri_template(&self) -> &str {
        &self.template.uri_template
    }

    /// A template such as `notes://{title}`; fails when the template is not
    /// valid RFC 6570.
    pub fn new<F, Fut>(
        uri_template: &str,
        name: impl Into<String>,
        handler: F,
    ) -> Result<Self, UriTemplateError>
    where
        F: Fn(ResourceRead) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = ReadOutcome> + Send + 'static,
    {
        let matcher = UriTemplate::parse(uri_template)?;
        let template = ResourceTemplate {
            uri_template: uri_template.to_owned(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            icons: None,
            meta: None,
        };
        Ok(ResourceTemplateDef {
            template,
            matcher,
            handler: erase(handler),
            completer: None,
            audience: None,
        })
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.template.description = Some(description.into());
        self
    }

    /// Sets the MIME type of the resources.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.template.mime_type = Some(mime_type.into());
        self
    }

    /// Answers `completion/complete` for this template's variables.
    pub fn completion<F, Fut>(mut self, completer: F) -> Self
    where
        F: Fn(CompletionRequest) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Completion> + Send + 'static,
    {
        self.completer = Some(erase(completer));
        self
    }
}

impl ReadResourceResult {
    /// A result with one text body.
    pub fn text(uri: impl Into<String>, mime_type: Option<&str>, text: impl Into<String>) -> Self {
        let contents = ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: mime_type.map(str::to_owned),
            text: text.into(),
            meta: None,
        });
        ReadResourceResult {
            contents: vec![contents],
            result_type: None,
            ttl_ms: None,
            cache_scope: None,
            meta: None,
        }
    }
}
