//! The gateway follows its servers: whenever the host's view of a server
//! changes (it listed the tools again after the server announced a change
//! or its `ttlMs` ran out, or it restarted the server), the gateway's
//! registry is brought in step with one batch, which tells the gateway's
//! own clients.

use std::sync::{Arc, Weak};

use mcp_toolkit_runtime::server::{BuildError, LiveRegistry, WeakLiveRegistry};
use tokio::sync::watch;

use super::GatewayOptions;
use super::tools::Served;
use crate::host::Host;
use crate::state::ServerState;

/// Serves every server's tools in `registry` as the host sees them now,
/// and keeps them in step from now on: one task per server, which holds
/// neither the host nor the registry, so that it ends with either.
pub(super) fn follow(
    host: &Arc<Host>,
    options: &Arc<GatewayOptions>,
    registry: &LiveRegistry,
) -> Result<(), BuildError> {
    for (server, slot) in &host.servers {
        let mut states = slot.state.follow();
        let now = states.borrow_and_update().clone();
        let mut served = Served::default();
        bring_in_step(&mut served, host, options, server, &now, registry)?;
        tokio::spawn(follow_server(
            Arc::downgrade(host),
            registry.downgrade(),
            options.clone(),
            server.clone(),
            states,
            served,
        ));
    }
    Ok(())
}

/// Brings `server`'s tools in `registry` from `served` to what `state`
/// lists, in one batch. A server that failed keeps what was served: a call
/// then reaches the failure (and restarts a stdio server that went away).
fn bring_in_step(
    served: &mut Served,
    host: &Arc<Host>,
    options: &Arc<GatewayOptions>,
    server: &str,
    state: &ServerState,
    registry: &LiveRegistry,
) -> Result<(), BuildError> {
    let ServerState::Ready { tools, .. } = state else {
        return Ok(());
    };
    if let Some((next, batch)) = served.update(host, options, server, tools) {
        registry.apply(batch)?;
        *served = next;
    }
    Ok(())
}

/// Follows one server's state until the host (whose state wakes it) or
/// the gateway (whose registry it changes) is gone.
async fn follow_server(
    host: Weak<Host>,
    registry: WeakLiveRegistry,
    options: Arc<GatewayOptions>,
    server: String,
    mut states: watch::Receiver<Arc<ServerState>>,
    mut served: Served,
) {
    while states.changed().await.is_ok() {
        let state = states.borrow_and_update().clone();
        let (Some(host), Some(registry)) = (host.upgrade(), registry.upgrade()) else {
            return;
        };
        if let Err(error) = bring_in_step(&mut served, &host, &options, &server, &state, &registry)
        {
            tracing::warn!(%server, %error, "the gateway's list of this server's tools stays as it was");
        }
    }
}
