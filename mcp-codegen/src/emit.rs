//! IR -> Rust tokens. Every path is absolute (`::std::...`, the runtime's
//! re-exported serde), so generated names can never shadow what the code
//! uses; docs become `#[doc = "..."]` string literals made safe by
//! [`crate::docs`].

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::docs::doc_attrs;
use crate::ir::{Field, Int, Kind, Presence, Ty, TypeDef, Types};

/// Name of the helper that keeps `null` apart from an absent field.
pub const SOME_HELPER: &str = "__mcp_codegen_deserialize_some";

/// Shared emitting context.
pub struct Emitter<'a> {
    /// The named types.
    pub types: &'a Types,
    /// The runtime crate path, e.g. `::mcp_runtime`.
    pub rt: TokenStream,
    /// The visibility of every item and field.
    pub vis: TokenStream,
}

/// Parses an identifier that may be raw (`r#type`).
pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

impl Emitter<'_> {
    /// The serde crate path inside the runtime's re-exports.
    pub fn serde(&self) -> TokenStream {
        let rt = &self.rt;
        quote!(#rt::reexports::serde)
    }

    /// The serde crate path as a string, for `#[serde(crate = "...")]`.
    fn serde_crate_attr(&self) -> TokenStream {
        let path = self.serde().to_string().replace(' ', "");
        quote!(#[serde(crate = #path)])
    }

    /// The tokens of a type expression.
    pub fn ty(&self, ty: &Ty) -> TokenStream {
        match ty {
            Ty::Bool => quote!(bool),
            Ty::Int(int) => {
                let name = match int {
                    Int::I8 => "i8",
                    Int::I16 => "i16",
                    Int::I32 => "i32",
                    Int::I64 => "i64",
                    Int::U8 => "u8",
                    Int::U16 => "u16",
                    Int::U32 => "u32",
                    Int::U64 => "u64",
                };
                let name = Ident::new(name, Span::call_site());
                quote!(#name)
            }
            Ty::F64 => quote!(f64),
            Ty::String => quote!(::std::string::String),
            Ty::Unit => quote!(()),
            Ty::Value => {
                let rt = &self.rt;
                quote!(#rt::reexports::serde_json::Value)
            }
            Ty::Named(id) => {
                let name = ident(&self.types.defs[*id].name);
                quote!(#name)
            }
            Ty::Option(inner) => {
                let inner = self.ty(inner);
                quote!(::std::option::Option<#inner>)
            }
            Ty::Vec(inner) => {
                let inner = self.ty(inner);
                quote!(::std::vec::Vec<#inner>)
            }
            Ty::Map(inner) => {
                let inner = self.ty(inner);
                quote!(::std::collections::BTreeMap<::std::string::String, #inner>)
            }
            Ty::Tuple(items) => {
                let items = items.iter().map(|t| self.ty(t));
                quote!((#(#items,)*))
            }
            Ty::Boxed(inner) => {
                let inner = self.ty(inner);
                quote!(::std::boxed::Box<#inner>)
            }
        }
    }

    fn derives(&self, extra: TokenStream) -> TokenStream {
        let serde = self.serde();
        let serde_crate = self.serde_crate_attr();
        quote! {
            #[derive(::std::fmt::Debug, ::std::clone::Clone, ::std::cmp::PartialEq, #extra #serde::Serialize, #serde::Deserialize)]
            #serde_crate
        }
    }

    /// Whether `ty` itself accepts `null` (so an optional field of it must
    /// keep a present `null` apart from an absent field).
    fn absorbs_null(&self, ty: &Ty, depth: usize) -> bool {
        match ty {
            Ty::Unit | Ty::Value | Ty::Option(_) => true,
            Ty::Boxed(inner) => self.absorbs_null(inner, depth + 1),
            Ty::Named(id) if depth < 16 => match &self.types.defs[*id].kind {
                Kind::Alias(inner) | Kind::Newtype(inner) => self.absorbs_null(inner, depth + 1),
                Kind::Untagged(variants) => variants
                    .iter()
                    .any(|(_, t)| self.absorbs_null(t, depth + 1)),
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether the field is deserialized with the helper that maps a present
    /// `null` to `Some`.
    fn uses_some_helper(&self, f: &Field) -> bool {
        match f.presence {
            Presence::Required => false,
            Presence::Optional => self.absorbs_null(&f.ty, 0),
            Presence::OptionalNullable => true,
        }
    }

    /// Whether any field anywhere needs the `null`-versus-absent helper.
    pub fn needs_some_helper(&self) -> bool {
        self.types.defs.iter().any(|def| match &def.kind {
            Kind::Struct { fields, .. } => fields.iter().any(|f| self.uses_some_helper(f)),
            _ => false,
        })
    }

    /// The helper that deserializes a present field (even `null`) as `Some`.
    pub fn some_helper(&self) -> TokenStream {
        let serde = self.serde();
        let name = format_ident!("{}", SOME_HELPER);
        quote! {
            fn #name<'de, D, T>(deserializer: D) -> ::std::result::Result<::std::option::Option<T>, D::Error>
            where
                D: #serde::Deserializer<'de>,
                T: #serde::Deserialize<'de>,
            {
                <T as #serde::Deserialize<'de>>::deserialize(deserializer).map(::std::option::Option::Some)
            }
        }
    }

    /// The item(s) of one named type.
    pub fn def(&self, def: &TypeDef) -> TokenStream {
        let name = ident(&def.name);
        let docs = doc_attrs(&def.docs);
        let vis = &self.vis;
        match &def.kind {
            Kind::Alias(ty) => {
                let ty = self.ty(ty);
                quote! { #docs #vis type #name = #ty; }
            }
            Kind::Newtype(ty) => {
                let derives = self.derives(quote!());
                let ty = self.ty(ty);
                quote! {
                    #docs #derives
                    #[serde(transparent)]
                    #vis struct #name(#vis #ty);
                }
            }
            Kind::Struct {
                fields,
                deny_unknown,
                extra,
            } => {
                let all_optional = fields.iter().all(|f| f.presence != Presence::Required);
                let derives = self.derives(if all_optional {
                    quote!(::std::default::Default,)
                } else {
                    quote!()
                });
                let deny = deny_unknown.then(|| quote!(#[serde(deny_unknown_fields)]));
                let fields = fields.iter().map(|f| self.field(f));
                let extra = extra.as_ref().map(|(field, ty)| {
                    let field = ident(field);
                    let ty = self.ty(&Ty::Map(Box::new(ty.clone())));
                    quote! {
                        #[doc = " Properties beyond the declared ones."]
                        #[serde(flatten)]
                        #vis #field: #ty,
                    }
                });
                quote! {
                    #docs #derives #deny
                    #vis struct #name {
                        #(#fields)*
                        #extra
                    }
                }
            }
            Kind::StringEnum(variants) => {
                let derives = self.derives(quote!(
                    ::std::marker::Copy,
                    ::std::cmp::Eq,
                    ::std::hash::Hash,
                ));
                let variants = variants.iter().map(|(v, wire)| {
                    let v = ident(v);
                    quote!(#[serde(rename = #wire)] #v,)
                });
                quote! {
                    #docs #derives
                    #vis enum #name { #(#variants)* }
                }
            }
            Kind::IntEnum(variants) => self.int_enum(def, variants),
            Kind::Tagged { tag, variants } => {
                let derives = self.derives(quote!());
                let variants = variants.iter().map(|v| {
                    let docs = doc_attrs(&v.docs);
                    let ident = ident(&v.ident);
                    let wire = &v.tag_value;
                    match v.payload {
                        Some(id) => {
                            let payload = ident_of(self.types, id);
                            quote!(#docs #[serde(rename = #wire)] #ident(#payload),)
                        }
                        None => quote!(#docs #[serde(rename = #wire)] #ident,),
                    }
                });
                quote! {
                    #docs #derives
                    #[serde(tag = #tag)]
                    #vis enum #name { #(#variants)* }
                }
            }
            Kind::Untagged(variants) => {
                let derives = self.derives(quote!());
                let variants = variants.iter().map(|(v, ty)| {
                    let v = ident(v);
                    let ty = self.ty(ty);
                    quote!(#v(#ty),)
                });
                quote! {
                    #docs #derives
                    #[serde(untagged)]
                    #vis enum #name { #(#variants)* }
                }
            }
        }
    }

    fn field(&self, f: &Field) -> TokenStream {
        let docs = doc_attrs(&f.docs);
        let name = ident(&f.ident);
        let vis = &self.vis;
        let wire = &f.wire;
        let rename =
            (crate::naming::unraw(&f.ident) != f.wire).then(|| quote!(#[serde(rename = #wire)]));
        let inner = self.ty(&f.ty);
        let ty = match f.presence {
            Presence::Required => inner,
            Presence::Optional => quote!(::std::option::Option<#inner>),
            Presence::OptionalNullable => {
                quote!(::std::option::Option<::std::option::Option<#inner>>)
            }
        };
        let attrs = match (f.presence, self.uses_some_helper(f)) {
            (Presence::Required, _) => quote!(),
            (_, false) => {
                quote!(#[serde(default, skip_serializing_if = "::std::option::Option::is_none")])
            }
            (_, true) => {
                quote!(#[serde(default, skip_serializing_if = "::std::option::Option::is_none", deserialize_with = #SOME_HELPER)])
            }
        };
        quote! { #docs #rename #attrs #vis #name: #ty, }
    }

    fn int_enum(&self, def: &TypeDef, variants: &[(String, i64)]) -> TokenStream {
        let name = ident(&def.name);
        let docs = doc_attrs(&def.docs);
        let vis = &self.vis;
        let derives = self.derives(quote!(
            ::std::marker::Copy,
            ::std::cmp::Eq,
            ::std::hash::Hash,
        ));
        let idents: Vec<Ident> = variants.iter().map(|(v, _)| ident(v)).collect();
        let values: Vec<i64> = variants.iter().map(|(_, n)| *n).collect();
        let variant_docs = values.iter().map(|n| format!(" `{n}`"));
        let expected = values
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let message = format!("{{}} is not one of {expected}");
        quote! {
            #docs #derives
            #[serde(try_from = "i64", into = "i64")]
            #vis enum #name { #(#[doc = #variant_docs] #idents,)* }

            impl ::std::convert::TryFrom<i64> for #name {
                type Error = ::std::string::String;
                fn try_from(value: i64) -> ::std::result::Result<Self, Self::Error> {
                    match value {
                        #(#values => ::std::result::Result::Ok(Self::#idents),)*
                        other => ::std::result::Result::Err(::std::format!(#message, other)),
                    }
                }
            }

            impl ::std::convert::From<#name> for i64 {
                fn from(value: #name) -> i64 {
                    match value { #(#name::#idents => #values,)* }
                }
            }
        }
    }
}

fn ident_of(types: &Types, id: usize) -> Ident {
    ident(&types.defs[id].name)
}
