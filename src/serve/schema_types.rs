//! The vocabulary of the served types' field table: flags, cardinalities, field types, fields
//! and messages. [`super::schema_table`] (generated) is written in it and [`super::schema`]
//! reads it, so neither imports the other's definitions back.

/// The field is required: Go writes it even when zero (no `omitempty`).
pub const REQ: u8 = 1;
/// The field is a Go pointer: present on the wire means set, so zero is written.
pub const PTR: u8 = 2;
/// The field is a Go struct embedded with `json:",inline"`.
pub const INLINE: u8 = 4;
/// The field is a Go struct value (not a pointer): absent from the wire it is the zero struct,
/// which Go writes (`{}`; a zero `metav1.Time` as `null`).
pub const VAL: u8 = 8;

/// How many values a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Card {
    One,
    Rep,
    /// `map<string, T>` (protobuf map entries: key 1, value 2).
    Map,
}

/// A field's type.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    Str,
    Bool,
    I32,
    I64,
    Bytes,
    Msg(&'static Msg),
    /// `metav1.Time`: seconds (1), nanos (2) → RFC 3339 at seconds precision.
    Time,
    /// `resource.Quantity`: its canonical string (1).
    Quantity,
    /// `intstr.IntOrString`: type (1) 0 = intVal (2), 1 = strVal (3).
    IntOrString,
    /// `metav1.FieldsV1`: raw JSON (1).
    FieldsV1,
}

/// One field of a message, in Go struct order (which is the JSON order).
#[derive(Debug)]
pub struct Field {
    pub tag: u32,
    pub json: &'static str,
    pub ty: Ty,
    pub card: Card,
    pub flags: u8,
    /// The Go doc comment as an OpenAPI description.
    pub doc: &'static str,
    /// OpenAPI extensions from the comment's markers (`x-kubernetes-patch-merge-key`, …;
    /// `x-kubernetes-list-map-keys` comma-separated).
    pub ext: &'static [(&'static str, &'static str)],
}

/// One message: its Go name, OpenAPI definition name, description and fields.
#[derive(Debug)]
pub struct Msg {
    pub name: &'static str,
    pub definition: &'static str,
    pub doc: &'static str,
    pub fields: &'static [Field],
}
