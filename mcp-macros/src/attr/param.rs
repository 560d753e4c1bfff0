//! The options of one parameter: `#[mcp(...)]` and `#[serde(rename)]`.

use syn::LitStr;
use syn::meta::ParseNestedMeta;

use super::{Once, key_of, parse_options, unknown};
use crate::errors::Errors;

const PARAM_OPTIONS: &[&str] = &["rename", "description", "header"];

/// Where a parameter's options are, for messages: `#[mcp(rename)]` and
/// `#[serde(rename)]` set the same name, so giving both is a duplicate.
const PLACE: &str = "this parameter's `#[mcp]` and `#[serde]` attributes";

/// What the attributes of one parameter say.
#[derive(Default)]
pub struct ParamOptions {
    pub rename: Once<LitStr>,
    pub description: Once<LitStr>,
    pub header: Once<LitStr>,
}

impl ParamOptions {
    /// Reads `#[mcp(...)]` and `#[serde(rename = "...")]`, removing them
    /// (and doc comments) from `attrs`: rustc rejects unknown attributes on
    /// parameters.
    pub fn take(attrs: &mut Vec<syn::Attribute>, errors: &mut Errors) -> Self {
        let mut options = ParamOptions::default();
        attrs.retain(|attr| {
            let serde = attr.path().is_ident("serde");
            if !serde && !attr.path().is_ident("mcp") {
                return !attr.path().is_ident("doc");
            }
            match attr.meta.require_list() {
                Ok(list) => parse_options(list.tokens.clone(), errors, |meta, errors| {
                    if serde {
                        options.serde_option(meta, errors)
                    } else {
                        options.option(meta, errors)
                    }
                }),
                Err(error) => errors.push(error),
            }
            false
        });
        options
    }

    fn option(&mut self, meta: &ParseNestedMeta, errors: &mut Errors) -> syn::Result<()> {
        let key = key_of(meta);
        let slot = match key.as_str() {
            "rename" => &mut self.rename,
            "description" => &mut self.description,
            "header" => &mut self.header,
            _ => return Err(unknown(meta, "#[mcp] on a parameter", PARAM_OPTIONS)),
        };
        let value = meta.value()?.parse()?;
        slot.set(&meta.path, &key, PLACE, value, errors);
        Ok(())
    }

    fn serde_option(&mut self, meta: &ParseNestedMeta, errors: &mut Errors) -> syn::Result<()> {
        if !meta.path.is_ident("rename") {
            return Err(meta.error(
                "only `#[serde(rename = \"...\")]` applies to a parameter; put other serde attributes on a struct parameter's fields",
            ));
        }
        let value = meta.value()?.parse()?;
        self.rename.set(&meta.path, "rename", PLACE, value, errors);
        Ok(())
    }
}
