//! Type-erased async handlers, shared by tools, resources and prompts.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// A boxed, sendable future.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// An async function from `In` to `Out`, stored behind an `Arc` so that a
/// registry can be shared by every request without copying.
pub(crate) type Handler<In, Out> = Arc<dyn Fn(In) -> BoxFuture<Out> + Send + Sync>;

/// Erases an async closure into a [`Handler`].
pub(crate) fn erase<In, Out, F, Fut>(f: F) -> Handler<In, Out>
where
    F: Fn(In) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Out> + Send + 'static,
{
    Arc::new(move |input| Box::pin(f(input)))
}

/// Runs `future`, turning a panic inside it into `Err(message)` so that one
/// faulty handler fails only its own request.
pub(crate) async fn catch_panic<T>(mut future: BoxFuture<T>) -> Result<T, String> {
    std::future::poll_fn(move |cx| poll_catching(future.as_mut(), cx)).await
}

/// Polls `future` once, turning a panic inside it into `Err(message)`: for
/// a future that is polled by hand (its owner must not poll it again after
/// a panic).
pub(crate) fn poll_catching<F: Future + ?Sized>(
    future: Pin<&mut F>,
    cx: &mut Context<'_>,
) -> Poll<Result<F::Output, String>> {
    match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
        Ok(Poll::Pending) => Poll::Pending,
        Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
        Err(payload) => Poll::Ready(Err(panic_message(&*payload))),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "handler panicked".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_future_becomes_an_error() {
        let handler: Handler<u32, u32> = erase(|n: u32| async move {
            if n == 0 {
                panic!("zero is not allowed");
            }
            n * 2
        });
        assert_eq!(catch_panic(handler(4)).await, Ok(8));
        assert_eq!(
            catch_panic(handler(0)).await,
            Err("zero is not allowed".to_owned())
        );
    }
}
