//! One kube-apiserver: request parsing and validation, the object encoding, the etcd-backed
//! read/write paths, pagination with continue tokens and watches (spec §B–§E).
pub mod etcd3;
pub mod object;
pub mod server;
pub mod watch;
pub mod body;
pub mod continue_token;
pub mod request;
pub mod resource;
pub mod selector;
pub mod status;
pub mod validation;
pub mod cacher;
pub mod compactor;
pub mod features;
