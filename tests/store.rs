//! Native tests of the etcd model (`rvlab::store`), one behaviour each, citing spec §A.
//! Exact values everywhere; `tests/etcd_oracle.rs` checks the same against a real etcd.

use rvlab::store::*;

fn k(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

fn put(s: &mut MvccStore, key: &str, value: &str) -> PutResponse {
    s.put(PutRequest { key: k(key), value: k(value), ..Default::default() })
}

fn del(s: &mut MvccStore, key: &str, end: &[u8]) -> DeleteRangeResponse {
    s.delete_range(DeleteRangeRequest { key: k(key), range_end: end.to_vec(), prev_kv: true })
}

fn get_at(s: &MvccStore, key: &str, rev: i64) -> Result<RangeResponse, MvccError> {
    s.range(&RangeRequest { key: k(key), revision: rev, ..Default::default() })
}

fn range(s: &MvccStore, key: &str, end: &[u8], rev: i64, limit: i64) -> RangeResponse {
    s.range(&RangeRequest {
        key: k(key),
        range_end: end.to_vec(),
        revision: rev,
        limit,
        ..Default::default()
    })
    .expect("range")
}

/// (key, value, create_revision, mod_revision, version)
fn kv(kv: &KeyValue) -> (String, String, i64, i64, i64) {
    (
        String::from_utf8_lossy(&kv.key).into_owned(),
        String::from_utf8_lossy(&kv.value).into_owned(),
        kv.create_revision,
        kv.mod_revision,
        kv.version,
    )
}

fn t(key: &str, value: &str, c: i64, m: i64, v: i64) -> (String, String, i64, i64, i64) {
    (key.to_string(), value.to_string(), c, m, v)
}

fn watch(s: &mut MvccStore, key: &str, end: &[u8], start: i64, prev_kv: bool) -> WatchId {
    s.watch(WatchCreateRequest {
        key: k(key),
        range_end: end.to_vec(),
        start_revision: start,
        prev_kv,
        progress_notify: false,
    })
}

/// (type, key, mod_revision) of every event, flattened.
fn events(resps: &[WatchResponse]) -> Vec<(EventType, String, i64)> {
    resps
        .iter()
        .flat_map(|r| r.events.iter())
        .map(|e| (e.kind, String::from_utf8_lossy(&e.kv.key).into_owned(), e.kv.mod_revision))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// §A.1 revisions

#[test]
fn fresh_store_is_at_revision_1_and_first_write_gets_2() {
    // §A.1: currentRev starts at 1; the first write gets revision 2.
    let mut s = MvccStore::new();
    assert_eq!(s.current_revision(), 1);
    assert_eq!(s.compact_revision(), None);
    assert_eq!(MvccStore::default().current_revision(), 1);
    let r = put(&mut s, "/a", "1");
    assert_eq!(r.header.revision, 2);
    assert_eq!(s.current_revision(), 2);
}

#[test]
fn identical_put_still_bumps_the_revision() {
    // §A.1: a Put counts as a change even if the value is identical.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "same");
    let r = put(&mut s, "/a", "same");
    assert_eq!(r.header.revision, 3);
    assert_eq!(kv(&s.get(b"/a").unwrap()), t("/a", "same", 2, 3, 2));
}

#[test]
fn delete_of_nothing_does_not_bump() {
    // §A.1: a Delete/DeleteRange matching nothing is not a change; header = current revision.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1");
    let r = del(&mut s, "/missing", b"");
    assert_eq!((r.header.revision, r.deleted, r.prev_kvs.len()), (2, 0, 0));
    let r = del(&mut s, "/x", b"/z");
    assert_eq!((r.header.revision, r.deleted), (2, 0));
    assert_eq!(s.current_revision(), 2);
}

#[test]
fn txn_gets_one_revision_with_sub_revisions() {
    // §A.1: a txn with N writes → one new revision; changes get sub = 0, 1, 2…
    let mut s = MvccStore::new();
    put(&mut s, "/c", "old");
    let r = s
        .txn(TxnRequest {
            compare: vec![],
            success: vec![
                RequestOp::Put(PutRequest { key: k("/a"), value: k("1"), ..Default::default() }),
                RequestOp::Put(PutRequest { key: k("/b"), value: k("2"), ..Default::default() }),
                RequestOp::DeleteRange(DeleteRangeRequest { key: k("/c"), ..Default::default() }),
            ],
            failure: vec![],
        })
        .unwrap();
    assert_eq!((r.header.revision, r.succeeded), (3, true));
    assert_eq!(s.current_revision(), 3);
    let revs: Vec<(i64, i64, bool)> =
        s.history().filter(|(r, _)| r.main == 3).map(|(r, rec)| (r.main, r.sub, rec.tombstone)).collect();
    assert_eq!(revs, vec![(3, 0, false), (3, 1, false), (3, 2, true)]);
    assert_eq!(s.get(b"/a").unwrap().mod_revision, 3);
    assert_eq!(s.get(b"/b").unwrap().mod_revision, 3);
}

#[test]
fn read_only_txn_branch_does_not_bump() {
    // §A.1: a txn whose chosen branch only reads is not a change.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1");
    let r = s
        .txn(TxnRequest {
            compare: vec![Compare {
                key: k("/a"),
                result: CompareResult::Equal,
                target: CompareTarget::Value(k("1")),
            }],
            success: vec![RequestOp::Range(RangeRequest { key: k("/a"), ..Default::default() })],
            failure: vec![RequestOp::Put(PutRequest { key: k("/a"), value: k("x"), ..Default::default() })],
        })
        .unwrap();
    assert!(r.succeeded);
    assert_eq!(r.header.revision, 2);
    assert_eq!(s.current_revision(), 2);
}

// ---------------------------------------------------------------------------------------------
// §A.2 KeyValue fields

#[test]
fn create_update_delete_recreate_fields() {
    // §A.2: create → c=m=rev, v=1; update → m=rev, v+1; delete → gone; re-create → new generation.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    assert_eq!(kv(&s.get(b"/a").unwrap()), t("/a", "1", 2, 2, 1));
    put(&mut s, "/a", "2"); // 3
    assert_eq!(kv(&s.get(b"/a").unwrap()), t("/a", "2", 2, 3, 2));
    let d = del(&mut s, "/a", b""); // 4
    assert_eq!((d.header.revision, d.deleted), (4, 1));
    assert_eq!(kv(&d.prev_kvs[0]), t("/a", "2", 2, 3, 2));
    assert_eq!(s.get(b"/a"), None);
    put(&mut s, "/a", "3"); // 5
    assert_eq!(kv(&s.get(b"/a").unwrap()), t("/a", "3", 5, 5, 1));
    // The key index shows two generations: [2, 3, 4(tombstone)] and [5].
    let ki = s.key_index(b"/a").unwrap();
    let gens: Vec<Vec<i64>> =
        ki.generations().iter().map(|g| g.revisions().map(|r| r.main).collect()).collect();
    assert_eq!(gens, vec![vec![2, 3, 4], vec![5]]);
}

#[test]
fn put_prev_kv_and_lease_are_returned() {
    // §A.2: lease as given; prev_kv returned when requested.
    let mut s = MvccStore::new();
    s.put(PutRequest { key: k("/a"), value: k("1"), lease: 7, prev_kv: true });
    let r = s.put(PutRequest { key: k("/a"), value: k("2"), lease: 0, prev_kv: true });
    let prev = r.prev_kv.unwrap();
    assert_eq!((kv(&prev), prev.lease), (t("/a", "1", 2, 2, 1), 7));
    assert_eq!(s.get(b"/a").unwrap().lease, 0);
}

// ---------------------------------------------------------------------------------------------
// §A.3 Range

#[test]
fn range_at_old_revision_header_is_current() {
    // §A.3: newest version with mod_revision <= rev; header.revision is always current.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    put(&mut s, "/a", "2"); // 3
    del(&mut s, "/a", b""); // 4
    let r = get_at(&s, "/a", 2).unwrap();
    assert_eq!(r.header.revision, 4);
    assert_eq!(r.kvs.iter().map(kv).collect::<Vec<_>>(), vec![t("/a", "1", 2, 2, 1)]);
    assert_eq!(kv(&get_at(&s, "/a", 3).unwrap().kvs[0]), t("/a", "2", 2, 3, 2));
    // Tombstone at 4 hides the key; before creation (rev 1) nothing.
    assert_eq!(get_at(&s, "/a", 4).unwrap().count, 0);
    assert_eq!(get_at(&s, "/a", 1).unwrap().count, 0);
    // revision <= 0 reads the current revision.
    assert_eq!(get_at(&s, "/a", 0).unwrap().count, 0);
    assert_eq!(get_at(&s, "/a", -7).unwrap().header.revision, 4);
}

#[test]
fn range_count_more_limit_and_sorting() {
    // §A.3: sorted by key bytes; count ignores limit; more iff limit > 0 and more matched.
    let mut s = MvccStore::new();
    for key in ["/p/c", "/p/a", "/p/b", "/q"] {
        put(&mut s, key, "v");
    }
    let r = range(&s, "/p/", b"/p0", 0, 2);
    let keys: Vec<String> = r.kvs.iter().map(|x| String::from_utf8_lossy(&x.key).into_owned()).collect();
    assert_eq!(keys, vec!["/p/a", "/p/b"]);
    assert_eq!((r.count, r.more, r.header.revision), (3, true, 5));
    let r = range(&s, "/p/", b"/p0", 0, 3);
    assert_eq!((r.kvs.len(), r.count, r.more), (3, 3, false));
    let r = range(&s, "/p/", b"/p0", 0, 0);
    assert_eq!((r.kvs.len(), r.count, r.more), (3, 3, false));
    // Negative limit = unlimited, like etcd.
    let r = range(&s, "/p/", b"/p0", 0, -1);
    assert_eq!((r.kvs.len(), r.more), (3, false));
    // At an older revision only the keys that existed then count.
    let r = range(&s, "/p/", b"/p0", 3, 1);
    assert_eq!((r.kvs.len(), r.count, r.more), (1, 2, true));
    // count_only / keys_only.
    let r = s
        .range(&RangeRequest { key: k("/p/"), range_end: k("/p0"), count_only: true, ..Default::default() })
        .unwrap();
    assert_eq!((r.kvs.len(), r.count, r.more), (0, 3, false));
    let r = s
        .range(&RangeRequest {
            key: k("/p/"),
            range_end: k("/p0"),
            keys_only: true,
            limit: 1,
            ..Default::default()
        })
        .unwrap();
    assert_eq!((r.kvs[0].value.len(), r.kvs[0].mod_revision, r.more), (0, 3, true));
}

#[test]
fn range_end_conventions() {
    // §A.3: empty range_end = one key; [0] = every key >= key; [0]/[0] = everything;
    // a range_end not after key matches nothing.
    let mut s = MvccStore::new();
    for key in ["a", "b", "c"] {
        put(&mut s, key, "v");
    }
    assert_eq!(range(&s, "b", b"", 0, 0).count, 1);
    assert_eq!(range(&s, "b", &[0], 0, 0).count, 2);
    assert_eq!(range(&s, "\0", &[0], 0, 0).count, 3);
    assert_eq!(range(&s, "a", b"c", 0, 0).count, 2);
    assert_eq!(range(&s, "c", b"a", 0, 0).count, 0);
    assert_eq!(range(&s, "b", b"b", 0, 0).count, 0);
    assert_eq!(range(&s, "", b"", 0, 0).count, 0);
    assert_eq!(range(&s, "", &[0], 0, 0).count, 3);
}

#[test]
fn range_errors_have_etcd_messages() {
    // §A.3: revision > current → ErrFutureRev; < compactRev → ErrCompacted; == compactRev ok.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    put(&mut s, "/a", "2"); // 3
    put(&mut s, "/a", "3"); // 4
    assert_eq!(get_at(&s, "/a", 5), Err(MvccError::FutureRev));
    assert_eq!(MvccError::FutureRev.to_string(), "mvcc: required revision is a future revision");
    assert_eq!(get_at(&s, "/a", i64::MAX), Err(MvccError::FutureRev));
    s.compact(3).unwrap();
    assert_eq!(get_at(&s, "/a", 2), Err(MvccError::Compacted));
    assert_eq!(MvccError::Compacted.to_string(), "mvcc: required revision has been compacted");
    assert_eq!(kv(&get_at(&s, "/a", 3).unwrap().kvs[0]), t("/a", "2", 2, 3, 2));
    assert_eq!(get_at(&s, "/a", i64::MIN).unwrap().header.revision, 4);
}

// ---------------------------------------------------------------------------------------------
// §A.4 compaction

#[test]
fn compaction_keeps_newest_at_or_below_and_drops_tombstoned_keys() {
    // §A.4: all versions <= rev removed except the newest; a tombstone newest → key gone
    // (here the tombstone is at exactly the compaction revision: the etcd 3.4.23 rule; see
    // compaction_keeps_a_tombstone_at_the_compaction_revision for today's).
    let mut s = MvccStore::with_version(EtcdVersion::V3_4);
    put(&mut s, "/a", "1"); // 2
    put(&mut s, "/a", "2"); // 3
    put(&mut s, "/b", "1"); // 4
    del(&mut s, "/b", b""); // 5
    put(&mut s, "/a", "3"); // 6
    assert_eq!(s.history_len(), 5);
    let h = s.compact(5).unwrap();
    assert_eq!(h.revision, 6, "compact does not bump; header = current");
    assert_eq!(s.current_revision(), 6);
    assert_eq!(s.compact_revision(), Some(5));
    // Kept: /a@3 (newest <= 5) and /a@6 (later, untouched). /b entirely gone.
    let kept: Vec<(i64, String)> =
        s.history().map(|(r, rec)| (r.main, String::from_utf8_lossy(&rec.kv.key).into_owned())).collect();
    assert_eq!(kept, vec![(3, "/a".into()), (6, "/a".into())]);
    assert!(s.key_index(b"/b").is_none());
    assert_eq!(s.key_count(), 1);
    // Readable at compactRev (== 5) and later; exact there.
    assert_eq!(kv(&get_at(&s, "/a", 5).unwrap().kvs[0]), t("/a", "2", 2, 3, 2));
    assert_eq!(get_at(&s, "/b", 5).unwrap().count, 0);
    assert_eq!(kv(&get_at(&s, "/a", 6).unwrap().kvs[0]), t("/a", "3", 2, 6, 3));
    assert_eq!(get_at(&s, "/a", 4), Err(MvccError::Compacted));
}

#[test]
fn compaction_errors() {
    // §A.4: rev <= compactRev → ErrCompacted; rev > current → ErrFutureRev.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    put(&mut s, "/a", "2"); // 3
    assert_eq!(s.compact(4), Err(MvccError::FutureRev));
    assert_eq!(s.compact(i64::MAX), Err(MvccError::FutureRev));
    s.compact(2).unwrap();
    assert_eq!(s.compact(2), Err(MvccError::Compacted));
    assert_eq!(s.compact(1), Err(MvccError::Compacted));
    assert_eq!(s.compact(i64::MIN), Err(MvccError::Compacted));
    s.compact(3).unwrap();
    assert_eq!(s.compact_revision(), Some(3));
    // etcd 3.4: compact(0) on a never-compacted store is accepted (internal compactRev is -1).
    let mut f = MvccStore::new();
    assert_eq!(f.compact(0).map(|h| h.revision), Ok(1));
    assert_eq!(f.compact(0), Err(MvccError::Compacted));
}

#[test]
fn repeated_compactions_only_touch_changed_keys_and_stay_exact() {
    // §A.4: Range at revision >= compactRev is complete and exact after several compactions.
    let mut s = MvccStore::new();
    for i in 0..50 {
        put(&mut s, &format!("/k{:02}", i % 10), &format!("{i}"));
        if i % 7 == 6 {
            del(&mut s, &format!("/k{:02}", (i + 3) % 10), b"");
        }
    }
    let before: Vec<_> = range(&s, "/k", b"/l", 30, 0).kvs.iter().map(kv).collect();
    s.compact(20).unwrap();
    s.compact(30).unwrap();
    let after: Vec<_> = range(&s, "/k", b"/l", 30, 0).kvs.iter().map(kv).collect();
    assert_eq!(before, after);
    // Every key keeps at most one revision <= 30.
    for ki in s.key_indexes() {
        let old = ki.generations().iter().flat_map(|g| g.revisions()).filter(|r| r.main <= 30).count();
        assert!(old <= 1, "{:?}", ki);
    }
}

// ---------------------------------------------------------------------------------------------
// §A.3 / §A.1 txn details (as etcd 3.4)

#[test]
fn txn_reads_see_earlier_writes_and_compare_rules() {
    // §A.1 txn: later ops of the branch see earlier writes; nested headers as etcd.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    let r = s
        .txn(TxnRequest {
            compare: vec![
                Compare { key: k("/a"), result: CompareResult::Equal, target: CompareTarget::Version(1) },
                Compare {
                    key: k("/none"),
                    result: CompareResult::Equal,
                    target: CompareTarget::CreateRevision(0),
                },
            ],
            success: vec![
                RequestOp::Range(RangeRequest { key: k("/a"), ..Default::default() }),
                RequestOp::Put(PutRequest {
                    key: k("/a"),
                    value: k("2"),
                    prev_kv: true,
                    ..Default::default()
                }),
                RequestOp::Range(RangeRequest { key: k("/a"), ..Default::default() }),
                RequestOp::DeleteRange(DeleteRangeRequest { key: k("/zz"), ..Default::default() }),
            ],
            failure: vec![],
        })
        .unwrap();
    assert!(r.succeeded);
    assert_eq!(r.header.revision, 3);
    let ResponseOp::Range(r0) = &r.responses[0] else { panic!() };
    assert_eq!((r0.header.revision, kv(&r0.kvs[0])), (2, t("/a", "1", 2, 2, 1)));
    let ResponseOp::Put(p) = &r.responses[1] else { panic!() };
    assert_eq!((p.header.revision, kv(p.prev_kv.as_ref().unwrap())), (3, t("/a", "1", 2, 2, 1)));
    let ResponseOp::Range(r2) = &r.responses[2] else { panic!() };
    assert_eq!((r2.header.revision, kv(&r2.kvs[0])), (3, t("/a", "2", 2, 3, 2)));
    let ResponseOp::DeleteRange(d) = &r.responses[3] else { panic!() };
    assert_eq!((d.header.revision, d.deleted), (3, 0));
}

#[test]
fn txn_value_compare_on_missing_key_is_false() {
    // §A.1 txn compare: a missing key has 0s, but a Value compare on it always fails (etcd).
    let mut s = MvccStore::new();
    let r = s
        .txn(TxnRequest {
            compare: vec![Compare {
                key: k("/none"),
                result: CompareResult::NotEqual,
                target: CompareTarget::Value(k("x")),
            }],
            success: vec![],
            failure: vec![],
        })
        .unwrap();
    assert!(!r.succeeded);
    let r = s
        .txn(TxnRequest {
            compare: vec![Compare {
                key: k("/none"),
                result: CompareResult::Less,
                target: CompareTarget::ModRevision(1),
            }],
            success: vec![],
            failure: vec![],
        })
        .unwrap();
    assert!(r.succeeded);
}

#[test]
fn txn_with_bad_range_revision_fails_without_writing() {
    // §A.3 inside a txn: the branch's ranges are checked first; nothing is written on error.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    let txn = |rev: i64| TxnRequest {
        compare: vec![],
        success: vec![
            RequestOp::Put(PutRequest { key: k("/b"), value: k("1"), ..Default::default() }),
            RequestOp::Range(RangeRequest { key: k("/a"), revision: rev, ..Default::default() }),
        ],
        failure: vec![],
    };
    assert_eq!(s.txn(txn(3)), Err(MvccError::FutureRev));
    assert_eq!(s.current_revision(), 2);
    assert_eq!(s.get(b"/b"), None);
    // etcd quirk: a negative revision inside a txn is compared with compactRev (-1 at first).
    assert_eq!(s.txn(txn(-2)), Err(MvccError::Compacted));
    assert!(s.txn(txn(-1)).is_ok());
    s.compact(2).unwrap();
    assert_eq!(s.txn(txn(1)), Err(MvccError::Compacted));
}

// ---------------------------------------------------------------------------------------------
// §A.5 watch

#[test]
fn watch_start_is_inclusive_and_catches_up_at_once() {
    // §A.5: start_revision inclusive; past events queued immediately, in one response.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    put(&mut s, "/b", "1"); // 3
    put(&mut s, "/a", "2"); // 4
    let id = watch(&mut s, "/", &[0], 3, false);
    let resps = s.take_watch_responses(id);
    assert_eq!(resps.len(), 1);
    assert_eq!(resps[0].header.revision, 4);
    assert_eq!(resps[0].watch_id, id);
    assert_eq!(events(&resps), vec![(EventType::Put, "/b".into(), 3), (EventType::Put, "/a".into(), 4)]);
    assert!(s.take_watch_responses(id).is_empty());
    put(&mut s, "/c", "1"); // 5
    assert_eq!(events(&s.take_watch_responses(id)), vec![(EventType::Put, "/c".into(), 5)]);
}

#[test]
fn watch_from_zero_starts_after_current() {
    // §A.5: start 0 = now; the first event has revision current+1.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    let id = watch(&mut s, "/a", b"", 0, false);
    assert!(s.take_watch_responses(id).is_empty());
    put(&mut s, "/a", "2"); // 3
    let r = s.take_watch_responses(id);
    assert_eq!((r.len(), r[0].header.revision), (1, 3));
    assert_eq!(kv(&r[0].events[0].kv), t("/a", "2", 2, 3, 2));
}

#[test]
fn watch_future_start_waits() {
    // §A.5: a future start revision is accepted and skips earlier events.
    let mut s = MvccStore::new();
    let id = watch(&mut s, "/a", b"", 4, false);
    put(&mut s, "/a", "1"); // 2
    put(&mut s, "/a", "2"); // 3
    assert!(s.take_watch_responses(id).is_empty());
    put(&mut s, "/a", "3"); // 4
    assert_eq!(events(&s.take_watch_responses(id)), vec![(EventType::Put, "/a".into(), 4)]);
}

#[test]
fn watch_below_compaction_is_canceled() {
    // §A.5: start < compactRev → one response, canceled, compact_revision = compactRev; dropped.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    put(&mut s, "/a", "2"); // 3
    s.compact(3).unwrap();
    let id = watch(&mut s, "/a", b"", 2, false);
    let r = s.take_watch_responses(id);
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].canceled, r[0].compact_revision, r[0].events.len()), (true, 3, 0));
    assert_eq!(r[0].header.revision, 0, "etcd 3.4 sends no header revision here");
    assert!(s.watchers().is_empty());
    put(&mut s, "/a", "3");
    assert!(s.take_watch_responses(id).is_empty());
    // start == compactRev is fine: /a@3 survived compaction and is replayed.
    let id = watch(&mut s, "/a", b"", 3, false);
    assert_eq!(
        events(&s.take_watch_responses(id)),
        vec![(EventType::Put, "/a".into(), 3), (EventType::Put, "/a".into(), 4)]
    );
}

#[test]
fn watch_at_compact_revision_does_not_replay_its_tombstone_in_etcd_3_4() {
    // §A.4 + §A.5 (etcd 3.4.23, `set etcd 3.4`): a tombstone at exactly compactRev is
    // physically gone (etcd-io/etcd#18089).
    let mut s = MvccStore::with_version(EtcdVersion::V3_4);
    put(&mut s, "/a", "1"); // 2
    del(&mut s, "/a", b""); // 3
    s.compact(3).unwrap();
    let id = watch(&mut s, "/a", b"", 3, false);
    assert!(s.take_watch_responses(id).is_empty());
}

#[test]
fn compaction_keeps_a_tombstone_at_the_compaction_revision() {
    // etcd ≥ 3.4.34 / 3.5.16 / 3.6, the default (etcd-io/etcd#18274 "keep tombstone if
    // revision == compactAtRev"; server/storage/mvcc/key_index.go `doCompact` stops at
    // `tomb >= atRev`): the delete at the compaction revision survives, so a watch from that
    // revision still sees it; the next compaction past it removes it.
    let mut s = MvccStore::new();
    assert_eq!(s.version(), EtcdVersion::V3_6);
    put(&mut s, "/a", "1"); // 2
    put(&mut s, "/b", "1"); // 3
    del(&mut s, "/b", b""); // 4
    put(&mut s, "/a", "2"); // 5
    s.compact(4).unwrap();
    let kept: Vec<(i64, String)> =
        s.history().map(|(r, rec)| (r.main, String::from_utf8_lossy(&rec.kv.key).into_owned())).collect();
    assert_eq!(kept, vec![(2, "/a".into()), (4, "/b".into()), (5, "/a".into())]);
    assert_eq!(s.key_count(), 2, "the deleted key stays in the index with its tombstone");
    assert_eq!(get_at(&s, "/b", 4).unwrap().count, 0, "deleted at its tombstone");
    let id = watch(&mut s, "/b", b"", 4, false);
    assert_eq!(events(&s.take_watch_responses(id)), vec![(EventType::Delete, "/b".into(), 4)]);
    // A later compaction that passes the tombstone removes the key, although /b has no
    // revision after the previous compaction.
    s.compact(5).unwrap();
    assert!(s.key_index(b"/b").is_none());
    let kept: Vec<i64> = s.history().map(|(r, _)| r.main).collect();
    assert_eq!(kept, vec![5]);
    let id = watch(&mut s, "/b", b"", 5, false);
    assert!(s.take_watch_responses(id).is_empty());
}

#[test]
fn watch_negative_start_follows_etcd_3_4() {
    // §A.5 negative start (etcd 3.4.23 behaviour, see the report): compared with compactRev.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    let id = watch(&mut s, "/a", b"", -2, false);
    let r = s.take_watch_responses(id);
    assert_eq!((r.len(), r[0].canceled, r[0].compact_revision), (1, true, -1));
    // -1 is not below compactRev (-1): accepted, but etcd 3.4 replays nothing (negative minRev
    // becomes a huge unsigned backend key) and the watcher follows from current+1.
    let id = watch(&mut s, "/a", b"", -1, false);
    assert!(s.take_watch_responses(id).is_empty());
    put(&mut s, "/a", "2"); // 3
    assert_eq!(events(&s.take_watch_responses(id)), vec![(EventType::Put, "/a".into(), 3)]);
    s.compact(2).unwrap();
    let id = watch(&mut s, "/a", b"", -5, false);
    let r = s.take_watch_responses(id);
    assert_eq!((r.len(), r[0].canceled, r[0].compact_revision), (1, true, 2));
    let id = watch(&mut s, "/a", b"", -1, false);
    assert!(s.take_watch_responses(id)[0].canceled);
}

#[test]
fn watch_one_response_per_txn() {
    // §A.5: events of one txn share a revision and arrive in one response.
    let mut s = MvccStore::new();
    let id = watch(&mut s, "/", &[0], 0, false);
    s.txn(TxnRequest {
        compare: vec![],
        success: vec![
            RequestOp::Put(PutRequest { key: k("/a"), value: k("1"), ..Default::default() }),
            RequestOp::Put(PutRequest { key: k("/b"), value: k("1"), ..Default::default() }),
        ],
        failure: vec![],
    })
    .unwrap();
    put(&mut s, "/c", "1");
    let r = s.take_watch_responses(id);
    assert_eq!(r.len(), 2);
    assert_eq!(events(&r[..1]), vec![(EventType::Put, "/a".into(), 2), (EventType::Put, "/b".into(), 2)]);
    assert_eq!(r[0].header.revision, 2);
    assert_eq!(events(&r[1..]), vec![(EventType::Put, "/c".into(), 3)]);
}

#[test]
fn watch_delete_event_shape_and_prev_kv() {
    // §A.2/§A.5: DELETE kv has only key + mod_revision = delete revision; prev_kv only if asked.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    let with = watch(&mut s, "/a", b"", 0, true);
    let without = watch(&mut s, "/a", b"", 0, false);
    put(&mut s, "/a", "2"); // 3
    del(&mut s, "/a", b""); // 4
    let r = s.take_watch_responses(with);
    assert_eq!(r.len(), 2);
    assert_eq!(kv(r[0].events[0].prev_kv.as_ref().unwrap()), t("/a", "1", 2, 2, 1));
    let d = &r[1].events[0];
    assert_eq!(d.kind, EventType::Delete);
    assert_eq!(d.kv, KeyValue { key: k("/a").into(), mod_revision: 4, ..Default::default() });
    assert_eq!(kv(d.prev_kv.as_ref().unwrap()), t("/a", "2", 2, 3, 2));
    let r = s.take_watch_responses(without);
    assert!(r.iter().flat_map(|r| &r.events).all(|e| e.prev_kv.is_none()));
    // Catch-up prev_kv is absent once mod_revision-1 is compacted.
    put(&mut s, "/a", "3"); // 5
    s.compact(5).unwrap();
    let id = watch(&mut s, "/a", b"", 5, true);
    let r = s.take_watch_responses(id);
    assert_eq!((r[0].events[0].kv.mod_revision, r[0].events[0].prev_kv.is_none()), (5, true));
}

#[test]
fn watch_progress_requests_and_idle_ticks() {
    // §A.5: a progress notification is empty with header = current revision.
    let mut s = MvccStore::new();
    put(&mut s, "/a", "1"); // 2
    let id = s.watch(WatchCreateRequest { key: k("/a"), progress_notify: true, ..Default::default() });
    let plain = watch(&mut s, "/a", b"", 0, false);
    put(&mut s, "/b", "1"); // 3
    s.request_progress(id);
    let r = s.take_watch_responses(id);
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].header.revision, r[0].events.len(), r[0].canceled), (3, 0, false));
    // Idle tick: the idle progress_notify watcher gets one; the plain one never does.
    s.progress_notify_idle();
    assert_eq!(s.take_watch_responses(id).len(), 1);
    assert!(s.take_watch_responses(plain).is_empty());
    // After an event the next tick is skipped (etcd elides it), the one after is sent.
    put(&mut s, "/a", "2"); // 4
    s.progress_notify_idle();
    let r = s.take_watch_responses(id);
    assert_eq!((r.len(), r[0].events.len()), (1, 1));
    s.progress_notify_idle();
    let r = s.take_watch_responses(id);
    assert_eq!((r.len(), r[0].header.revision), (1, 4));
    // Canceled watchers get nothing.
    assert!(s.cancel_watch(id));
    assert!(!s.cancel_watch(id));
    s.request_progress(id);
    assert!(s.take_watch_responses(id).is_empty());
}

#[test]
fn watch_empty_range_is_canceled() {
    // §A.5 (etcd): range_end not after key → canceled "mvcc: watcher range is empty".
    let mut s = MvccStore::new();
    let id = watch(&mut s, "/b", b"/a", 0, false);
    let r = s.take_watch_responses(id);
    assert_eq!(r.len(), 1);
    assert_eq!(
        (r[0].canceled, r[0].cancel_reason.as_str(), r[0].watch_id),
        (true, "mvcc: watcher range is empty", WatchId(-1))
    );
    assert!(s.watchers().is_empty());
}

#[test]
fn long_catch_up_is_split_every_1000_revisions() {
    // §A.5: "may be fragmented if huge" — etcd batches catch-up by 1000 revisions.
    let mut s = MvccStore::new();
    for i in 0..2500 {
        put(&mut s, "/a", &i.to_string());
    }
    let id = watch(&mut s, "/a", b"", 1, false);
    let r = s.take_watch_responses(id);
    assert_eq!(r.iter().map(|r| r.events.len()).collect::<Vec<_>>(), vec![1000, 1000, 500]);
    assert!(r.iter().all(|r| r.header.revision == 2501));
}

#[test]
fn watchers_view_lists_active_watchers() {
    let mut s = MvccStore::new();
    let a = watch(&mut s, "/a", b"", 0, true);
    let _b = watch(&mut s, "/p/", b"/p0", 9, false);
    put(&mut s, "/a", "1");
    let v = s.watchers();
    assert_eq!(v.len(), 2);
    assert_eq!((v[0].id, v[0].min_revision, v[0].pending, v[0].prev_kv), (a, 2, 1, true));
    assert_eq!(
        (v[1].key.as_slice(), v[1].range_end.as_slice(), v[1].min_revision),
        (&b"/p/"[..], &b"/p0"[..], 9)
    );
}

// ---------------------------------------------------------------------------------------------
// robustness and scale

#[test]
fn no_panics_on_odd_inputs() {
    let mut s = MvccStore::new();
    put(&mut s, "", "empty key");
    for rev in [i64::MIN, -1, 0, 1, 2, i64::MAX] {
        for end in [&b""[..], &[0], b"\xff\xff", b""] {
            let _ = s.range(&RangeRequest {
                key: vec![],
                range_end: end.to_vec(),
                revision: rev,
                limit: i64::MAX,
                ..Default::default()
            });
            let _ = s.range(&RangeRequest {
                key: vec![0xff],
                range_end: end.to_vec(),
                revision: rev,
                limit: i64::MIN,
                ..Default::default()
            });
            let id = s.watch(WatchCreateRequest {
                key: vec![],
                range_end: end.to_vec(),
                start_revision: rev,
                ..Default::default()
            });
            let _ = s.take_watch_responses(id);
        }
        let _ = s.compact(rev);
    }
    s.request_progress(WatchId(i64::MAX));
    let _ = s.take_watch_responses(WatchId(-5));
    assert!(!s.cancel_watch(WatchId(i64::MIN)));
    s.progress_notify_idle();
}

#[test]
fn scales_to_many_keys() {
    // Data-structure sanity: 200k keys, limited ranges and point reads stay cheap.
    let mut s = MvccStore::new();
    let n = 200_000;
    for i in 0..n {
        put(&mut s, &format!("/registry/pods/ns/p{i:07}"), "x");
    }
    let started = std::time::Instant::now();
    for i in 0..2000 {
        let key = format!("/registry/pods/ns/p{:07}", i * 97 % n);
        assert_eq!(get_at(&s, &key, 0).unwrap().count, 1);
    }
    s.compact(n as i64).unwrap();
    for i in 0..1000 {
        put(&mut s, &format!("/registry/pods/ns/p{i:07}"), "y");
    }
    s.compact(s.current_revision()).unwrap();
    assert_eq!(s.history_len(), n as usize);
    assert!(started.elapsed().as_secs() < 20, "took {:?}", started.elapsed());
}
