//! Copying to the clipboard waits for the browser's answer; what went wrong is told in the
//! page's language.

use super::*;

/// Puts a `navigator.clipboard` whose `writeText` answers with `answer` (a JS expression) in
/// front of the browser's own; [`unstub_clipboard`] takes it away.
pub(crate) fn stub_clipboard(answer: &str) {
    js_sys::eval(&format!(
        "Object.defineProperty(navigator, 'clipboard', {{ configurable: true, value: {{ writeText: () => {answer} }} }})"
    ))
    .unwrap();
}

pub(crate) fn unstub_clipboard() {
    js_sys::eval("delete navigator.clipboard").unwrap();
}

#[wasm_bindgen_test]
async fn a_refused_clipboard_write_says_the_copy_failed_in_the_pages_language() {
    let refuse = "Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))";
    for (lang, failed, copied) in [
        (
            "en",
            "Could not copy (Write permission denied.): select the link and copy it by hand.",
            "Link copied to the clipboard.",
        ),
        ("zh", "复制失败（Write permission denied.）：请手动选中链接并复制。", "链接已复制到剪贴板。"),
    ] {
        storage().remove_item(STORAGE_KEY).unwrap();
        let lab = Lab::with_config(Config::parse(&format!("?lang={lang}"), "")).await;
        lab.console("advance 1s").await;
        lab.click("#share").await;
        stub_clipboard(refuse);
        lab.click("#share-copy").await;
        settle().await;
        // The notice's message (its dismiss button's "×" is not part of it).
        let message = |lab: &Lab| lab.q("#notice > span").and_then(|n| n.text_content());
        let refused = message(&lab).map(|m| (m, lab.q("#notice").and_then(|n| n.get_attribute("role"))));
        stub_clipboard("Promise.resolve()");
        lab.click("#share-copy").await;
        settle().await;
        let done = message(&lab);
        unstub_clipboard();
        lab.unmount();
        assert_eq!(refused, Some((failed.to_string(), Some("alert".to_string()))), "{lang}");
        assert_eq!(done.as_deref(), Some(copied), "{lang}");
    }
    storage().remove_item(STORAGE_KEY).unwrap();
}

/// What went wrong (`model::Problem`) in both languages: the browser's own words stay as they
/// came, everything else is the page's language; a notice renders it when drawn.
#[wasm_bindgen_test]
fn problems_are_told_in_english_and_chinese() {
    use rvlab::ui::i18n::Tr;
    use rvlab::ui::model::{Notice, Problem, parse_saved};
    use rvlab::ui::share::DataError;
    let (en, zh) = (Tr(Lang::En), Tr(Lang::Zh));
    let cases = [
        (Problem::NoWindow, "no window", "没有 window 对象"),
        (
            Problem::StorageMissing,
            "localStorage is not available in this browser",
            "此浏览器不提供 localStorage",
        ),
        (
            Problem::StorageBlocked("The operation is insecure.".into()),
            "localStorage is blocked: The operation is insecure.",
            "localStorage 被阻止：The operation is insecure.",
        ),
        (Problem::ClipboardMissing, "the Clipboard API is not available", "浏览器不提供剪贴板 API"),
        (Problem::FileUnreadable, "unreadable file", "文件无法读取"),
        (Problem::Browser("QuotaExceededError".into()), "QuotaExceededError", "QuotaExceededError"),
        (Problem::Share(DataError::TooManyLines(200_000)), "more than 200000 lines", "超过 200000 行"),
        (Problem::Share(DataError::TooBig(8)), "more than 8 MB", "超过 8 MB"),
        (Problem::Share(DataError::CutShort), "cut short", "数据被截断"),
    ];
    for (p, e, z) in cases {
        assert_eq!((p.text(en), p.text(zh)), (e.to_string(), z.to_string()));
    }
    assert_eq!(parse_saved("{"), Err(Problem::NotJson { line: 1, column: 1 }));
    assert_eq!(parse_saved(r#"{"log":[1]}"#), Err(Problem::LineNotText));
    assert_eq!(parse_saved(r#"{"log":[],"redo":3}"#), Err(Problem::RedoNotList));
    assert_eq!(parse_saved("7"), Err(Problem::NotSaved));
    assert_eq!(Problem::NotJson { line: 1, column: 1 }.text(zh), "不是 JSON（第 1 行第 1 列出错）");
    let n = Notice::error(K::NoticeRestoreFailedNotSaving, vec![STORAGE_KEY.into()]).arg(Problem::NotSaved);
    assert_eq!(
        n.text(en),
        "The saved sandbox (rvlab.log.v1) could not be read: not a saved sandbox. Started with an empty sandbox that this tab does not save, so the saved text stays as it was."
    );
    assert_eq!(
        n.text(zh),
        "无法读取已保存的沙盒（rvlab.log.v1）：不是保存下来的沙盒。已从空沙盒开始；这个标签页不会保存它，已保存的内容保持原样。"
    );
}

/// Play's title and the timeline's not-fresh label, in both languages; the label's wait is the
/// cacher's own constant.
#[wasm_bindgen_test]
fn play_and_the_freshness_wait_are_told_as_they_are() {
    assert_eq!(
        K::PlayTitle.get(Lang::En),
        "While playing, the clock moves every second by the chosen speed (10× = 10 simulated seconds); the whole Play session is one advance line that grows as it plays, and Pause ends it"
    );
    assert_eq!(
        K::PlayTitle.get(Lang::Zh),
        "播放时，时钟每秒按所选速度推进一次（10× 即 10 秒模拟时间）；整个播放过程只是一行 advance，随播放不断增长，按暂停即结束这一行"
    );
    let s = rvlab::apiserver::cacher::FRESHNESS_TIMEOUT.as_millis() / 1000;
    let wait = |l| rvlab::script::why::span(rvlab::apiserver::cacher::FRESHNESS_TIMEOUT, l);
    let fill = |k: K, l: Lang, w: String| i18n::fill(k.get(l), &[&504, &w]);
    assert_eq!(
        fill(K::TlEndNotFresh, Lang::En, wait(rvlab::script::why::Lang::En)),
        format!("ERROR 504: cache not fresh within {s} s")
    );
    assert_eq!(
        fill(K::TlEndNotFresh, Lang::Zh, wait(rvlab::script::why::Lang::Zh)),
        format!("ERROR 504：cache 在 {s} 秒内没有追上")
    );
}
