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
    static PROBE: Option<web_sys::Element> = probe();
    static CACHE: RefCell<HashMap<String, f64>> = RefCell::new(HashMap::new());
}

/// Forgets the measured label widths (after the page's style sheet changed).
pub fn remeasure() {
    CACHE.with(|c| c.borrow_mut().clear());
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
    doc.body()?.append_child(&svg).ok()?;
    Some(text)
}

/// `text` cut (with a leading or trailing "…") to fit `max` pixels.
pub fn fit(text: &str, max: f64, keep_end: bool) -> String {
    if text_width(text) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for n in (1..chars.len()).rev() {
        let s: String = if keep_end {
            std::iter::once('…').chain(chars[chars.len() - n..].iter().copied()).collect()
        } else {
            chars[..n].iter().copied().chain(std::iter::once('…')).collect()
        };
        if text_width(&s) <= max {
            return s;
        }
    }
    String::new()
}

/// `text` broken into lines of at most `max` pixels: at spaces, and between CJK characters
/// (which need no space); a word wider than a line is cut with "…".
pub fn wrap(text: &str, max: f64) -> Vec<String> {
    // Tokens: (preceded by a space, text).
    let mut tokens: Vec<(bool, String)> = Vec::new();
    let mut space = false;
    for c in text.chars() {
        if c == ' ' {
            space = true;
            continue;
        }
        let wide = !c.is_ascii();
        match tokens.last_mut() {
            Some((_, t)) if !space && !wide && t.chars().last().is_some_and(|l| l.is_ascii()) => t.push(c),
            _ => tokens.push((space, c.to_string())),
        }
        space = false;
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (sp, t) in tokens {
        let joined = if cur.is_empty() {
            t.clone()
        } else if sp {
            format!("{cur} {t}")
        } else {
            format!("{cur}{t}")
        };
        if cur.is_empty() || text_width(&joined) <= max {
            cur = joined;
        } else {
            lines.push(fit(&cur, max, false));
            cur = t;
        }
    }
    if !cur.is_empty() {
        lines.push(fit(&cur, max, false));
    }
    lines
}
