//! A mounted server kept in step with its server ([`Client::mount_live`]):
//! its definitions registered in a live registry, and changed there, one
//! batch per change, whenever the server says its lists changed.

use std::collections::BTreeMap;
use std::fmt;

use tokio::sync::broadcast::{self, error::RecvError};

use super::mount::{Listed, Lists, mounted_name, prefixed_uri};
use super::{Client, ClientError, ListenEvent, Subscription};
use crate::jsonrpc::Notification;
use crate::protocol::{Era, Prompt, Resource, ResourceTemplate, SubscriptionFilter, Tool};
use crate::server::{Batch, BuildError, Definition, LiveRegistry, Server, WeakLiveRegistry};

/// A server mounted with [`Client::mount_live`], followed until this is
/// dropped. What was mounted stays in the registry afterwards, as it last
/// was.
#[derive(Debug)]
#[must_use = "the mounted server is followed only while this lives"]
pub struct LiveMount {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for LiveMount {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl LiveMount {
    /// Whether following ended by itself: the connection closed, the
    /// server declares no changes to announce, or the registry's server is
    /// gone.
    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }
}

/// Why [`Client::mount_live`] mounted nothing.
#[derive(Debug)]
#[non_exhaustive]
pub enum MountError {
    /// The mounted server's lists could not be read.
    Client(ClientError),
    /// The registry refused the definitions as a build would (a name it
    /// already serves, say); nothing was added.
    Registry(BuildError),
}

impl fmt::Display for MountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MountError::Client(error) => write!(f, "reading the mounted server failed: {error}"),
            MountError::Registry(error) => write!(f, "mounting refused: {error}"),
        }
    }
}

impl std::error::Error for MountError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MountError::Client(error) => Some(error),
            MountError::Registry(error) => Some(error),
        }
    }
}

impl From<ClientError> for MountError {
    fn from(error: ClientError) -> Self {
        MountError::Client(error)
    }
}

impl From<BuildError> for MountError {
    fn from(error: BuildError) -> Self {
        MountError::Registry(error)
    }
}

impl Client {
    /// [`mount`](Self::mount), into a live registry, and kept in step: what
    /// the server lists now is added to `registry` under `prefix` (named
    /// as `mount` names it), and whenever the server says a list changed
    /// (`notifications/*/list_changed`, asked for with
    /// `subscriptions/listen` in the 2026-07-28 era) that list is read
    /// again and the registry changed by one batch: a new entry added, a
    /// changed one (schemas, description, annotations) replaced, a gone one
    /// removed. The registry's own clients are told as for any change.
    ///
    /// Following stops when the returned [`LiveMount`] is dropped, when the
    /// connection closes, or when the registry's server is gone; the
    /// entries stay as they last were. An entry that cannot be mounted
    /// (a name over the limits, a URI without a scheme) is left out with a
    /// warning, as is a new one whose name the registry already serves;
    /// when the first registration meets such a name it fails instead, and
    /// adds nothing. Call it within a Tokio runtime.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_toolkit_runtime::client::{Client, ConnectOptions};
    /// use mcp_toolkit_runtime::protocol::CallToolResult;
    /// use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
    ///
    /// let forecast = ToolDef::new("forecast", |_call: ToolCall| async {
    ///     Ok(CallToolResult::text("sunny"))
    /// });
    /// // The weather server (here in this process; any server a client reaches).
    /// let weather = Server::builder(mcp_toolkit_runtime::server_info!())
    ///     .tool(forecast)
    ///     .live_registry()
    ///     .build()?;
    /// let weather_tools = weather.registry().expect("live");
    /// let upstream = Client::connect_in_memory(weather, ConnectOptions::default()).await?;
    ///
    /// // The front server, whose registry follows the weather server's.
    /// let front = Server::builder(mcp_toolkit_runtime::server_info!())
    ///     .live_registry()
    ///     .build()?;
    /// let registry = front.registry().expect("live");
    /// let following = upstream.mount_live("weather", &registry).await?;
    /// assert_eq!(registry.tool_names(), ["weather_forecast"]);
    ///
    /// // A tool the weather server adds later appears in the front server
    /// // too, and the front server's clients are told.
    /// weather_tools.add_tool(ToolDef::new("alerts", |_call: ToolCall| async {
    ///     Ok(CallToolResult::text("none"))
    /// }))?;
    /// # for _ in 0..200 {
    /// #     if registry.tool_names().len() == 2 { break }
    /// #     tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    /// # }
    /// assert_eq!(registry.tool_names(), ["weather_alerts", "weather_forecast"]);
    /// drop(following); // stops following; the tools stay
    /// # Ok(())
    /// # }
    /// ```
    pub async fn mount_live(
        &self,
        prefix: &str,
        registry: &LiveRegistry,
    ) -> Result<LiveMount, MountError> {
        // Listening starts before the first listing, so that no change made
        // after it is missed.
        let announcements = Announcements::begin(self);
        let listed = self.read_lists(Lists::ALL).await?;
        let (mirror, batch) = Mirror::default().update(self, prefix, listed, None);
        if let Some(batch) = batch {
            registry.apply(batch)?;
        }
        let task = tokio::spawn(follow(
            self.clone(),
            prefix.to_owned(),
            registry.downgrade(),
            announcements,
            mirror,
        ));
        Ok(LiveMount { task })
    }
}

/// Reads the lists again whenever the server says they changed, and
/// brings the registry in step, until the announcements end or the
/// registry is gone.
async fn follow(
    client: Client,
    prefix: String,
    registry: WeakLiveRegistry,
    mut announcements: Announcements,
    mut mirror: Mirror,
) {
    while let Some(stale) = announcements.next().await {
        let listed = match client.read_lists(stale).await {
            Ok(listed) => listed,
            Err(ClientError::Closed | ClientError::Disconnected(_)) => return,
            Err(error) => {
                tracing::warn!(%prefix, %error, "reading the mounted server again failed; its entries stay as they were");
                continue;
            }
        };
        let Some(registry) = registry.upgrade() else {
            return;
        };
        let (next, batch) = mirror.update(&client, &prefix, listed, Some(&registry));
        match batch.map(|batch| registry.apply(batch)) {
            None | Some(Ok(())) => mirror = next,
            Some(Err(error)) => {
                tracing::warn!(%prefix, %error, "the mounted server's change was not applied");
            }
        }
    }
}

/// How the server says its lists changed.
enum Announcements {
    /// Legacy servers send notifications unasked.
    Legacy(broadcast::Receiver<Notification>),
    /// 2026-07-28 servers are asked, with `subscriptions/listen`.
    Modern(Subscription),
    /// A 2026-07-28 server that declares no list changes.
    Silent,
}

impl Announcements {
    fn begin(client: &Client) -> Announcements {
        if client.server().era != Era::Modern {
            return Announcements::Legacy(client.notifications());
        }
        let capabilities = &client.server().capabilities;
        let announces = |declared: Option<bool>| declared.filter(|&yes| yes);
        let filter = SubscriptionFilter {
            tools_list_changed: announces(capabilities.tools.as_ref().and_then(|t| t.list_changed)),
            prompts_list_changed: announces(
                capabilities.prompts.as_ref().and_then(|p| p.list_changed),
            ),
            resources_list_changed: announces(
                capabilities.resources.as_ref().and_then(|r| r.list_changed),
            ),
            ..SubscriptionFilter::default()
        };
        if filter == SubscriptionFilter::default() {
            return Announcements::Silent;
        }
        match client.listen(filter) {
            Ok(subscription) => Announcements::Modern(subscription),
            Err(error) => {
                tracing::warn!(%error, "cannot ask the mounted server for its list changes");
                Announcements::Silent
            }
        }
    }

    /// The lists the next announcement makes stale; `None` once no more
    /// can come.
    async fn next(&mut self) -> Option<Lists> {
        loop {
            let event = match self {
                Announcements::Legacy(notices) => match notices.recv().await {
                    Ok(notice) => ListenEvent::of(notice),
                    Err(RecvError::Lagged(missed)) => Some(ListenEvent::Missed { missed }),
                    Err(RecvError::Closed) => return None,
                },
                Announcements::Modern(subscription) => Some(subscription.next().await?),
                Announcements::Silent => return None,
            };
            let stale = event.map_or(Lists::NONE, stale_after);
            if stale != Lists::NONE {
                return Some(stale);
            }
        }
    }
}

/// The lists `event` makes stale. An acknowledgement (a stream opened or
/// reopened) stands for whatever changed while none was open.
fn stale_after(event: ListenEvent) -> Lists {
    match event {
        ListenEvent::ToolsListChanged => Lists {
            tools: true,
            ..Lists::NONE
        },
        ListenEvent::PromptsListChanged => Lists {
            prompts: true,
            ..Lists::NONE
        },
        ListenEvent::ResourcesListChanged => Lists {
            resources: true,
            ..Lists::NONE
        },
        ListenEvent::Acknowledged(_) | ListenEvent::Missed { .. } => Lists::ALL,
        // A resource's content: reads are forwarded, nothing to mount.
        ListenEvent::ResourceUpdated { .. } => Lists::NONE,
    }
}

/// What is mounted, by key in the registry, each entry as the server
/// listed it.
#[derive(Default)]
struct Mirror {
    tools: BTreeMap<String, Tool>,
    prompts: BTreeMap<String, Prompt>,
    resources: BTreeMap<String, Resource>,
    templates: BTreeMap<String, ResourceTemplate>,
}

impl Mirror {
    /// What is mounted once `listed` is, and the batch that gets the
    /// registry there; no batch when nothing changed. A new entry whose
    /// key `registry` already serves is left out (without a registry,
    /// the batch fails on it instead).
    fn update(
        &self,
        client: &Client,
        prefix: &str,
        listed: Listed,
        registry: Option<&LiveRegistry>,
    ) -> (Mirror, Option<Batch>) {
        let taken = |names: fn(&LiveRegistry) -> Vec<String>| {
            let served = registry.map(names).unwrap_or_default();
            move |key: &str| served.iter().any(|name| name == key)
        };
        let mut changes = Changes::default();
        let tools = changes.kind(
            &self.tools,
            listed.tools,
            |tool| Some(mounted_name(prefix, &tool.name)),
            |tool| servable(client, prefix, tool),
            taken(LiveRegistry::tool_names),
            |batch, key| batch.remove_tool(key),
        );
        let prompts = changes.kind(
            &self.prompts,
            listed.prompts,
            |prompt| Some(mounted_name(prefix, &prompt.name)),
            |prompt| Some(Definition::Prompt(client.mounted_prompt(prefix, prompt))),
            taken(LiveRegistry::prompt_names),
            |batch, key| batch.remove_prompt(key),
        );
        let resources = changes.kind(
            &self.resources,
            listed.resources,
            |resource| prefixed_uri(prefix, &resource.uri),
            |resource| {
                client
                    .mounted_resource(prefix, resource)
                    .map(Definition::Resource)
            },
            taken(LiveRegistry::resource_uris),
            |batch, key| batch.remove_resource(key),
        );
        let templates = changes.kind(
            &self.templates,
            listed.templates,
            |template| prefixed_uri(prefix, &template.uri_template),
            |template| {
                client
                    .mounted_template(prefix, template)
                    .map(Definition::ResourceTemplate)
            },
            taken(LiveRegistry::resource_template_uris),
            |batch, key| batch.remove_resource_template(key),
        );
        let next = Mirror {
            tools,
            prompts,
            resources,
            templates,
        };
        (next, changes.changed.then_some(changes.batch))
    }
}

/// `tool` mounted under `prefix`, when the runtime can serve it (its name
/// within the limits once prefixed, its schemas compilable): one that
/// cannot would fail the whole batch, so each is tried alone first.
fn servable(client: &Client, prefix: &str, tool: Tool) -> Option<Definition> {
    let alone = Server::builder(crate::server_info!())
        .tool(client.mounted_tool(prefix, tool.clone()))
        .build();
    if let Err(error) = alone {
        tracing::warn!(tool = %tool.name, %error, "tool not mounted");
        return None;
    }
    Some(Definition::Tool(client.mounted_tool(prefix, tool)))
}

/// The batch being made from one reading of the lists.
#[derive(Default)]
struct Changes {
    batch: Batch,
    changed: bool,
}

impl Changes {
    /// Adds what takes one kind from `old` to `listed` (`None`: not read,
    /// kept as it is) and returns what is mounted of it then: `mount`
    /// makes each new or changed entry a definition (`None`: left out),
    /// added when new and replacing the old one when changed; `remove`
    /// takes out each one gone.
    fn kind<T: Clone + PartialEq>(
        &mut self,
        old: &BTreeMap<String, T>,
        listed: Option<Vec<T>>,
        key: impl Fn(&T) -> Option<String>,
        mount: impl Fn(T) -> Option<Definition>,
        taken: impl Fn(&str) -> bool,
        remove: fn(Batch, String) -> Batch,
    ) -> BTreeMap<String, T> {
        let Some(listed) = listed else {
            return old.clone();
        };
        let mut next = BTreeMap::new();
        for entry in listed {
            let Some(key) = key(&entry) else {
                continue;
            };
            if next.contains_key(&key) {
                tracing::warn!(%key, "not mounted: the server lists two entries of this name");
                continue;
            }
            let before = old.get(&key);
            if before == Some(&entry) {
                next.insert(key, entry);
                continue;
            }
            if before.is_none() && taken(&key) {
                tracing::warn!(%key, "not mounted: the registry already serves this name");
                continue;
            }
            let Some(definition) = mount(entry.clone()) else {
                continue;
            };
            let batch = std::mem::take(&mut self.batch);
            self.batch = match before {
                None => add(batch, definition),
                Some(_) => replace(batch, definition),
            };
            self.changed = true;
            next.insert(key, entry);
        }
        for gone in old.keys().filter(|key| !next.contains_key(*key)) {
            self.batch = remove(std::mem::take(&mut self.batch), gone.clone());
            self.changed = true;
        }
        next
    }
}

fn add(batch: Batch, definition: Definition) -> Batch {
    match definition {
        Definition::Tool(tool) => batch.add_tool(tool),
        Definition::Prompt(prompt) => batch.add_prompt(prompt),
        Definition::Resource(resource) => batch.add_resource(resource),
        Definition::ResourceTemplate(template) => batch.add_resource_template(template),
    }
}

fn replace(batch: Batch, definition: Definition) -> Batch {
    match definition {
        Definition::Tool(tool) => batch.replace_tool(tool),
        Definition::Prompt(prompt) => batch.replace_prompt(prompt),
        Definition::Resource(resource) => batch.replace_resource(resource),
        Definition::ResourceTemplate(template) => batch.replace_resource_template(template),
    }
}
