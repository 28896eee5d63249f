//! The verb of an API request (`RequestInfo.Verb` in k8s.io/apiserver `endpoints/request`):
//! one type for the request parser, the decisions and every front end (the UI reuses it).

use serde::{Deserialize, Serialize};

/// What a request asks for (serialised lowercase: `"get"`, `"list"`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Delete,
    Patch,
    /// `DELETE` on a collection.
    DeleteCollection,
}

impl Verb {
    /// The verbs of single requests the request builder offers (PATCH and deletecollection are
    /// written as script lines).
    pub const ALL: [Verb; 6] = [Verb::Get, Verb::List, Verb::Watch, Verb::Create, Verb::Update, Verb::Delete];

    /// The verb as `RequestInfo.Verb` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Watch => "watch",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Delete => "delete",
            Verb::Patch => "patch",
            Verb::DeleteCollection => "deletecollection",
        }
    }

    pub fn parse(s: &str) -> Option<Verb> {
        Verb::ALL.into_iter().chain([Verb::Patch, Verb::DeleteCollection]).find(|v| v.as_str() == s)
    }

    /// The HTTP method that carries it.
    pub fn method(self) -> &'static str {
        match self {
            Verb::Get | Verb::List | Verb::Watch => "GET",
            Verb::Create => "POST",
            Verb::Update => "PUT",
            Verb::Delete | Verb::DeleteCollection => "DELETE",
            Verb::Patch => "PATCH",
        }
    }

    /// Whether the request carries an object (or patch) body.
    pub fn has_body(self) -> bool {
        matches!(self, Verb::Create | Verb::Update | Verb::Patch)
    }

    /// Whether the path names one object (`…/pods/<name>`).
    pub fn names_object(self) -> bool {
        matches!(self, Verb::Get | Verb::Update | Verb::Delete | Verb::Patch)
    }

    /// Whether the read options (resourceVersion, …) apply.
    pub fn is_read(self) -> bool {
        matches!(self, Verb::Get | Verb::List | Verb::Watch)
    }

    /// Whether the collection read options (limit, continue, selectors) apply.
    pub fn is_collection_read(self) -> bool {
        matches!(self, Verb::List | Verb::Watch)
    }
}
