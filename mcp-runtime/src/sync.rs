//! Locks that outlive a panicking holder. Every critical section in this
//! crate leaves its data consistent at each step (an insert, a remove, a
//! field update), so a lock poisoned by a panicking handler is taken over
//! instead of spreading the panic to every later request.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, recovering it if a holder panicked.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
