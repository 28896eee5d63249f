//! Guided lessons (the lesson files come from the engine's `sources()`, linked into the test
//! wasm only; the app fetches them from `lessons/` next to the page).

use super::*;

/// A loader that answers from the engine's embedded texts, asynchronously like fetch.
pub(crate) fn inline_loader() -> Loader {
    Rc::new(|file: &str, done: yew::Callback<Result<String, Problem>>| {
        let text = rvlab::lessons::sources()
            .iter()
            .find(|(f, _)| *f == file)
            .map(|(_, t)| t.to_string())
            .ok_or_else(|| Problem::Http { status: 404, status_text: "Not Found".into() });
        yew::platform::spawn_local(async move { done.emit(text) });
    })
}

pub(crate) fn clear_lessons() {
    for k in [STORAGE_KEY, ACTIVE_KEY, PROGRESS_KEY, rvlab::ui::model::BACKUP_KEY] {
        storage().remove_item(k).unwrap();
    }
}

impl Lab {
    /// Flushes until `sel` is rendered (bounded).
    pub(crate) async fn wait_for(&self, sel: &str) {
        for _ in 0..200 {
            if self.q(sel).is_some() {
                return;
            }
            yew::platform::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        panic!(
            "{sel} never rendered; panel: {}",
            self.q("#lesson-panel").and_then(|p| p.text_content()).unwrap_or_default()
        );
    }
}

#[wasm_bindgen_test]
fn every_lesson_file_has_a_slug_the_ui_finds() {
    for (file, text) in rvlab::lessons::sources() {
        let l = rvlab::lessons::parse(text).unwrap();
        assert_eq!(slug_of(file), l.slug, "{file}: the file name is NN-<slug>.rv");
        assert_eq!(index_of(&l.slug), FILES.iter().position(|f| f == file));
        // The book names lessons by file: `05-paging` and `05-paging.rv` find the same lesson.
        assert_eq!(index_of(file.trim_end_matches(".rv")), index_of(&l.slug), "{file}");
        assert_eq!(index_of(file), index_of(&l.slug), "{file}");
        assert!(l.missing_translations().is_empty(), "{file}: {:?}", l.missing_translations());
    }
    // Guided slugs and the built-in examples do not clash.
    for ex in rvlab::ui::examples::all() {
        assert!(index_of(ex.name).is_none(), "{} is both an example and a lesson", ex.name);
    }
    for not_a_lesson in ["05-pagin", "05", "paging.rv", "99-paging", ""] {
        assert_eq!(index_of(not_a_lesson), None, "{not_a_lesson:?}");
    }
}

#[wasm_bindgen_test]
async fn every_lesson_completes_through_the_dom_in_both_languages() {
    for (lang, passed) in [("en", "Goal reached."), ("zh", "目标已达成。")] {
        for (f, file) in FILES.iter().enumerate() {
            clear_lessons();
            let slug = slug_of(file);
            let cfg = Config::parse(&format!("?lang={lang}&lesson={slug}"), "").with_loader(inline_loader());
            let lab = Lab::with_config(cfg).await;
            lab.wait_for("#lesson-title").await;
            let lesson = rvlab::lessons::parse(rvlab::lessons::sources()[f].1).unwrap();
            assert_eq!(lab.text("#lesson-title"), lesson.title.get(lang));
            assert_eq!(lab.log(), lesson.setup, "{slug}: the sandbox starts with the setup");
            let n = lesson.steps.len();
            for (k, step) in lesson.steps.iter().enumerate() {
                assert_eq!(lab.attr("#lesson-panel", "data-step"), k.to_string());
                assert!(
                    lab.text("#lesson-goal").contains(&step.goal.get(lang).replace('`', "")),
                    "{slug} step {}",
                    k + 1
                );
                let before = lab.log().len();
                lab.click("#lesson-show").await;
                assert_eq!(
                    lab.log().len(),
                    before + step.solution.len(),
                    "{slug} step {}: Show me goes into the log",
                    k + 1
                );
                assert_eq!(&lab.log()[before..], &step.solution[..]);
                lab.click("#lesson-check").await;
                let result = lab.text("#lesson-result");
                assert!(
                    lab.el("#lesson-result").class_list().contains("ok") && result.contains(passed),
                    "{lang} {slug} step {}: {result}",
                    k + 1
                );
                if k + 1 < n {
                    lab.click("#lesson-next").await;
                }
            }
            assert!(lab.q("#lesson-complete").is_some(), "{lang} {slug}");
            let progress: serde_json::Value =
                serde_json::from_str(&storage().get_item(PROGRESS_KEY).unwrap().unwrap()).unwrap();
            assert_eq!(progress[slug].as_array().map(|a| a.len()), Some(n), "{slug}: {progress}");
            lab.unmount();
        }
    }
    clear_lessons();
}

/// A loader that answers `text` for the address `url` only (and 404 otherwise), recording what
/// it was asked for.
pub(crate) fn src_loader(
    url: &'static str,
    text: String,
    asked: Rc<std::cell::RefCell<Vec<String>>>,
) -> Loader {
    Rc::new(move |file: &str, done: yew::Callback<Result<String, Problem>>| {
        asked.borrow_mut().push(file.to_string());
        let r = if file == url {
            Ok(text.clone())
        } else {
            Err(Problem::Http { status: 404, status_text: "Not Found".into() })
        };
        yew::platform::spawn_local(async move { done.emit(r) });
    })
}

#[wasm_bindgen_test]
async fn a_lesson_named_by_lesson_src_is_fetched_from_its_address_and_runs() {
    clear_lessons();
    const URL: &str = "https://docs.example/book/my-lesson.rv";
    let text = rvlab::lessons::sources()[4].1;
    let lesson = rvlab::lessons::parse(text).unwrap();
    let asked: Rc<std::cell::RefCell<Vec<String>>> = Rc::default();
    let search = format!("?embed=1&lang=en&lesson-src={}", rvlab::ui::url::percent_encode(URL));
    let cfg = Config::parse(&search, "").with_loader(src_loader(URL, text.to_string(), asked.clone()));
    assert_eq!(cfg.lesson_src.as_deref(), Some(URL));
    assert_eq!(cfg.guided_lesson(), Some(FILES.len()), "lesson-src takes the slot after the files");
    assert!(!cfg.readonly(), "a guided lesson embed is interactive");
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-title").await;
    assert_eq!(*asked.borrow(), vec![URL.to_string()], "fetched from its address, once");
    assert_eq!(lab.text("#lesson-title"), lesson.title.en);
    assert_eq!(lab.log(), lesson.setup, "the sandbox starts with the lesson's setup");
    lab.click("#lesson-show").await;
    lab.click("#lesson-check").await;
    assert!(lab.el("#lesson-result").class_list().contains("ok"), "{}", lab.text("#lesson-result"));
    lab.unmount();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn a_lesson_src_that_is_not_a_lesson_says_so_and_keeps_the_page() {
    clear_lessons();
    const URL: &str = "https://docs.example/book/not-a-lesson.rv";
    let asked: Rc<std::cell::RefCell<Vec<String>>> = Rc::default();
    let search = format!("?embed=1&lang=en&lesson-src={}", rvlab::ui::url::percent_encode(URL));
    let cfg = Config::parse(&search, "").with_loader(src_loader(
        URL,
        "GET /api/v1/namespaces\n".to_string(),
        asked.clone(),
    ));
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-panel .lesson-error").await;
    let msg = lab.text("#lesson-panel .lesson-error");
    assert!(msg.contains(URL) && msg.contains("a script line before `#: setup` or `#: step`"), "{msg}");
    assert_eq!(lab.text("#lesson-panel h2"), URL);
    assert!(lab.q("#console-input").is_some() || lab.q(".app.embed").is_some(), "the app is still there");
    lab.unmount();
    // Not found: the HTTP status is named.
    let cfg = Config::parse("?embed=1&lang=en&lesson-src=elsewhere.rv", "").with_loader(src_loader(
        URL,
        String::new(),
        asked.clone(),
    ));
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-panel .lesson-error").await;
    assert!(
        lab.text("#lesson-panel .lesson-error").contains("404"),
        "{}",
        lab.text("#lesson-panel .lesson-error")
    );
    lab.unmount();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn check_says_what_is_still_missing_after_a_wrong_action() {
    clear_lessons();
    let cfg = Config::parse("?lang=en&lesson=where-rv-comes-from", "").with_loader(inline_loader());
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-title").await;
    // Nothing done yet.
    lab.click("#lesson-check").await;
    assert!(lab.el("#lesson-result").class_list().contains("missing"));
    assert!(
        lab.text("#lesson-missing").contains("nothing has run in this step yet"),
        "{}",
        lab.text("#lesson-missing")
    );
    // The wrong object: the name check says what it expected and what it saw.
    lab.console(r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"b"}}"#).await;
    lab.click("#lesson-check").await;
    let missing = lab.text("#lesson-missing");
    assert!(
        missing.contains(r#"body.metadata.name in the answer should be "a"; now it is "b"."#),
        "{missing}"
    );
    assert!(!missing.contains("status code"), "the code check holds: {missing}");
    assert!(!missing.contains("=="), "learner words, not checker expressions: {missing}");
    // In Chinese too.
    lab.select("#lang", "zh").await;
    assert!(lab.text("#lesson-result").contains("还没有完成"), "{}", lab.text("#lesson-result"));
    assert!(
        lab.text("#lesson-missing").contains(r#"响应中的 body.metadata.name应为 "a"；现在是 "b"。"#),
        "{}",
        lab.text("#lesson-missing")
    );
    lab.select("#lang", "en").await;
    // A later change makes the result stale.
    lab.console("advance 1s").await;
    assert!(lab.text("#lesson-result").contains("press Check again"));
    // Undo the wrong line; the right one passes (any correct way counts, not only Show me).
    lab.click("#undo").await;
    lab.click("#undo").await;
    lab.console(
        r#"POST /api/v1/namespaces/default/configmaps {"metadata":{"name":"a"},"data":{"mine":"yes"}}"#,
    )
    .await;
    lab.click("#lesson-check").await;
    assert!(lab.el("#lesson-result").class_list().contains("ok"), "{}", lab.text("#lesson-result"));
    assert!(lab.text("#lesson-after").contains("resourceVersion is \"2\""), "{}", lab.text("#lesson-after"));
    lab.unmount();
    clear_lessons();
}

/// The lessons inline, except that fetching `failing` answers HTTP 503 while `fails` counts down.
pub(crate) fn failing_once(failing: &'static str, fails: Rc<std::cell::Cell<u32>>) -> Loader {
    let inner = inline_loader();
    Rc::new(move |file: &str, done: yew::Callback<Result<String, Problem>>| {
        if file == failing && fails.get() > 0 {
            fails.set(fails.get() - 1);
            let e = Problem::Http { status: 503, status_text: "Service Unavailable".into() };
            yew::platform::spawn_local(async move { done.emit(Err(e)) });
        } else {
            inner(file, done);
        }
    })
}

/// A line the session refuses, or that does not parse, gives the UI its typed reason; the
/// response's error box, its "Why?" and the console's summary render it in the UI's language.
#[wasm_bindgen_test]
async fn a_refused_line_is_told_in_the_learners_language() {
    use rvlab::script::line_error::LineError;
    use rvlab::script::refusal::Refusal;
    let lab = Lab::fresh().await;
    lab.console("events w9").await;
    lab.console("advance 169h").await;
    let no_watch = Refusal::NoWatch { watch: "w9".into(), hint: true };
    let too_long = Refusal::AdvanceTooLong { max: "168h".into() };
    assert_eq!(lab.text("#line-error"), "advance is at most 168h per line; repeat the line to go further");
    lab.select("#lang", "zh").await;
    assert_eq!(lab.text("#line-error"), too_long.render(why::Lang::Zh));
    assert_eq!(lab.text("#line-error"), "一行 advance 最多 168h；要走得更远，请重复这一行");
    let row = lab.text("#log li[data-line='1']");
    assert!(row.contains(&no_watch.render(why::Lang::Zh)), "{row}");
    assert!(!row.contains("no watch named"), "{row}");
    assert!(lab.text("#why-text").starts_with("这一行没有运行"), "{}", lab.text("#why-text"));
    lab.console("set compactor maybe").await;
    assert_eq!(lab.text("#line-error"), "compactor 只接受 on 或 off，而不是 \"maybe\"");
    // A bad duration says what is wrong with it, as the English does.
    lab.console("set cache.lag 5").await;
    assert_eq!(lab.text("#line-error"), "cache.lag：无效的时长 \"5\"：缺少单位；可用 ms、s、m 或 h");
    // A line that does not parse: its syntax error is a value too, told in 中文; the script words
    // (the command, its usage) stay as written.
    lab.console("frobnicate now").await;
    let unknown = rvlab::script::parse::parse_line("frobnicate now").unwrap_err();
    assert_eq!(lab.text("#line-error"), unknown.render(why::Lang::Zh));
    assert!(
        lab.text("#line-error").starts_with("未知命令 \"frobnicate\"；应为 GET、POST、PUT、"),
        "{}",
        lab.text("#line-error")
    );
    assert!(lab.text("#why-text").starts_with("这一行不符合脚本语言的写法"), "{}", lab.text("#why-text"));
    lab.console("compact x").await;
    assert_eq!(lab.text("#line-error"), "compact：修订号（revision）必须是数字，而不是 \"x\"");
    assert!(
        lab.text("#log li[data-line='6']").contains("修订号（revision）必须是数字"),
        "{}",
        lab.text("#log li[data-line='6']")
    );
    lab.select("#lang", "en").await;
    assert_eq!(lab.text("#line-error"), "compact: revision must be a number, got \"x\"");
    assert!(lab.text("#log li[data-line='1']").contains(&no_watch.to_string()));
    // etcd's own error is not a refusal of the session: its words stay etcd's, and "Why?" says so.
    lab.console("compact 99").await;
    assert_eq!(lab.text("#line-error"), "mvcc: required revision is a future revision");
    assert!(
        lab.text("#why-text").starts_with("This line ended in the error above"),
        "{}",
        lab.text("#why-text")
    );
    lab.select("#lang", "zh").await;
    lab.console("pager list /apis/x").await;
    assert_eq!(
        lab.text("#line-error"),
        "pager list：\"/apis/x\" 不是集合路径；应为 /api/v1/namespaces/<ns>/<resource> 或 /api/v1/<resource>"
    );
    assert!(lab.text("#why-text").starts_with("这一行没有运行"), "{}", lab.text("#why-text"));
    // The language lives in the page's URL: later tests start in English.
    lab.select("#lang", "en").await;
    lab.unmount();
}

#[wasm_bindgen_test]
async fn a_failed_lesson_fetch_is_reported_in_the_learners_language() {
    clear_lessons();
    let loader = failing_once(FILES[2], Rc::new(std::cell::Cell::new(1)));
    let lab = Lab::with_config(Config::parse("?lang=zh", "").with_loader(loader)).await;
    lab.click("#lessons").await;
    lab.wait_for("#lesson-list li .lesson-retry").await;
    let row = lab.text("#lesson-list li[data-slug='list-rv']");
    assert!(row.contains("无法加载 03-list-rv.rv：服务器返回 HTTP 503 Service Unavailable"), "{row}");
    lab.unmount();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn lesson_list_progress_failed_fetch_retry_leave_and_resume() {
    clear_lessons();
    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    // The third file fails once, then loads.
    let fails = Rc::new(std::cell::Cell::new(1));
    let loader = failing_once(FILES[2], fails.clone());
    let lab = Lab::with_config(Config::parse("?lang=en", "").with_loader(loader.clone())).await;
    assert!(lab.q("#lesson-panel").is_none());
    lab.click("#lessons").await;
    lab.wait_for("#lesson-list li[data-slug='myths'] .lesson-progress").await;
    assert_eq!(lab.all("#lesson-list li").len(), FILES.len());
    let row = lab.text("#lesson-list li[data-slug='list-rv']");
    assert!(row.contains("Could not load 03-list-rv.rv") && row.contains("503"), "{row}");
    lab.click("#lesson-list li[data-slug='list-rv'] .lesson-retry").await;
    lab.wait_for("#lesson-list li[data-slug='list-rv'] .lesson-progress").await;
    assert!(lab.text("#lesson-list li[data-slug='where-rv-comes-from']").contains("0/6 steps"));
    // Open lesson 1: the old sandbox is backed up, and can come back.
    lab.click("#lesson-list li[data-slug='where-rv-comes-from'] button").await;
    lab.wait_for("#lesson-title").await;
    assert!(lab.log().is_empty());
    assert!(lab.text("#notice").contains("Your previous sandbox was kept"), "{}", lab.text("#notice"));
    lab.click("#lesson-show").await;
    lab.click("#lesson-check").await;
    lab.click("#lesson-next").await;
    assert_eq!(lab.text("#lesson-pos"), "Step 2 of 6");
    lab.click("#lesson-all").await;
    assert!(lab.text("#lesson-list li[data-slug='where-rv-comes-from']").contains("1/6 steps"));
    lab.click("#lesson-list li[data-slug='where-rv-comes-from'] button").await;
    lab.wait_for("#lesson-title").await;
    // Reopening from the list starts the lesson again.
    assert!(lab.log().is_empty());
    lab.click("#lesson-show").await;
    lab.click("#lesson-next").await;
    let log = lab.log();
    lab.unmount();
    // A reload resumes the lesson at its step over the restored sandbox.
    let again = Lab::with_config(Config::parse("?lang=en", "").with_loader(loader.clone())).await;
    again.wait_for("#lesson-title").await;
    assert_eq!(again.log(), log);
    assert_eq!(again.text("#lesson-pos"), "Step 2 of 6");
    again.click("#lesson-show").await;
    again.click("#lesson-check").await;
    assert!(again.el("#lesson-result").class_list().contains("ok"), "{}", again.text("#lesson-result"));
    // Leave: the panel goes, the sandbox stays and stays playable.
    let log = again.log();
    again.click("#lesson-leave").await;
    assert!(again.q("#lesson-panel").is_none());
    assert_eq!(again.log(), log);
    again.console("advance 1s").await;
    assert_eq!(again.log().len(), log.len() + 1);
    assert!(storage().get_item(ACTIVE_KEY).unwrap().is_none());
    again.unmount();
    clear_lessons();
}

#[wasm_bindgen_test]
async fn the_app_fetches_lessons_next_to_the_page_and_reports_a_failed_fetch() {
    clear_lessons();
    // The test runner serves the crate directory, so `lessons/<file>` (relative) is found as it
    // is next to dist/index.html: the real fetch path loads and parses it.
    let lab = Lab::with_config(Config::parse("?lang=en&lesson=paging", "")).await;
    lab.wait_for("#lesson-title").await;
    assert!(lab.text("#lesson-title").starts_with("Paging"), "{}", lab.text("#lesson-title"));
    lab.unmount();
    // A file that is not there: an error that says why.
    let got: Rc<std::cell::RefCell<Option<Result<String, Problem>>>> = Rc::default();
    let g = got.clone();
    guided::fetch_text("lessons/99-not-there.rv", yew::Callback::from(move |r| *g.borrow_mut() = Some(r)));
    for _ in 0..200 {
        if got.borrow().is_some() {
            break;
        }
        yew::platform::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let r = got.borrow().clone().expect("fetch answered");
    assert!(matches!(r, Err(Problem::Http { status: 404, .. })), "{r:?}");
    clear_lessons();
}

#[wasm_bindgen_test]
async fn lessons_open_in_embeds_interactive_or_as_a_read_only_replay() {
    clear_lessons();
    storage().set_item(STORAGE_KEY, r#"{"log":["advance 5m"],"redo":[]}"#).unwrap();
    let it =
        Lab::with_config(Config::parse("?embed=1&lang=zh&lesson=paging", "").with_loader(inline_loader()))
            .await;
    it.wait_for("#lesson-title").await;
    assert!(it.q("#console-input").is_some(), "a lesson embed is interactive by default");
    it.click("#lesson-show").await;
    it.click("#lesson-check").await;
    assert!(it.text("#lesson-result").contains("目标已达成"), "{}", it.text("#lesson-result"));
    assert!(it.q("#lesson-all").is_some());
    // Read-only: every solution is in the log; the steps move the scrubber.
    let l = rvlab::lessons::parse(rvlab::lessons::sources()[0].1).unwrap();
    let ro = Lab::with_config(
        Config::parse("?embed=1&mode=readonly&lang=en&lesson=where-rv-comes-from", "")
            .with_loader(inline_loader()),
    )
    .await;
    ro.wait_for("#lesson-title").await;
    assert!(ro.q("#console-input").is_none() && ro.q("#lesson-show").is_none());
    let total: usize = l.setup.len() + l.steps.iter().map(|s| s.solution.len()).sum::<usize>();
    assert_eq!(ro.log().len(), total);
    assert_eq!(ro.text("#scrub-pos"), format!("step {} of {total}", guided::replay_end(&l, 0)));
    ro.click("#lesson-next").await;
    assert_eq!(ro.text("#scrub-pos"), format!("step {} of {total}", guided::replay_end(&l, 1)));
    assert!(ro.text("#lesson-after").contains("mod_revision"), "{}", ro.text("#lesson-after"));
    // Embeds keep nothing: the playground's sandbox and progress are untouched.
    assert_eq!(it.saved().await["log"], json!(["advance 5m"]));
    assert!(storage().get_item(PROGRESS_KEY).unwrap().is_none());
    assert!(storage().get_item(ACTIVE_KEY).unwrap().is_none());
    it.unmount();
    ro.unmount();
    clear_lessons();
}
