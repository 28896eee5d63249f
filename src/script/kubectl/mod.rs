//! `kubectl …` lines: the subset of kubectl the script and the console speak, and the exact
//! requests each one becomes.
//!
//! Observed from kubectl v1.32.4 (`kubectl -v=8` against `rvlab serve`), which follows
//! `staging/src/k8s.io/kubectl/pkg/cmd/{get,create,delete,patch,apply}` @ v1.32:
//! * `get <res>` pages with `limit=500` (or `--chunk-size`; 0 = one unlimited list) and follows
//!   `continue` (`?continue=…&limit=N`, Go's `url.Values.Encode` sorts the keys);
//!   `get <res> <name>` is one GET of the object.
//! * `get <res> -w` lists as above, then watches with only `resourceVersion=<the list's RV>`
//!   and `watch=true`; `get <res> <name> -w` GETs the object, then watches with
//!   `fieldSelector=metadata.name%3D<name>&resourceVersion=0&watch=true` (`get.go` `watch`:
//!   "watching from resourceVersion 0, starts the watch at ~now"). `--output-watch-events`
//!   changes only how kubectl prints the events.
//! * `create configmap <name> [--from-literal=k=v]…` POSTs with
//!   `fieldManager=kubectl-create&fieldValidation=Strict`.
//! * `delete <res> <name>` sends `{"propagationPolicy":"Background"}` and then GETs the object
//!   for `--wait` (`wait.IsDeleted`: a 404 ends the wait).
//! * `patch <res> <name> [--type=strategic|merge|json] -p <patch>` GETs the object, then PATCHes
//!   with `fieldManager=kubectl-patch` and the type's Content-Type (strategic by default).
//!
//! * `get` with `-A` lists `/api/v1/<resource>`; `-l`/`--field-selector` go into every list and
//!   watch query; without `-o` (or with `-o wide`) every request carries the Table `Accept`
//!   ([`TABLE_ACCEPT`], `get.go` `transformRequests`), with `-o json|yaml|name` none. The watch
//!   is the last request whatever ends it: `get.go` `watch` discards `UntilWithoutRetry`'s
//!   error (a 410 ERROR event, the stream closing) and returns nil.
//! * `get --raw <path>` is one GET of the path (`rawhttp.RawGet`).
//! * `apply --server-side -f -` PATCHes (apply) with
//!   `fieldManager=kubectl&fieldValidation=Strict&force=false` (`apply.go` `applyOneObject`).
//!
//! Not modelled: the Table itself (the engine answers JSON; `rvlab serve` serves Tables),
//! client-side apply, discovery requests.

use std::fmt;

use serde_json::Value;

use super::lex::word;
pub use super::syntax::KubectlError;
use crate::apiserver::patch::PatchType;

/// A resource kubectl knows by one of its names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KubectlResource {
    ConfigMaps,
    Pods,
}

impl KubectlResource {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "configmaps" | "configmap" | "cm" => Some(KubectlResource::ConfigMaps),
            "pods" | "pod" | "po" => Some(KubectlResource::Pods),
            _ => None,
        }
    }
    pub fn plural(self) -> &'static str {
        match self {
            KubectlResource::ConfigMaps => "configmaps",
            KubectlResource::Pods => "pods",
        }
    }
}

/// `kubectl get -o …`: what changes is whether kubectl asks for a server-side Table
/// (`get.go` `transformRequests`: only for a human-readable printer, i.e. no `-o` or `-o wide`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    Json,
    Yaml,
    Name,
    Wide,
}

impl OutputFormat {
    fn parse(s: &str) -> Option<Self> {
        match s {
            "json" => Some(OutputFormat::Json),
            "yaml" => Some(OutputFormat::Yaml),
            "name" => Some(OutputFormat::Name),
            "wide" => Some(OutputFormat::Wide),
            _ => None,
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            OutputFormat::Json => "json",
            OutputFormat::Yaml => "yaml",
            OutputFormat::Name => "name",
            OutputFormat::Wide => "wide",
        }
    }
    /// Whether the printer is human-readable (kubectl then asks for a Table).
    fn human_readable(format: Option<OutputFormat>) -> bool {
        match format {
            None | Some(OutputFormat::Wide) => true,
            Some(OutputFormat::Json | OutputFormat::Yaml | OutputFormat::Name) => false,
        }
    }
}

/// The `Accept` header of kubectl 1.32's `get` with a human-readable printer
/// (`staging/src/k8s.io/kubectl/pkg/cmd/get/get.go` `transformRequests`, applied to the list,
/// the object and the watch alike).
pub const TABLE_ACCEPT: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

/// One `kubectl` line. `namespace: None` is the context's namespace, `default`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KubectlCommand {
    Get {
        resource: KubectlResource,
        name: Option<String>,
        namespace: Option<String>,
        chunk_size: Option<i64>,
        watch: bool,
        output_watch_events: bool,
        /// `-A` / `--all-namespaces`.
        all_namespaces: bool,
        /// `-l` / `--selector`.
        label_selector: Option<String>,
        /// `--field-selector`.
        field_selector: Option<String>,
        /// `-o`; `None` = the default table.
        output: Option<OutputFormat>,
    },
    /// `kubectl get --raw <path>`: one GET of the path as given.
    GetRaw {
        uri: String,
    },
    /// `kubectl apply --server-side -f - <manifest>`.
    ApplyServerSide {
        resource: KubectlResource,
        name: String,
        /// The namespace the object goes to (`-n`, else the manifest's, else `default`).
        namespace: Option<String>,
        /// `-n` as written (shown back).
        namespace_flag: Option<String>,
        manifest: Value,
    },
    CreateConfigMap {
        name: String,
        namespace: Option<String>,
        literals: Vec<(String, String)>,
    },
    Delete {
        resource: KubectlResource,
        name: String,
        namespace: Option<String>,
    },
    Patch {
        resource: KubectlResource,
        name: String,
        namespace: Option<String>,
        /// `None` = kubectl's default, strategic.
        patch_type: Option<PatchType>,
        patch: Value,
    },
}

impl fmt::Display for KubectlCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = |f: &mut fmt::Formatter<'_>, n: &Option<String>| match n {
            Some(n) => write!(f, " -n {n}"),
            None => Ok(()),
        };
        match self {
            KubectlCommand::Get {
                resource,
                name,
                namespace,
                chunk_size,
                watch,
                output_watch_events,
                all_namespaces,
                label_selector,
                field_selector,
                output,
            } => {
                write!(f, "kubectl get {}", resource.plural())?;
                if let Some(n) = name {
                    write!(f, " {n}")?;
                }
                ns(f, namespace)?;
                if *all_namespaces {
                    f.write_str(" -A")?;
                }
                if let Some(l) = label_selector {
                    write!(f, " -l {l}")?;
                }
                if let Some(l) = field_selector {
                    write!(f, " --field-selector {l}")?;
                }
                if let Some(o) = output {
                    write!(f, " -o {}", o.word())?;
                }
                if let Some(c) = chunk_size {
                    write!(f, " --chunk-size={c}")?;
                }
                if *watch {
                    f.write_str(" -w")?;
                }
                if *output_watch_events {
                    f.write_str(" --output-watch-events")?;
                }
                Ok(())
            }
            KubectlCommand::GetRaw { uri } => write!(f, "kubectl get --raw {uri}"),
            KubectlCommand::ApplyServerSide { namespace_flag, manifest, .. } => {
                f.write_str("kubectl apply --server-side")?;
                ns(f, namespace_flag)?;
                write!(f, " -f - {manifest}")
            }
            KubectlCommand::CreateConfigMap { name, namespace, literals } => {
                write!(f, "kubectl create configmap {name}")?;
                ns(f, namespace)?;
                for (k, v) in literals {
                    write!(f, " {}", word(&format!("--from-literal={k}={v}")))?;
                }
                Ok(())
            }
            KubectlCommand::Delete { resource, name, namespace } => {
                write!(f, "kubectl delete {} {name}", resource.plural())?;
                ns(f, namespace)
            }
            KubectlCommand::Patch { resource, name, namespace, patch_type, patch } => {
                write!(f, "kubectl patch {} {name}", resource.plural())?;
                ns(f, namespace)?;
                if let Some(t) = patch_type {
                    write!(f, " --type={}", t.word())?;
                }
                write!(f, " -p {patch}")
            }
        }
    }
}

mod parse;
mod request;

pub(crate) use parse::parse;
pub use request::{Answer, KubectlRequest, Plan};

#[cfg(test)]
mod tests;
