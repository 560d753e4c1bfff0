//! IR -> syntax tree items. Every path is absolute (`::std::...`, the
//! runtime's re-exported serde), so generated names can never shadow what
//! the code uses; docs become `#[doc = "..."]` string literals made safe by
//! [`crate::docs`].

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::{
    Attribute, Fields, FieldsNamed, FieldsUnnamed, Item, ItemEnum, ItemStruct, ItemType, Path,
    Type, Variant, VisRestricted, Visibility,
};

use crate::docs::doc_attrs;
use crate::error::Error;
use crate::ir::{Field, Int, Kind, Presence, TaggedVariant, Ty, TypeDef, TypeId, Types};
use crate::naming::unraw;
use crate::options::{self, Derives};
use crate::syntax::{
    doc, generic, ident, join, list_attr, parse_tokens, path, str_lit, tuple, type_path,
};
use crate::usage::Usage;

/// Name of the helper that keeps `null` apart from an absent field.
pub const SOME_HELPER: &str = "__mcp_codegen_deserialize_some";

/// Shared emitting context, with the attributes every type repeats built
/// once.
pub struct Emitter<'a> {
    /// The named types.
    pub types: &'a Types,
    /// The runtime crate path, e.g. `::mcp_toolkit_runtime`.
    pub rt: Path,
    /// The visibility of every item and field.
    pub vis: Visibility,
    /// The runtime's re-exported serde.
    serde: Path,
    /// The serde directions of each type, by [`TypeId`].
    usage: Vec<Usage>,
    /// The derive attribute of each [`Shape`] and [`Usage`], built once:
    /// indexed by `[shape][serialize][deserialize]`.
    derives: [[[Attribute; 2]; 2]; 3],
    /// `#[serde(crate = "...")]`, pointing serde's derives at the re-export.
    serde_crate: Attribute,
    /// The serde attribute of an optional field of a deserialized struct.
    optional: Attribute,
    /// The same for a field that keeps a present `null` apart from absent.
    optional_some: Attribute,
}

/// What a type's shape adds to its derives.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// Nothing.
    Plain,
    /// `Default`: a struct whose fields are all optional.
    AllOptional,
    /// `Copy` (and `Eq`, `Hash` with every derive): a fieldless enum.
    Fieldless,
}

impl Shape {
    /// Every shape, in declaration order: `Emitter::derives` is built from
    /// this list and indexed by `shape as usize`.
    const ALL: [Shape; 3] = [Shape::Plain, Shape::AllOptional, Shape::Fieldless];
}

/// The syntax of a visibility option.
pub fn visibility(visibility: options::Visibility) -> Visibility {
    match visibility {
        options::Visibility::Public => Visibility::Public(Default::default()),
        options::Visibility::Crate => Visibility::Restricted(VisRestricted {
            pub_token: Default::default(),
            paren_token: Default::default(),
            in_token: None,
            path: Box::new(path("crate")),
        }),
        options::Visibility::Private => Visibility::Inherited,
    }
}

impl<'a> Emitter<'a> {
    /// An emitter for `types` with the runtime at `rt`, deriving the serde
    /// directions `usage` gives each type, and the comparisons when
    /// `derives` asks for every trait.
    pub fn new(
        types: &'a Types,
        usage: Vec<Usage>,
        derives: Derives,
        rt: Path,
        vis: Visibility,
    ) -> Self {
        let serde = join(&rt, "reexports::serde");
        let all = derives == Derives::All;
        let derive = |shape: Shape, serialize: bool, deserialize: bool| {
            let mut traits = vec![quote!(::std::fmt::Debug), quote!(::std::clone::Clone)];
            if all {
                traits.push(quote!(::std::cmp::PartialEq));
            }
            match shape {
                Shape::Plain => {}
                Shape::AllOptional => traits.push(quote!(::std::default::Default)),
                Shape::Fieldless => {
                    traits.push(quote!(::std::marker::Copy));
                    if all {
                        traits.extend([quote!(::std::cmp::Eq), quote!(::std::hash::Hash)]);
                    }
                }
            }
            if serialize {
                traits.push(quote!(#serde::Serialize));
            }
            if deserialize {
                traits.push(quote!(#serde::Deserialize));
            }
            list_attr("derive", quote!(#(#traits),*))
        };
        let derives = Shape::ALL.map(|shape| {
            [false, true].map(|serialize| [false, true].map(|de| derive(shape, serialize, de)))
        });
        let serde_crate = quote!(#serde).to_string().replace(' ', "");
        Emitter {
            types,
            usage,
            derives,
            serde_crate: list_attr("serde", quote!(crate = #serde_crate)),
            optional: list_attr("serde", quote!(default)),
            optional_some: list_attr("serde", quote!(default, deserialize_with = #SOME_HELPER)),
            serde,
            rt,
            vis,
        }
    }

    /// The type named `name` (a generated type's identifier).
    pub fn named(&self, name: &str) -> Type {
        type_path(Path::from(ident(name)))
    }

    /// A type expression.
    pub fn ty(&self, ty: &Ty) -> Type {
        match ty {
            Ty::Bool => type_path(path("bool")),
            Ty::Int(int) => type_path(path(match int {
                Int::I8 => "i8",
                Int::I16 => "i16",
                Int::I32 => "i32",
                Int::I64 => "i64",
                Int::U8 => "u8",
                Int::U16 => "u16",
                Int::U32 => "u32",
                Int::U64 => "u64",
            })),
            Ty::F64 => type_path(path("f64")),
            Ty::String => string(),
            Ty::Unit => tuple([]),
            Ty::Value => type_path(join(&self.rt, "reexports::serde_json::Value")),
            Ty::Named(id) => self.named(&self.types.defs[*id].name),
            Ty::Option(inner) => option(self.ty(inner)),
            Ty::Vec(inner) => generic(path("::std::vec::Vec"), [self.ty(inner)]),
            Ty::Map(inner) => map(self.ty(inner)),
            Ty::Tuple(items) => tuple(items.iter().map(|t| self.ty(t))),
            Ty::Boxed(inner) => generic(path("::std::boxed::Box"), [self.ty(inner)]),
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
    /// `null` to `Some` (when its struct derives `Deserialize`).
    fn uses_some_helper(&self, f: &Field) -> bool {
        match f.presence {
            Presence::Required => false,
            Presence::Optional => self.absorbs_null(&f.ty, 0),
            Presence::OptionalNullable => true,
        }
    }

    /// Whether any field anywhere needs the `null`-versus-absent helper.
    pub fn needs_some_helper(&self) -> bool {
        let usages = self.usage.iter().copied();
        self.types
            .defs
            .iter()
            .zip(usages)
            .any(|(def, usage)| match &def.kind {
                Kind::Struct { fields, .. } => {
                    usage.deserialize && fields.iter().any(|f| self.uses_some_helper(f))
                }
                _ => false,
            })
    }

    /// The helper that deserializes a present field (even `null`) as `Some`.
    pub fn some_helper(&self) -> Result<Item, Error> {
        let serde = &self.serde;
        let name = format_ident!("{}", SOME_HELPER);
        parse_tokens(quote! {
            fn #name<'de, D, T>(deserializer: D) -> ::std::result::Result<::std::option::Option<T>, D::Error>
            where
                D: #serde::Deserializer<'de>,
                T: #serde::Deserialize<'de>,
            {
                <T as #serde::Deserialize<'de>>::deserialize(deserializer).map(::std::option::Option::Some)
            }
        })
    }

    /// The derive attribute of a type of this shape and usage.
    fn derive(&self, shape: Shape, usage: Usage) -> &Attribute {
        &self.derives[shape as usize][usize::from(usage.serialize)][usize::from(usage.deserialize)]
    }

    /// Appends the item(s) of the named type `id` to `out`.
    pub fn def(&self, id: TypeId, out: &mut Vec<Item>) -> Result<(), Error> {
        let def = &self.types.defs[id];
        let usage = self.usage[id];
        let docs = doc_attrs(&def.docs);
        let item = match &def.kind {
            Kind::Alias(target) => Item::Type(ItemType {
                attrs: docs,
                vis: self.vis.clone(),
                modifiers: Default::default(),
                type_token: Default::default(),
                ident: ident(&def.name),
                generics: Default::default(),
                eq_token: Default::default(),
                ty: Box::new(self.ty(target)),
                semi_token: Default::default(),
                where_clause_placement: syn::WhereClausePlacement::Early,
            }),
            Kind::Newtype(inner) => {
                let derive = self.derive(Shape::Plain, usage);
                let attrs = self.with_derives(docs, derive, true, [serde("transparent")]);
                let field = self.field_of(Vec::new(), None, self.ty(inner));
                self.struct_item(
                    def,
                    attrs,
                    Fields::Unnamed(FieldsUnnamed {
                        paren_token: Default::default(),
                        unnamed: Punctuated::from_iter([field]),
                    }),
                )
            }
            Kind::Struct {
                fields,
                deny_unknown,
                extra,
            } => {
                let all_optional = fields.iter().all(|f| f.presence != Presence::Required);
                let shape = if all_optional {
                    Shape::AllOptional
                } else {
                    Shape::Plain
                };
                // `Serialize` is written by hand below; serde's derive and
                // attributes are there only to deserialize.
                let de = usage.deserialize;
                let derive = self.derive(shape, hand_serialized(usage));
                let deny = (*deny_unknown && de).then(|| serde("deny_unknown_fields"));
                let attrs = self.with_derives(docs, derive, de, deny);
                let mut named: Punctuated<syn::Field, syn::Token![,]> =
                    fields.iter().map(|f| self.field(f, de)).collect();
                if let Some((field, value)) = extra {
                    let mut attrs = vec![doc(" Properties beyond the declared ones.")];
                    attrs.extend(de.then(|| serde("flatten")));
                    named.push(self.field_of(attrs, Some(field), map(self.ty(value))));
                }
                out.push(self.struct_item(
                    def,
                    attrs,
                    Fields::Named(FieldsNamed {
                        brace_token: Default::default(),
                        named,
                    }),
                ));
                if usage.serialize {
                    out.push(self.serialize_struct(def, fields, extra.as_ref())?);
                }
                return Ok(());
            }
            Kind::StringEnum(variants) => {
                // As for structs, `Serialize` is written by hand below.
                let de = usage.deserialize;
                let derive = self.derive(Shape::Fieldless, hand_serialized(usage));
                let attrs = self.with_derives(docs, derive, de, []);
                let items = variants.iter().map(|(v, wire)| {
                    let renamed = de.then(|| rename(wire));
                    variant(renamed.into_iter().collect(), v, None)
                });
                out.push(self.enum_item(def, attrs, items));
                if usage.serialize {
                    out.push(self.serialize_string_enum(def, variants)?);
                }
                return Ok(());
            }
            Kind::IntEnum(variants) => return self.int_enum(def, usage, docs, variants, out),
            Kind::Tagged { tag, variants } => {
                // As for structs, `Serialize` is written by hand below.
                let de = usage.deserialize;
                let derive = self.derive(Shape::Plain, hand_serialized(usage));
                let tag_lit = str_lit(tag);
                let tag_attr = list_attr("serde", quote!(tag = #tag_lit));
                let attrs = self.with_derives(docs, derive, de, [tag_attr]);
                let items = variants.iter().map(|v| {
                    let mut attrs = doc_attrs(&v.docs);
                    attrs.extend(de.then(|| rename(&v.tag_value)));
                    let payload = v.payload.map(|id| self.named(&self.types.defs[id].name));
                    variant(attrs, &v.ident, payload)
                });
                out.push(self.enum_item(def, attrs, items));
                if usage.serialize {
                    out.push(self.serialize_tagged(def, tag, variants)?);
                }
                return Ok(());
            }
            Kind::Untagged(variants) => {
                let derive = self.derive(Shape::Plain, usage);
                let attrs = self.with_derives(docs, derive, true, [serde("untagged")]);
                let variants = variants
                    .iter()
                    .map(|(v, t)| variant(Vec::new(), v, Some(self.ty(t))));
                self.enum_item(def, attrs, variants)
            }
        };
        out.push(item);
        Ok(())
    }

    /// `docs`, then the derive and, when it derives a serde trait, the serde
    /// crate attribute and `more`.
    fn with_derives(
        &self,
        mut docs: Vec<Attribute>,
        derive: &Attribute,
        serde_derived: bool,
        more: impl IntoIterator<Item = Attribute>,
    ) -> Vec<Attribute> {
        docs.push(derive.clone());
        if serde_derived {
            docs.push(self.serde_crate.clone());
            docs.extend(more);
        }
        docs
    }

    /// `impl Serialize` for a string enum: each variant's string, through
    /// one `serialize_str` (serde's derive writes a call per variant).
    fn serialize_string_enum(
        &self,
        def: &TypeDef,
        variants: &[(String, String)],
    ) -> Result<Item, Error> {
        let arms = variants.iter().map(|(v, wire)| {
            let v = ident(v);
            let wire = str_lit(wire);
            quote!(Self::#v => #wire)
        });
        self.serialize_impl(
            def,
            quote! {
                let value = match self {
                    #(#arms,)*
                };
                serializer.serialize_str(value)
            },
        )
    }

    /// `impl Serialize` for an internally tagged union: each variant's tag
    /// and struct, handed to the runtime's shared `codegen::serialize_tagged`
    /// (serde's derive writes a body per variant).
    fn serialize_tagged(
        &self,
        def: &TypeDef,
        tag: &str,
        variants: &[TaggedVariant],
    ) -> Result<Item, Error> {
        let codegen = join(&self.rt, "codegen");
        let tag = str_lit(tag);
        // `Option` by its full path: a server may name a type `Some`.
        let arms = variants.iter().map(|v| {
            let variant = ident(&v.ident);
            let value = str_lit(&v.tag_value);
            match v.payload {
                Some(_) => quote! {
                    Self::#variant(content) => Tagged(#value, ::std::option::Option::Some(content))
                },
                None => quote!(Self::#variant => Tagged(#value, ::std::option::Option::None)),
            }
        });
        self.serialize_impl(
            def,
            quote! {
                use #codegen::Tagged;
                let variant = match self {
                    #(#arms,)*
                };
                #codegen::serialize_tagged(serializer, #tag, variant)
            },
        )
    }

    /// `impl Serialize` for a struct: its properties, in order, handed to
    /// the runtime's shared `codegen::serialize_struct` (or
    /// `serialize_struct_and_map` with a map of further properties).
    fn serialize_struct(
        &self,
        def: &TypeDef,
        fields: &[Field],
        extra: Option<&(String, Ty)>,
    ) -> Result<Item, Error> {
        let codegen = join(&self.rt, "codegen");
        let properties = fields.iter().map(|f| {
            let field = ident(&f.ident);
            let wire = str_lit(&f.wire);
            match f.presence {
                Presence::Required => quote!(Required(#wire, &self.#field)),
                Presence::Optional | Presence::OptionalNullable => {
                    quote!(Optional(#wire, &self.#field))
                }
            }
        });
        // The variants the list uses, imported by their short names (the
        // body mentions nothing else, so nothing can clash with them).
        let required = fields.iter().any(|f| f.presence == Presence::Required);
        let optional = fields.iter().any(|f| f.presence != Presence::Required);
        let names: Vec<TokenStream> = [(required, quote!(Required)), (optional, quote!(Optional))]
            .into_iter()
            .filter_map(|(used, name)| used.then_some(name))
            .collect();
        let imports = match names.is_empty() {
            true => quote!(),
            false => quote!(use #codegen::Property::{#(#names),*};),
        };
        let body = match extra {
            None => {
                let type_name = str_lit(unraw(&def.name));
                quote!(#codegen::serialize_struct(serializer, #type_name, &[#(#properties),*]))
            }
            Some((field, _)) => {
                let field = ident(field);
                quote!(#codegen::serialize_struct_and_map(serializer, &[#(#properties),*], &self.#field))
            }
        };
        self.serialize_impl(def, quote!(#imports #body))
    }

    /// `impl Serialize for` the type `def`, with `body` as the body of its
    /// `serialize` (which names its serializer `serializer`).
    fn serialize_impl(&self, def: &TypeDef, body: TokenStream) -> Result<Item, Error> {
        let serde = &self.serde;
        let name = ident(&def.name);
        parse_tokens(quote! {
            impl #serde::Serialize for #name {
                fn serialize<S>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error>
                where
                    S: #serde::Serializer,
                {
                    #body
                }
            }
        })
    }

    fn struct_item(&self, def: &TypeDef, attrs: Vec<Attribute>, fields: Fields) -> Item {
        let semi_token = matches!(fields, Fields::Unnamed(_)).then(Default::default);
        Item::Struct(ItemStruct {
            attrs,
            vis: self.vis.clone(),
            struct_token: Default::default(),
            ident: ident(&def.name),
            generics: Default::default(),
            fields,
            semi_token,
        })
    }

    fn enum_item(
        &self,
        def: &TypeDef,
        attrs: Vec<Attribute>,
        variants: impl IntoIterator<Item = Variant>,
    ) -> Item {
        Item::Enum(ItemEnum {
            attrs,
            vis: self.vis.clone(),
            enum_token: Default::default(),
            ident: ident(&def.name),
            generics: Default::default(),
            brace_token: Default::default(),
            variants: variants.into_iter().collect(),
        })
    }

    /// A field with the items' visibility; named unless `name` is `None`.
    fn field_of(&self, attrs: Vec<Attribute>, name: Option<&str>, ty: Type) -> syn::Field {
        syn::Field {
            attrs,
            vis: self.vis.clone(),
            modifiers: Default::default(),
            colon_token: name.map(|_| Default::default()),
            ident: name.map(ident),
            ty,
            default: None,
        }
    }

    /// A struct field; its serde attributes only when the struct derives
    /// `Deserialize`.
    fn field(&self, f: &Field, deserialized: bool) -> syn::Field {
        let mut attrs = doc_attrs(&f.docs);
        if deserialized && unraw(&f.ident) != f.wire {
            attrs.push(rename(&f.wire));
        }
        let inner = self.ty(&f.ty);
        let ty = match f.presence {
            Presence::Required => inner,
            Presence::Optional => option(inner),
            Presence::OptionalNullable => option(option(inner)),
        };
        if deserialized && f.presence != Presence::Required {
            attrs.push(match self.uses_some_helper(f) {
                true => self.optional_some.clone(),
                false => self.optional.clone(),
            });
        }
        self.field_of(attrs, Some(&f.ident), ty)
    }

    /// The enum of an integer enum, converted through `i64` by the two
    /// trait impls that follow it (quoted: they are rare and read better so).
    fn int_enum(
        &self,
        def: &TypeDef,
        usage: Usage,
        docs: Vec<Attribute>,
        variants: &[(String, i64)],
        out: &mut Vec<Item>,
    ) -> Result<(), Error> {
        let attrs = self.with_derives(
            docs,
            self.derive(Shape::Fieldless, usage),
            true,
            [list_attr("serde", quote!(try_from = "i64", into = "i64"))],
        );
        out.push(
            self.enum_item(
                def,
                attrs,
                variants
                    .iter()
                    .map(|(v, n)| variant(vec![doc(&format!(" `{n}`"))], v, None)),
            ),
        );
        let name = ident(&def.name);
        let idents = variants.iter().map(|(v, _)| ident(v));
        let values = variants.iter().map(|(_, n)| *n);
        let expected = variants
            .iter()
            .map(|(_, n)| n.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let message = format!("{{}} is not one of {expected}");
        out.push(parse_tokens(quote! {
            impl ::std::convert::TryFrom<i64> for #name {
                type Error = ::std::string::String;
                fn try_from(value: i64) -> ::std::result::Result<Self, Self::Error> {
                    match value {
                        #(#values => ::std::result::Result::Ok(Self::#idents),)*
                        other => ::std::result::Result::Err(::std::format!(#message, other)),
                    }
                }
            }
        })?);
        let idents = variants.iter().map(|(v, _)| ident(v));
        let values = variants.iter().map(|(_, n)| *n);
        out.push(parse_tokens(quote! {
            impl ::std::convert::From<#name> for i64 {
                fn from(value: #name) -> i64 {
                    match value { #(#name::#idents => #values,)* }
                }
            }
        })?);
        Ok(())
    }
}

/// The serde derives of a type whose `Serialize` is written by hand: only
/// `Deserialize`, when it is deserialized.
fn hand_serialized(usage: Usage) -> Usage {
    Usage {
        serialize: false,
        ..usage
    }
}

/// `::std::string::String`.
fn string() -> Type {
    type_path(path("::std::string::String"))
}

/// `::std::option::Option<inner>`.
fn option(inner: Type) -> Type {
    generic(path("::std::option::Option"), [inner])
}

/// `::std::collections::BTreeMap<::std::string::String, value>`.
fn map(value: Type) -> Type {
    generic(path("::std::collections::BTreeMap"), [string(), value])
}

/// `#[serde(word)]`.
fn serde(word: &str) -> Attribute {
    let word = ident(word);
    list_attr("serde", quote!(#word))
}

/// `#[serde(rename = "wire")]`.
fn rename(wire: &str) -> Attribute {
    let wire = str_lit(wire);
    list_attr("serde", quote!(rename = #wire))
}

/// A unit variant, or a tuple variant holding `payload`.
fn variant(attrs: Vec<Attribute>, name: &str, payload: Option<Type>) -> Variant {
    Variant {
        attrs,
        ident: ident(name),
        fields: match payload {
            Some(ty) => Fields::Unnamed(FieldsUnnamed {
                paren_token: Default::default(),
                unnamed: Punctuated::from_iter([syn::Field {
                    attrs: Vec::new(),
                    vis: Visibility::Inherited,
                    modifiers: Default::default(),
                    ident: None,
                    colon_token: None,
                    ty,
                    default: None,
                }]),
            }),
            None => Fields::Unit,
        },
        discriminant: None,
    }
}
