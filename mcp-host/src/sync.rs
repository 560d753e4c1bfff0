//! A lock that survives a panic elsewhere: the host's shared state stays
//! usable (a poisoned lock still holds a consistent value here, since every
//! writer replaces it whole).

use std::sync::{Mutex, MutexGuard, PoisonError};

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
