//! What the UI shows is what the engine runs: the settings in effect, lesson 1 step 5.

use super::*;

// ==== Settings in effect (the UI shows the engine's settings) ===============================

/// The Settings panel shows the settings in effect per apiserver, read from the session: a fresh
/// sandbox runs one apiserver of 1.37 with its watch cache on and no lag. Each row starts at the
/// value in effect, its Set stays disabled while it would change nothing, and a new value goes
/// in as a `set` line like any other.
#[wasm_bindgen_test]
async fn the_settings_panel_shows_the_settings_in_effect() {
    let lab = Lab::fresh().await;
    let cell = |lab: &Lab, n: usize, s: &str| {
        lab.text(&format!("#settings-effective tr[data-apiserver='{n}'] td[data-setting='{s}']"))
    };
    assert_eq!(lab.all("#settings-effective tbody tr").len(), 1);
    assert_eq!(cell(&lab, 1, "kubernetes"), "1.37");
    assert_eq!(cell(&lab, 1, "watch-cache"), "on");
    assert_eq!(cell(&lab, 1, "cache.lag"), "0s");
    assert_eq!(cell(&lab, 1, "cache.capacity"), "auto");
    assert!(lab.text("#settings-cluster").contains("apiservers 1"), "{}", lab.text("#settings-cluster"));
    let select =
        |lab: &Lab, sel: &str| lab.el(sel).dyn_into::<HtmlSelectElement>().expect("a select").value();
    let field = |lab: &Lab, sel: &str| lab.el(sel).dyn_into::<HtmlInputElement>().expect("a field");
    let disabled =
        |lab: &Lab, cmd: &str| lab.el(&format!("button[data-cmd='{cmd}']")).has_attribute("disabled");
    // Selects start at the value in effect, text fields empty with it as their placeholder.
    assert_eq!(select(&lab, "#set-watch-cache"), "on");
    assert_eq!(select(&lab, "#set-kubernetes"), "1.37");
    assert_eq!(field(&lab, "#set-cache-lag").value(), "");
    assert_eq!(field(&lab, "#set-cache-lag").placeholder(), "0s");
    assert_eq!(field(&lab, "#set-apiservers").placeholder(), "1");
    assert!(disabled(&lab, "set watch-cache on"));
    assert!(disabled(&lab, "set kubernetes 1.37"));
    // Pressing Set beside a value in effect changes nothing.
    lab.click("button[data-cmd='set watch-cache on']").await;
    lab.click("button[data-cmd='set kubernetes 1.37']").await;
    assert!(lab.log().is_empty(), "{:?}", lab.log());
    lab.input("#set-cache-lag", "0s").await;
    assert!(disabled(&lab, "set cache.lag 0s"));
    // A new value is one `set` line; the table follows it and the field empties.
    lab.input("#set-cache-lag", "2s").await;
    assert!(!disabled(&lab, "set cache.lag 2s"));
    lab.click("button[data-cmd='set cache.lag 2s']").await;
    assert_eq!(lab.log(), ["set cache.lag 2s"]);
    assert_eq!(cell(&lab, 1, "cache.lag"), "2s");
    assert_eq!(field(&lab, "#set-cache-lag").value(), "");
    assert_eq!(field(&lab, "#set-cache-lag").placeholder(), "2s");
    // A line typed in the console changes the same table: two apiservers, the new one's own.
    lab.console("set apiservers 2").await;
    assert_eq!(lab.all("#settings-effective tbody tr").len(), 2);
    assert_eq!(cell(&lab, 2, "cache.lag"), "0s");
    lab.console("apiserver 2").await;
    assert!(lab.text("#settings-goto").contains("apiserver 2"), "{}", lab.text("#settings-goto"));
    assert_eq!(field(&lab, "#set-cache-lag").placeholder(), "0s");
    lab.select("#set-watch-cache", "off").await;
    lab.click("button[data-cmd='set watch-cache off']").await;
    assert_eq!(cell(&lab, 2, "watch-cache"), "off");
    assert_eq!(cell(&lab, 1, "watch-cache"), "on");
    assert_eq!(select(&lab, "#set-watch-cache"), "off");
    lab.unmount();
}

// ==== Lesson 1, step 5: the etcd panel's Read etcd does what the step asks ==================

/// "Read `a` from etcd again and find its version": the etcd panel's Read etcd reads every key
/// now, `a` at mod_revision 4 and version 2, and Check accepts it.
#[wasm_bindgen_test]
async fn lesson_one_step_five_passes_with_the_etcd_panels_read() {
    clear_lessons();
    let cfg = Config::parse("?lang=en&lesson=where-rv-comes-from", "").with_loader(inline_loader());
    let lab = Lab::with_config(cfg).await;
    lab.wait_for("#lesson-title").await;
    for _ in 0..4 {
        lab.click("#lesson-show").await;
        lab.click("#lesson-check").await;
        lab.click("#lesson-next").await;
    }
    lab.click("#etcd-read").await;
    let rows = lab.text("#etcd-kvs");
    assert!(rows.contains("/registry/configmaps/default/a"), "{rows}");
    lab.click("#lesson-check").await;
    assert!(lab.el("#lesson-result").class_list().contains("ok"), "{}", lab.text("#lesson-result"));
    lab.unmount();
    clear_lessons();
}
