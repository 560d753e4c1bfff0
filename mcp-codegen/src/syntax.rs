//! Small constructors for the `syn` syntax tree of the generated module.
//!
//! Items are built as syntax trees and handed to prettyplease directly:
//! quoting them into tokens and parsing those back took two thirds of the
//! time for a large `tools/list`. Only what is written once per module (or
//! per integer enum) still goes through tokens, see [`parse_tokens`].

use proc_macro2::{Ident, Literal, Span, TokenStream};
use syn::punctuated::Punctuated;
use syn::{
    AngleBracketedGenericArguments, AttrStyle, Attribute, Expr, ExprLit, GenericArgument, Lit,
    LitStr, MacroDelimiter, Meta, MetaList, MetaNameValue, Path, PathArguments, PathSegment, Type,
    TypePath, TypeTuple,
};

use crate::error::Error;

/// An identifier, raw when written `r#name`.
pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// A path without generics, written like `::std::option::Option` or `bool`.
pub fn path(text: &str) -> Path {
    match text.strip_prefix("::") {
        Some(rest) => Path {
            leading_colon: Some(Default::default()),
            segments: segments(rest),
        },
        None => Path {
            leading_colon: None,
            segments: segments(text),
        },
    }
}

/// `base::tail`, e.g. the runtime's path joined with `client::Client`.
pub fn join(base: &Path, tail: &str) -> Path {
    let mut joined = base.clone();
    joined.segments.extend(segments(tail));
    joined
}

fn segments(text: &str) -> Punctuated<PathSegment, syn::Token![::]> {
    text.split("::")
        .map(|s| PathSegment::from(ident(s)))
        .collect()
}

/// The type named by `path`.
pub fn type_path(path: Path) -> Type {
    Type::Path(TypePath {
        attrs: Vec::new(),
        qself: None,
        path,
    })
}

/// The type `path<args>`.
pub fn generic(mut path: Path, args: impl IntoIterator<Item = Type>) -> Type {
    if let Some(last) = path.segments.last_mut() {
        last.arguments = PathArguments::AngleBracketed(AngleBracketedGenericArguments {
            colon2_token: None,
            lt_token: Default::default(),
            args: args.into_iter().map(GenericArgument::Type).collect(),
            gt_token: Default::default(),
        });
    }
    type_path(path)
}

/// The tuple type `(elems...)`; `()` when empty.
pub fn tuple(elems: impl IntoIterator<Item = Type>) -> Type {
    Type::Tuple(TypeTuple {
        attrs: Vec::new(),
        paren_token: Default::default(),
        elems: elems.into_iter().collect(),
    })
}

/// The string literal `"value"`, escaped by the rule of [`crate::text`].
pub fn str_lit(value: &str) -> LitStr {
    let source = crate::text::string_literal_source(value);
    let token: Literal = source
        .parse()
        .expect("an escaped string literal always lexes");
    match Lit::new(token) {
        Lit::Str(lit) => lit,
        _ => unreachable!("the source is a string literal"),
    }
}

/// The string literal expression `"value"`.
pub fn lit_str(value: &str) -> Expr {
    Expr::Lit(ExprLit {
        attrs: Vec::new(),
        lit: Lit::Str(str_lit(value)),
    })
}

/// `#[doc = "text"]`.
pub fn doc(text: &str) -> Attribute {
    outer(Meta::NameValue(MetaNameValue {
        path: path("doc"),
        eq_token: Default::default(),
        value: lit_str(text),
    }))
}

/// `#[name(tokens)]`, e.g. `#[serde(rename = "x")]`.
pub fn list_attr(name: &str, tokens: TokenStream) -> Attribute {
    outer(Meta::List(MetaList {
        path: path(name),
        delimiter: MacroDelimiter::Paren(Default::default()),
        tokens,
    }))
}

fn outer(meta: Meta) -> Attribute {
    Attribute {
        pound_token: Default::default(),
        style: AttrStyle::Outer,
        bracket_token: Default::default(),
        meta,
    }
}

/// Parses quoted tokens as a syntax tree node; for the few items written once
/// per module, where quoting reads better than building the tree.
pub fn parse_tokens<T: syn::parse::Parse>(tokens: TokenStream) -> Result<T, Error> {
    syn::parse2(tokens).map_err(|e| Error::Internal(e.to_string()))
}
