//! Which serde directions each named type needs: a client serializes the
//! types reachable from a tool's arguments and deserializes those reachable
//! from its output. A type reachable from both gets both.

use crate::ir::{Kind, Ty, TypeId, Types};

/// The serde directions of one named type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Derive `Serialize`.
    pub serialize: bool,
    /// Derive `Deserialize`.
    pub deserialize: bool,
}

impl Usage {
    /// Both directions.
    pub const BOTH: Usage = Usage {
        serialize: true,
        deserialize: true,
    };
}

/// The usage of every type in `types`, from the argument roots `sent` and
/// the output roots `received`. Each type is visited once per direction, so
/// recursive types end. A type no root reaches (the mapper makes none
/// today) gets both, so that its serde attributes always have a derive.
pub fn usages(
    types: &Types,
    sent: impl IntoIterator<Item = TypeId>,
    received: impl IntoIterator<Item = TypeId>,
) -> Vec<Usage> {
    let mut usage = vec![Usage::default(); types.defs.len()];
    mark(types, &mut usage, sent, |u| &mut u.serialize);
    mark(types, &mut usage, received, |u| &mut u.deserialize);
    for u in &mut usage {
        if *u == Usage::default() {
            *u = Usage::BOTH;
        }
    }
    usage
}

/// Sets the flag `flag` picks on every type reachable from `roots`.
fn mark(
    types: &Types,
    usage: &mut [Usage],
    roots: impl IntoIterator<Item = TypeId>,
    flag: fn(&mut Usage) -> &mut bool,
) {
    let mut stack: Vec<TypeId> = roots.into_iter().collect();
    while let Some(id) = stack.pop() {
        let seen = flag(&mut usage[id]);
        if *seen {
            continue;
        }
        *seen = true;
        let mut push = |ty: &Ty| named_in(ty, &mut stack);
        match &types.defs[id].kind {
            Kind::Struct { fields, extra, .. } => {
                fields.iter().for_each(|f| push(&f.ty));
                if let Some((_, ty)) = extra {
                    push(ty);
                }
            }
            Kind::Newtype(ty) | Kind::Alias(ty) => push(ty),
            Kind::StringEnum(_) | Kind::IntEnum(_) => {}
            Kind::Tagged { variants, .. } => {
                stack.extend(variants.iter().filter_map(|v| v.payload))
            }
            Kind::Untagged(variants) => variants.iter().for_each(|(_, ty)| push(ty)),
        }
    }
}

/// Pushes the named types `ty` mentions onto `out`.
fn named_in(ty: &Ty, out: &mut Vec<TypeId>) {
    match ty {
        Ty::Bool | Ty::Int(_) | Ty::F64 | Ty::String | Ty::Unit | Ty::Value => {}
        Ty::Named(id) => out.push(*id),
        Ty::Option(inner) | Ty::Vec(inner) | Ty::Map(inner) | Ty::Boxed(inner) => {
            named_in(inner, out)
        }
        Ty::Tuple(items) => items.iter().for_each(|t| named_in(t, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Field, Presence, TaggedVariant, TypeDef};

    /// Serialize only: reached from arguments alone.
    const SER: Usage = Usage {
        serialize: true,
        deserialize: false,
    };
    /// Deserialize only: reached from output alone.
    const DE: Usage = Usage {
        serialize: false,
        deserialize: true,
    };

    fn def(name: &str, kind: Kind) -> TypeDef {
        TypeDef {
            name: name.into(),
            docs: Vec::new(),
            kind,
        }
    }

    fn holding(ty: Ty) -> Kind {
        Kind::Struct {
            fields: vec![Field {
                ident: "x".into(),
                wire: "x".into(),
                ty,
                presence: Presence::Required,
                docs: Vec::new(),
            }],
            deny_unknown: false,
            extra: None,
        }
    }

    #[test]
    fn each_type_gets_the_directions_of_the_roots_that_reach_it() {
        // 0 Args -> 2 Shared; 1 Output -> Vec<Option<2 Shared>>, 3 Only;
        // 2 Shared -> Box<2 Shared> (recursive); 4 unreached, so both.
        let types = Types {
            defs: vec![
                def("Args", holding(Ty::Named(2))),
                def(
                    "Output",
                    Kind::Untagged(vec![
                        (
                            "A".into(),
                            Ty::Vec(Box::new(Ty::Option(Box::new(Ty::Named(2))))),
                        ),
                        ("B".into(), Ty::Named(3)),
                    ]),
                ),
                def("Shared", holding(Ty::Boxed(Box::new(Ty::Named(2))))),
                def("Only", Kind::StringEnum(vec![("A".into(), "a".into())])),
                def("Unused", Kind::Alias(Ty::Bool)),
            ],
        };
        let usage = usages(&types, [0], [1]);
        assert_eq!(usage, [SER, DE, Usage::BOTH, DE, Usage::BOTH]);
    }

    #[test]
    fn directions_reach_through_every_container() {
        // Arguments: 0 Args -> map values 2, tuple items 3, and its extra
        // properties 7 -> their extra map's values 4. Output: 1 Output,
        // tagged -> payload 5 -> newtype of 6 (the variant without payload
        // adds nothing).
        let extra = Kind::Struct {
            fields: Vec::new(),
            deny_unknown: false,
            extra: Some(("rest".into(), Ty::Map(Box::new(Ty::Named(4))))),
        };
        let args = Kind::Struct {
            fields: vec![
                Field {
                    ident: "map".into(),
                    wire: "map".into(),
                    ty: Ty::Map(Box::new(Ty::Named(2))),
                    presence: Presence::Required,
                    docs: Vec::new(),
                },
                Field {
                    ident: "pair".into(),
                    wire: "pair".into(),
                    ty: Ty::Tuple(vec![Ty::String, Ty::Named(3)]),
                    presence: Presence::Required,
                    docs: Vec::new(),
                },
            ],
            deny_unknown: false,
            extra: Some(("more".into(), Ty::Named(7))),
        };
        let variant = |ident: &str, payload| TaggedVariant {
            ident: ident.into(),
            tag_value: ident.to_lowercase(),
            payload,
            docs: Vec::new(),
        };
        let types = Types {
            defs: vec![
                def("Args", args),
                def(
                    "Output",
                    Kind::Tagged {
                        tag: "kind".into(),
                        variants: vec![variant("Full", Some(5)), variant("Empty", None)],
                    },
                ),
                def("InMap", Kind::Alias(Ty::Bool)),
                def("InTuple", Kind::StringEnum(vec![("A".into(), "a".into())])),
                def("InExtra", Kind::Alias(Ty::String)),
                def("Payload", Kind::Newtype(Ty::Named(6))),
                def("Wrapped", holding(Ty::F64)),
                def("Extra", extra),
            ],
        };
        let usage = usages(&types, [0], [1]);
        assert_eq!(usage, [SER, DE, SER, SER, SER, DE, DE, SER]);
    }
}
