//! Share links, embed mode, big histories, built-in lessons.

use super::*;

#[wasm_bindgen_test]
async fn a_share_link_round_trips_the_sandbox_and_the_scrubber() {
    use rvlab::ui::share;
    let s =
        share::Shared { log: vec!["advance 1s".into(), CM_A.into(), "# ünïcødé 中文".into()], at: 2 };
    let frag = share::encode(&s);
    assert!(frag.starts_with("v1="));
    assert!(frag[3..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{frag}");
    assert_eq!(share::decode(&frag).unwrap(), s);
    assert_eq!(share::decode(&format!("#{frag}")).unwrap(), s);
    // The packer round-trips and actually packs a realistic log.
    let log: Vec<String> =
        (0..200).map(|i| format!("{CM_A}\nGET /api/v1/namespaces/default/configmaps?limit={i}")).collect();
    let text = log.join("\n");
    let packed = share::pack(text.as_bytes());
    assert_eq!(share::unpack(&packed, usize::MAX).unwrap(), text.as_bytes());
    assert!(packed.len() * 5 < text.len(), "{} -> {}", text.len(), packed.len());
    for sample in ["", "a", "aaaaaaaaaaaaaaaaaaaaaaaa", "abcabcabcabd", "中文中文中文中文"] {
        assert_eq!(share::unpack(&share::pack(sample.as_bytes()), 1 << 20).unwrap(), sample.as_bytes());
    }

    // Through the DOM: the share box holds the link; opening it replays the sandbox.
    let lab = Lab::fresh().await;
    run_all(&lab, &[CM_A, CM_B, "GET /api/v1/namespaces/default/configmaps?limit=1", "compact 3"]).await;
    lab.click("#scrub-back").await;
    lab.click("#share").await;
    let url = lab.el("#share-url").dyn_into::<HtmlInputElement>().unwrap().value();
    let (_, fragment) = url.split_once('#').expect("a fragment");
    let log = lab.log();
    assert!(
        lab.el("#embed-code").dyn_into::<HtmlInputElement>().unwrap().value().contains("embed=1&amp;script=")
    );
    lab.unmount();
    // The same sandbox as a reload mounts it (the picture measures its width when it is first
    // drawn, and this one was first drawn over the empty sandbox's "start here").
    let again = Lab::mount().await;
    again.click("#scrub-back").await;
    let before = again.state_html();
    again.unmount();

    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    let opened = Lab::with_config(Config::parse("", &format!("#{fragment}"))).await;
    assert_eq!(opened.log(), log);
    assert_eq!(opened.text("#scrub-pos"), "step 3 of 4");
    assert_eq!(opened.state_html(), before);
    assert!(
        opened.text("#notice").contains("Opened a shared sandbox (4 lines)"),
        "{}",
        opened.text("#notice")
    );
    // The previous sandbox is kept and can come back.
    assert_eq!(opened.saved().await["log"].as_array().unwrap().len(), 4);
    opened.click("#restore-backup").await;
    assert_eq!(opened.log(), vec!["advance 5m"]);
    opened.unmount();
    storage().remove_item(rvlab::ui::model::BACKUP_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn a_corrupt_or_hostile_share_fragment_gives_a_message_and_an_empty_sandbox() {
    use base64::Engine as _;
    let b64 = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
    let deflate = |b: &[u8]| rvlab::ui::share::pack(b);
    let bomb = deflate(&vec![b'['; 9 * 1024 * 1024]);
    assert!(bomb.len() < 2000, "{}", bomb.len());
    let cases = [
        ("v1=%%%not-base64%%%".to_string(), "not valid base64url"),
        (format!("v1={}", b64(b"\x00\x01garbage that is not packed")), "points outside"),
        (format!("v1={}", b64(b"\x7f\x01abc")), "cut short"),
        (format!("v1={}", b64(&deflate(b"{not json"))), "not JSON"),
        (format!("v1={}", b64(&deflate(br#"{"log":[1,2,3]}"#))), "a line is not text"),
        (format!("v1={}", b64(&deflate(br#"{"log":["a"],"at":-4}"#))), "cannot be unpacked"),
        (format!("v1={}", b64(&bomb)), "more than 8 MB"),
        ("v7=abc".to_string(), "newer rvlab"),
        ("v1=".to_string(), "cannot be unpacked"),
    ];
    for (frag, says) in cases {
        storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
        let lab = Lab::with_config(Config::parse("?lang=en", &format!("#{frag}"))).await;
        assert!(lab.log().is_empty(), "{frag}: {:?}", lab.log());
        let notice = lab.el("#notice");
        assert_eq!(notice.get_attribute("role").as_deref(), Some("alert"));
        assert!(
            lab.text("#notice").contains(says),
            "{}: {}",
            &frag[..frag.len().min(40)],
            lab.text("#notice")
        );
        assert!(lab.text("#notice").contains("empty sandbox"));
        // The saved sandbox is untouched until something runs, and kept as a backup.
        assert_eq!(lab.saved().await["log"], json!(["advance 5m"]));
        assert!(lab.q("#restore-backup").is_some());
        lab.unmount();
    }
    // Not one of ours: ignored.
    let lab = Lab::with_config(Config::parse("", "#section-2")).await;
    assert_eq!(lab.log(), vec!["advance 5m"]);
    assert!(lab.q("#notice").is_none());
    lab.unmount();
    storage().remove_item(rvlab::ui::model::BACKUP_KEY).unwrap();
    storage().remove_item(STORAGE_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn embed_mode_takes_its_parameters_posts_its_height_and_never_touches_the_saved_sandbox() {
    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    // Listen for the height message.
    let got: Rc<std::cell::RefCell<Vec<(String, f64)>>> = Rc::default();
    let got2 = got.clone();
    let listener = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MessageEvent)>::new(
        move |e: web_sys::MessageEvent| {
            let d = e.data();
            let t =
                js_sys::Reflect::get(&d, &"type".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
            let h = js_sys::Reflect::get(&d, &"height".into()).ok().and_then(|v| v.as_f64()).unwrap_or(-1.0);
            got2.borrow_mut().push((t, h));
        },
    );
    let win = web_sys::window().unwrap();
    win.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref()).unwrap();

    let script = rvlab::ui::url::percent_encode(&format!(
        "{CM_A}\n{CM_B}\nGET /api/v1/namespaces/default/configmaps?limit=1\n"
    ));
    let ro = Lab::with_config(Config::parse(
        &format!("?embed=1&mode=readonly&theme=dark&lang=zh&script={script}"),
        "",
    ))
    .await;
    assert!(ro.el(".app").class_list().contains("embed"));
    assert_eq!(ro.attr(".app", "data-theme"), "dark");
    assert_eq!(ro.log().len(), 3);
    assert!(ro.q("#console-input").is_none() && ro.q("#request-form").is_none() && ro.q("#share").is_none());
    assert!(ro.text("#console-h").starts_with("控制台"));
    assert!(ro.q("g.mark.token[data-rv='3']").is_some());
    // Read-only still scrubs.
    ro.click("#scrub-back").await;
    assert!(ro.text("#scrub-pos").contains("第 2 步"));
    // Several embeds on one page are independent.
    let it = Lab::with_config(Config::parse("?embed=1&mode=interactive&lesson=compaction", "")).await;
    assert!(it.log().len() >= 6);
    assert!(it.text("#status").starts_with("410"), "{}", it.text("#response"));
    it.console("advance 1s").await;
    assert_eq!(it.log().last().unwrap(), "advance 1s");
    assert_eq!(ro.log().len(), 3);
    it.click("#reset").await;
    assert_ne!(it.log().last().unwrap(), "advance 1s");
    assert_eq!(
        it.saved().await["log"],
        json!(["advance 5m"]),
        "embeds do not write the playground's sandbox"
    );
    let unknown = Lab::with_config(Config::parse("?embed=1&lesson=nope", "")).await;
    assert!(unknown.text("#notice").contains("nope") && unknown.text("#notice").contains("pagination"));
    for _ in 0..20 {
        yew::platform::time::sleep(std::time::Duration::from_millis(10)).await;
        if got.borrow().len() >= 2 {
            break;
        }
    }
    let msgs = got.borrow().clone();
    assert!(msgs.iter().any(|(t, h)| t == "rvlab:height" && *h > 100.0), "{msgs:?}");
    win.remove_event_listener_with_callback("message", listener.as_ref().unchecked_ref()).unwrap();
    ro.unmount();
    it.unmount();
    unknown.unmount();
    storage().remove_item(STORAGE_KEY).unwrap();
}

/// A watch cache keeps a snapshot per revision; the system view draws at most one tick per
/// pixel of its row (the newest there), so thousands of snapshots are not thousands of elements.
#[wasm_bindgen_test]
async fn thousands_of_cache_snapshots_are_one_tick_per_pixel() {
    let mut session = rvlab::ui::state::new_session();
    let mut entries = Vec::new();
    for i in 0..3000usize {
        let line = format!(
            r#"etcd put /registry/configmaps/default/cm-{i} {{"kind":"ConfigMap","apiVersion":"v1","metadata":{{"name":"cm-{i}","namespace":"default"}}}}"#
        );
        let outcome = session.run_line_outcome(i + 1, &line);
        entries.push(rvlab::ui::state::Entry::new(line, outcome));
    }
    let view = session.view();
    let snapshots: Vec<i64> =
        view.apiservers.iter().flat_map(|a| &a.caches).flat_map(|c| c.snapshots.clone()).collect();
    assert!(snapshots.len() > 2000, "{} snapshots held", snapshots.len());
    let lab = Lab::with_config(Config::parse("?lang=en", "").with_session(session, entries)).await;
    settle().await;
    let ticks = lab.all(".pictures line.snapshot");
    let width = lab.el(".pictures").get_bounding_client_rect().width();
    // The stretches with only writes (and their snapshots) are folded: their ticks share the
    // fold's few pixels, one per pixel.
    assert!(!lab.attr("#system-view", "data-folds").is_empty());
    assert!(ticks.len() > 20 && ticks.len() as f64 <= width, "{} ticks in {width} px", ticks.len());
    let xs: Vec<f64> = ticks.iter().map(|t| t.get_bounding_client_rect().x().floor()).collect();
    assert!(xs.windows(2).all(|p| p[0] < p[1]), "one tick per pixel, in revision order");
    let rvs: Vec<i64> = ticks.iter().filter_map(|t| t.get_attribute("data-rv")?.parse().ok()).collect();
    assert_eq!(rvs.last(), snapshots.iter().max(), "the newest snapshot is drawn");
    lab.unmount();
}

#[wasm_bindgen_test]
async fn a_100000_revision_history_renders_without_freezing() {
    let t0 = js_sys::Date::now();
    let mut session = rvlab::ui::state::new_session();
    let mut entries = Vec::new();
    for i in 0..100_000usize {
        let line = format!("etcd put /registry/configmaps/default/k{} v{i}", i % 40);
        let outcome = session.run_line_outcome(i + 1, &line);
        entries.push(rvlab::ui::state::Entry::new(line, outcome));
    }
    entries.push(rvlab::ui::state::Entry::new(
        "compact 50000",
        session.run_line_outcome(100_001, "compact 50000"),
    ));
    let built = js_sys::Date::now();
    let lab = Lab::with_config(Config::parse("?lang=en", "").with_session(session, entries)).await;
    let rendered = js_sys::Date::now();
    assert_eq!(lab.window(), Window { lo: 1, hi: 100_001 });
    assert!(lab.text("#tl-showing").contains("of 100001"), "{}", lab.text("#tl-showing"));
    // Windowed and aggregated: a bounded number of SVG elements.
    let shapes = lab.all("#timeline-svg rect, #timeline-svg path, #timeline-svg line").len();
    assert!(shapes < 4000, "{shapes} shapes");
    assert!(lab.q("#tl-more").is_some(), "keys beyond the lane limit are aggregated");
    assert!(close(lab.num("#tl-compacted", "x") + lab.num("#tl-compacted", "width"), lab.axis().x(50_000.0)));
    assert!(lab.all("#log li").len() <= rvlab::ui::console::MAX_ROWS);
    assert!(lab.text("#log-more").contains("99701"), "{}", lab.text("#log-more"));
    // Zoom to a small range: single versions are drawn again.
    // The pictures lay out for the width they measure (a ResizeObserver): let that settle before
    // typing, as a person would be slower than that.
    settle().await;
    lab.input("#tl-from", "99990").await;
    fire(&lab.el("#tl-from"), "change");
    flush().await;
    assert_eq!(lab.window().lo, 99_990);
    assert!(lab.all("#timeline-svg rect.seg").len() >= 12);
    let done = js_sys::Date::now();
    web_sys::console::log_1(
        &format!(
            "100k: build {:.0} ms, first render {:.0} ms, zoom {:.0} ms",
            built - t0,
            rendered - built,
            done - rendered
        )
        .into(),
    );

    lab.unmount();
}

#[wasm_bindgen_test]
fn built_in_lessons_run_cleanly() {
    for l in rvlab::ui::examples::all() {
        let mut s = rvlab::ui::state::new_session();
        let outs: Vec<serde_json::Value> = rvlab::ui::examples::lines(&l)
            .iter()
            .enumerate()
            .filter_map(|(i, line)| s.run_line(i + 1, line))
            .collect();
        assert!(outs.iter().all(|o| o.get("error").is_none()), "{}: {outs:?}", l.name);
        let codes: Vec<u64> = outs.iter().filter_map(|o| o.get("code").and_then(|c| c.as_u64())).collect();
        match l.name {
            "pagination" => assert_eq!(codes.last(), Some(&200), "{outs:?}"),
            "compaction" => assert_eq!(codes.last(), Some(&410), "{outs:?}"),
            "conflict" => assert_eq!(codes[codes.len() - 2], 409, "{outs:?}"),
            "watch" => {
                assert!(outs.last().unwrap()["events"].as_array().is_some_and(|e| e.len() >= 2), "{outs:?}")
            }
            _ => {}
        }
    }
}
