//! Clients that use the apiserver like anyone else: client-go's pager, reflector and informer
//! (spec §f).
//!
//! Every request goes through [`Cluster::request`](crate::cluster::Cluster::request), exactly like
//! a request typed in the console — there is no shortcut into the store. The layer is sans-IO:
//! an [`Informer`] is polled at the cluster's current time ([`Informer::poll`]), never moves the
//! clock itself, and says when it next wants to act ([`Informer::next_wakeup`]). Everything it
//! decides is written to a plain-words decision log together with the exact request targets and
//! the handler notifications, so the UI and scripts can show *why* a reflector relists.
//!
//! * [`rest`] — the client-go REST layer: query encoding, `Status` → error classification
//!   (`IsResourceExpired`, `IsGone`, too-large RV, 429 …), `Retry-After` retries.
//! * [`pager`] — `tools/pager.ListPager`: `limit` + `continue`, fallback to one full list on a
//!   410 `Expired` continuation.
//! * [`reflector`] — `tools/cache.Reflector`: legacy ListAndWatch and streaming (WatchList)
//!   modes, lastSyncRV bookkeeping, relist/re-watch decisions.
//! * [`backoff`] — the reflector's shared exponential back-off, per client-go release.
//! * [`informer`] — the indexer, RealFIFO-ordered handler notifications, resync, and the
//!   [`Informer`] driving API the script session uses.
//! * [`trace`] — the decision log, request log and handler notifications.

pub mod backoff;
pub mod informer;
pub mod pager;
pub mod reflector;
pub mod rest;
pub mod trace;

pub use informer::{Informer, InformerMode, InformerReport};
pub use pager::{ListPager, ListResult};
pub use reflector::Reflector;
pub use rest::{ApiError, ListOptions, ResourcePath};
pub use trace::Trace;
