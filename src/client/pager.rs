//! client-go's `tools/pager.ListPager` (spec §D, last bullet).
//!
//! Owns the paging loop: the first request carries `limit` (page size 500 unless the caller set
//! one; 0 = unpaginated) and the requested `resourceVersion`/`resourceVersionMatch`; each next
//! page sends only `limit` + `continue` (rv cleared, as the server forbids both together); the
//! list RV is the first page's. If a *continuation* page fails with 410 `Expired` (its token's
//! revision was compacted), the pager makes exactly one full, unpaginated list at the originally
//! requested rv and returns that (`FullListIfExpired`). Any other error, or an error on the first
//! page, is returned as is.
//!
//! A run is resumable ([`PagerRun::poll`]) because the REST layer may have to wait for a
//! `Retry-After` before re-sending a page; [`ListPager::list`] drives one to the end.

use serde_json::Value;

use crate::clock::Instant;
use crate::cluster::Cluster;

use super::rest::{self, ApiError, ListOptions, ResourcePath, Sent, Transport};
use super::trace::{ClientError, Decision, Trace};

/// `defaultPageSize`.
pub const DEFAULT_PAGE_SIZE: i64 = 500;

/// The pager's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListPager {
    /// Used as `limit` when the options do not set one; 0 = one unpaginated request.
    pub page_size: i64,
    /// Fall back to one full list when a continuation expires.
    pub full_list_if_expired: bool,
}

impl Default for ListPager {
    fn default() -> Self {
        ListPager { page_size: DEFAULT_PAGE_SIZE, full_list_if_expired: true }
    }
}

/// A finished list.
#[derive(Debug, Clone, PartialEq)]
pub struct ListResult {
    pub items: Vec<Value>,
    /// The list's `metadata.resourceVersion` (of the first page when paginated).
    pub resource_version: String,
    /// True once a continue token was followed (client-go's `paginatedResult`).
    pub paginated: bool,
    /// How many list requests answered 200 (pages, plus the full list of a fallback).
    pub pages: u32,
    /// True if an expired continuation made the pager fall back to one full list.
    pub fell_back_to_full_list: bool,
}

/// Where a run stands.
#[derive(Debug)]
pub enum PagerPoll {
    /// Waiting for the REST client's `Retry-After` until this time.
    Pending(Instant),
    Done(Result<ListResult, ApiError>),
}

/// One list in progress.
#[derive(Debug, Clone)]
pub struct PagerRun {
    path: ResourcePath,
    apiserver: usize,
    full_list_if_expired: bool,
    options: ListOptions,
    requested_rv: String,
    requested_match: String,
    items: Vec<Value>,
    list_rv: Option<String>,
    paginated: bool,
    pages: u32,
    full_list: bool,
    attempts: u32,
    not_before: Option<Instant>,
}

impl ListPager {
    pub fn new(page_size: i64) -> Self {
        ListPager { page_size, ..Default::default() }
    }

    /// Starts a list of `path` with `options` (its `limit` defaults to the page size).
    pub fn start(&self, path: &ResourcePath, apiserver: usize, mut options: ListOptions) -> PagerRun {
        if options.limit == 0 {
            options.limit = self.page_size;
        }
        PagerRun {
            path: path.clone(),
            apiserver,
            full_list_if_expired: self.full_list_if_expired,
            requested_rv: options.resource_version.clone(),
            requested_match: options.resource_version_match.clone(),
            options,
            items: Vec::new(),
            list_rv: None,
            paginated: false,
            pages: 0,
            full_list: false,
            attempts: 0,
            not_before: None,
        }
    }

    /// Runs a whole list now. When the REST client has to honour a `Retry-After`, this advances
    /// the cluster's clock to the end of the wait (a convenience for tests and tools; the
    /// reflector uses [`PagerRun::poll`] and never moves the clock).
    pub fn list(
        &self,
        cluster: &mut Cluster,
        path: &ResourcePath,
        apiserver: usize,
        options: ListOptions,
        trace: &mut Trace,
    ) -> Result<ListResult, ApiError> {
        let mut run = self.start(path, apiserver, options);
        loop {
            match run.poll(cluster, trace) {
                PagerPoll::Done(r) => return r,
                PagerPoll::Pending(t) => {
                    let now = cluster.clock().now();
                    cluster.advance(t.since(now));
                }
            }
        }
    }
}

impl PagerRun {
    /// When the run next wants to send (only while waiting for a `Retry-After`).
    pub fn wakeup(&self) -> Option<Instant> {
        self.not_before
    }

    /// How many list requests have answered 200 so far.
    pub fn pages_received(&self) -> u32 {
        self.pages
    }

    /// Sends the following requests to apiserver `apiserver` (a new connection).
    pub fn set_apiserver(&mut self, apiserver: usize) {
        self.apiserver = apiserver;
    }

    /// The options of the request the run sends next.
    pub fn next_options(&self) -> &ListOptions {
        &self.options
    }

    /// Sends as many pages as possible at the transport's current time.
    pub fn poll(&mut self, transport: &mut dyn Transport, trace: &mut Trace) -> PagerPoll {
        loop {
            if let Some(p) = self.send_one(transport, trace) {
                return p;
            }
        }
    }

    /// Sends at most one request. `None`: a page came back and more requests follow (lets a UI or
    /// a test act between pages, e.g. compact so that the next continue token expires).
    pub fn send_one(&mut self, transport: &mut dyn Transport, trace: &mut Trace) -> Option<PagerPoll> {
        let now = transport.now();
        if let Some(t) = self.not_before {
            if now < t {
                return Some(PagerPoll::Pending(t));
            }
            self.not_before = None;
        }
        let target = self.path.target(&self.options);
        let resp = match rest::send(transport, self.apiserver, &target, &mut self.attempts, trace) {
            Sent::RetryAt(t) => {
                self.not_before = Some(t);
                return Some(PagerPoll::Pending(t));
            }
            Sent::Response(resp, _) => resp,
        };
        let now = transport.now();
        self.attempts = 0;
        if !(200..300).contains(&resp.code) {
            let err = ApiError::from_response(&resp);
            let continuing = !self.options.continue_token.is_empty();
            if self.full_list || !err.is_resource_expired() || !self.full_list_if_expired || !continuing {
                return Some(PagerPoll::Done(Err(err)));
            }
            trace.note(
                now,
                Decision::PagerFullList {
                    page: self.pages + 1,
                    error: err.info(),
                    rv: self.requested_rv.clone(),
                },
            );
            self.options.limit = 0;
            self.options.continue_token.clear();
            self.options.resource_version = self.requested_rv.clone();
            self.options.resource_version_match = self.requested_match.clone();
            self.full_list = true;
            return None;
        }
        let Some(items) = resp.body.get("items").and_then(Value::as_array) else {
            return Some(PagerPoll::Done(Err(ApiError::client(ClientError::NotAList))));
        };
        let meta = resp.body.get("metadata");
        let rv =
            meta.and_then(|m| m.get("resourceVersion")).and_then(Value::as_str).unwrap_or("").to_string();
        let cont = meta.and_then(|m| m.get("continue")).and_then(Value::as_str).unwrap_or("").to_string();
        self.pages += 1;
        if self.full_list {
            return Some(PagerPoll::Done(Ok(ListResult {
                items: items.clone(),
                resource_version: rv,
                paginated: self.paginated,
                pages: self.pages,
                fell_back_to_full_list: true,
            })));
        }
        if cont.is_empty() && self.list_rv.is_none() {
            return Some(PagerPoll::Done(Ok(ListResult {
                items: items.clone(),
                resource_version: rv,
                paginated: false,
                pages: self.pages,
                fell_back_to_full_list: false,
            })));
        }
        if self.list_rv.is_none() {
            self.list_rv = Some(rv.clone());
        }
        self.items.extend(items.iter().cloned());
        if cont.is_empty() {
            trace.note(now, Decision::PageLast { page: self.pages, items: items.len() });
            return Some(PagerPoll::Done(Ok(ListResult {
                items: std::mem::take(&mut self.items),
                resource_version: self.list_rv.clone().unwrap_or_default(),
                paginated: self.paginated,
                pages: self.pages,
                fell_back_to_full_list: false,
            })));
        }
        trace.note(
            now,
            Decision::PageContinue {
                page: self.pages,
                items: items.len(),
                rv: rv.clone(),
                limit: self.options.limit,
            },
        );
        self.options.continue_token = cont;
        self.options.resource_version.clear();
        self.options.resource_version_match.clear();
        self.paginated = true;
        None
    }
}
