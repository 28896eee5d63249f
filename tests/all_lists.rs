//! Every `ALL` list outside `apiserver::decision` (which checks its own) holds each variant
//! once, in order: each type's position below is an exhaustive `match` with no wildcard arm, so
//! a new variant does not compile until it is placed here, and then fails this test until its
//! `ALL` holds it. (The settings table, the feature-gate parser, the frame legend and the
//! informer modes are all built from these lists: a variant missing from one would be
//! unsettable or never drawn.)

use rvlab::apiserver::features::Gate;
use rvlab::apiserver::watch::FrameType;
use rvlab::client::InformerMode;
use rvlab::cluster::SettingName;

fn check<T: Copy + std::fmt::Debug>(all: &[T], pos: fn(T) -> usize) {
    for (i, v) in all.iter().enumerate() {
        assert_eq!(pos(*v), i, "{v:?} is out of place in ALL");
    }
    // The positions are 0..n: one past the highest is ALL's length, so a variant placed in the
    // match but left out of ALL is caught.
    let highest = all.iter().map(|v| pos(*v)).max().map_or(0, |m| m + 1);
    assert_eq!(highest, all.len());
}

fn setting(v: SettingName) -> usize {
    match v {
        SettingName::Apiservers => 0,
        SettingName::Etcd => 1,
        SettingName::Kubernetes => 2,
        SettingName::FeatureGates => 3,
        SettingName::ClientGo => 4,
        SettingName::WatchCache => 5,
        SettingName::CacheLag => 6,
        SettingName::CacheCapacity => 7,
        SettingName::CacheInitDelay => 8,
        SettingName::CompactionInterval => 9,
        SettingName::Compactor => 10,
        SettingName::ClockEpoch => 11,
        SettingName::Explain => 12,
        SettingName::KeepEndedWatches => 13,
    }
}

fn gate(v: Gate) -> usize {
    match v {
        Gate::ConsistentListFromCache => 0,
        Gate::ConsistentListFromCacheSkipTimeoutFallback => 1,
        Gate::ListFromCacheSnapshot => 2,
        Gate::WatchList => 3,
        Gate::ResilientWatchCacheInitialization => 4,
        Gate::WatchFromStorageWithoutResourceVersion => 5,
        Gate::BtreeWatchCache => 6,
        Gate::WatchCacheInitializationPostStartHook => 7,
        Gate::WatchListCompression => 8,
        Gate::EtcdRangeStream => 9,
        Gate::ConcurrentWatchObjectDecode => 10,
    }
}

fn frame(v: FrameType) -> usize {
    match v {
        FrameType::Added => 0,
        FrameType::Modified => 1,
        FrameType::Deleted => 2,
        FrameType::Bookmark => 3,
        FrameType::Error => 4,
    }
}

fn informer_mode(v: InformerMode) -> usize {
    match v {
        InformerMode::Legacy => 0,
        InformerMode::Streaming => 1,
    }
}

#[test]
fn every_all_list_holds_each_variant_once_in_order() {
    check(&SettingName::ALL, setting);
    check(&Gate::ALL, gate);
    check(&FrameType::ALL, frame);
    check(&InformerMode::ALL, informer_mode);
}
