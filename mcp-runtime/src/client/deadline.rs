//! The client's time limits, which do not count the time a user spends
//! authorizing in a browser (OAuth's authorization code flow): a limit
//! that runs out meanwhile starts again once the user is done.

use std::future::Future;
use std::time::Duration;

use super::Inner;
use super::link::Link;
use crate::lifetime::bounded;

/// How often a limit that ran out during the user's step looks again.
const RECHECK: Duration = Duration::from_millis(250);

/// The limit ran out.
pub(crate) struct Elapsed;

impl Inner {
    /// Whether the user is authorizing this client right now.
    fn user_is_authorizing(&self) -> bool {
        match &self.link {
            Link::Http(http) => http.user_is_authorizing(),
            Link::Lines(_) => false,
        }
    }

    /// Runs `future` for at most `limit` (at most a year), not counting the
    /// user's time.
    pub(crate) async fn within<F: Future>(
        &self,
        limit: Duration,
        future: F,
    ) -> Result<F::Output, Elapsed> {
        tokio::pin!(future);
        let limit = bounded(limit);
        let mut deadline = tokio::time::Instant::now() + limit;
        let mut waited_for_user = false;
        loop {
            tokio::select! {
                output = &mut future => return Ok(output),
                () = tokio::time::sleep_until(deadline) => {}
            }
            if self.user_is_authorizing() {
                waited_for_user = true;
                deadline = tokio::time::Instant::now() + RECHECK;
            } else if waited_for_user {
                // The user is done: what follows gets the whole limit.
                waited_for_user = false;
                deadline = tokio::time::Instant::now() + limit;
            } else {
                return Err(Elapsed);
            }
        }
    }
}
