//! Collects every error found in one item, so that all are reported at once.

use proc_macro2::TokenStream;
use quote::ToTokens;

/// Errors found so far.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Records an error at `tokens`.
    pub fn at(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// The errors as `compile_error!` invocations (empty when none).
    pub fn into_compile_errors(self) -> TokenStream {
        self.0.map(|e| e.to_compile_error()).unwrap_or_default()
    }
}
