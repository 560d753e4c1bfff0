//! Collects every error found in one item, so that all are reported at once.
//!
//! As serde_derive's `Ctxt`: an [`Errors`] must be ended with
//! [`Errors::check`], which hands the errors over. One dropped without it
//! would lose them and the macro would expand a broken item as if it were
//! fine, so that drop panics: the bug shows as "proc macro panicked" at the
//! first item that takes the forgotten path, never as silent success.

use quote::ToTokens;

/// Errors found so far; end it with [`Errors::check`].
#[must_use = "end it with `check()`, or its errors are lost (dropping it panics)"]
#[derive(Default)]
pub struct Errors {
    found: Option<syn::Error>,
    /// Set by [`Errors::check`]; dropping it while false is a bug.
    checked: bool,
}

impl Errors {
    /// Records an error at `tokens`.
    pub fn at(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.found {
            Some(all) => all.combine(error),
            None => self.found = Some(error),
        }
    }

    /// Ends the collection: `Ok` when nothing was found, else every error
    /// combined into one (`to_compile_error` emits them all).
    pub fn check(mut self) -> Result<(), syn::Error> {
        self.checked = true;
        self.found.take().map_or(Ok(()), Err)
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        // While unwinding from another panic, a second one would abort and
        // hide the first.
        if !self.checked && !std::thread::panicking() {
            panic!(
                "mcp-toolkit-macros bug: an `Errors` was dropped without `check()`, losing its errors"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;

    use super::Errors;

    #[test]
    #[should_panic(expected = "dropped without `check()`")]
    fn dropping_an_unchecked_collection_panics() {
        let mut errors = Errors::default();
        errors.push(syn::Error::new(Span::call_site(), "lost"));
        drop(errors);
    }

    #[test]
    #[should_panic(expected = "dropped without `check()`")]
    fn dropping_an_unchecked_empty_collection_panics_too() {
        drop(Errors::default());
    }

    #[test]
    fn checking_hands_over_every_error_without_panicking() {
        assert!(Errors::default().check().is_ok());

        let mut errors = Errors::default();
        errors.push(syn::Error::new(Span::call_site(), "first"));
        errors.at(quote::quote!(x), "second");
        let found = errors.check().expect_err("two errors were recorded");
        let messages: Vec<String> = found.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages, ["first", "second"]);
    }
}
