//! Text as the pictures draw it: widths measured by the browser (cached per string), and text
//! cut or wrapped to fit a width.

#[allow(unused_imports)]
use super::*;

/// The width of `text` as the pictures draw it, measured by the browser: an offscreen SVG
/// `<text>` styled like the pictures' labels (`getComputedTextLength`), so 中文 and any font the
/// page ends up with are measured, not guessed. Cached per string.
pub fn text_width(text: &str) -> f64 {
    measure(text, false)
}

/// [`text_width`] in bold (the selected line's labels).
pub fn bold_width(text: &str) -> f64 {
    measure(text, true)
}

fn measure(text: &str, bold: bool) -> f64 {
    let key = if bold { format!("\u{1}{text}") } else { text.to_string() };
    if let Some(w) = CACHE.with(|c| c.borrow().get(&key).copied()) {
        return w;
    }
    let measured = PROBE.with(|p| {
        let p = p.as_ref()?;
        p.set_attribute("font-weight", if bold { "700" } else { "400" }).ok()?;
        p.set_text_content(Some(text));
        let f: js_sys::Function =
            js_sys::Reflect::get(p, &"getComputedTextLength".into()).ok()?.dyn_into().ok()?;
        f.call0(p).ok()?.as_f64()
    });
    // Without a document (never in a browser): a generous bound, CJK a full em.
    let w = measured.unwrap_or_else(|| crate::ui::picture::estimate_width(text));
    CACHE.with(|c| c.borrow_mut().insert(key, w));
    w
}

thread_local! {
    /// Where the probe goes instead of the document's body: for embeds mounted in a host page,
    /// an element under a shadow root with the app's stylesheet ([`measure_in`]).
    static ROOT: RefCell<Option<web_sys::Element>> = const { RefCell::new(None) };
    static PROBE: Option<web_sys::Element> = probe();
    static CACHE: RefCell<HashMap<String, f64>> = RefCell::new(HashMap::new());
}

/// Forgets the measured label widths (after the page's style sheet changed).
pub fn remeasure() {
    CACHE.with(|c| c.borrow_mut().clear());
}

/// Measures in `root` (before the first measurement): embeds mounted in a host page, whose
/// body lacks the app's stylesheet, measure in a hidden element styled like them.
pub fn measure_in(root: web_sys::Element) {
    ROOT.with(|r| *r.borrow_mut() = Some(root));
}

/// The hidden `<svg class="timeline"><text class="lbl">` that [`text_width`] measures with.
fn probe() -> Option<web_sys::Element> {
    const NS: &str = "http://www.w3.org/2000/svg";
    let doc = web_sys::window()?.document()?;
    let svg = doc.create_element_ns(Some(NS), "svg").ok()?;
    svg.set_attribute("class", "timeline").ok()?;
    svg.set_attribute("aria-hidden", "true").ok()?;
    svg.set_attribute("width", "10").ok()?;
    svg.set_attribute("height", "10").ok()?;
    svg.set_attribute("style", "position:absolute;left:-10000px;top:0;visibility:hidden").ok()?;
    let text = doc.create_element_ns(Some(NS), "text").ok()?;
    text.set_attribute("class", "lbl").ok()?;
    svg.append_child(&text).ok()?;
    match ROOT.with(|r| r.borrow().clone()) {
        Some(root) => root.append_child(&svg).ok()?,
        None => doc.body()?.append_child(&svg).ok()?,
    };
    Some(text)
}

/// `text` cut (with a leading or trailing "…") to fit `max` pixels.
pub fn fit(text: &str, max: f64, keep_end: bool) -> String {
    crate::ui::picture::text::fit(text, max, keep_end, &text_width)
}

/// `text` broken into lines of at most `max` pixels: at spaces and between CJK characters,
/// never before closing punctuation nor after opening punctuation (`picture::text::wrap`).
pub fn wrap(text: &str, max: f64) -> Vec<String> {
    crate::ui::picture::text::wrap(text, max, &text_width)
}
