//! One kube-apiserver: request parsing and validation, the object encoding, the etcd-backed
//! read/write paths, pagination with continue tokens and watches (spec §B–§E).
