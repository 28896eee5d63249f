//! One kube-apiserver: request parsing and validation, the object encoding, the etcd-backed
//! read/write paths, pagination with continue tokens and watches (spec §B–§E).
pub mod body;
pub mod cacher;
pub mod compactor;
pub mod continue_token;
pub mod decision;
pub mod etcd3;
pub mod features;
pub mod field_selector;
pub mod fieldmanager;
pub mod go;
pub mod merge_schema;
pub mod object;
pub mod patch;
pub mod registry;
pub mod request;
pub mod resource;
pub mod selector;
pub mod server;
pub mod status;
pub mod strategy;
pub mod validation;
pub mod verb;
pub mod watch;
