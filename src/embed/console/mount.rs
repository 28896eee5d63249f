//! The console embed in the page (wasm32 only): `mountConsole`, exported by the `rvlab-embed`
//! module, renders into a node of the `<rv-playground>` element's shadow root with web-sys (no
//! Yew: the module stays small), and `Console` is the element's handle on it.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlElement, HtmlInputElement};

use super::options::{
    ActionRefusal, MAX_ACTION_BYTES, MAX_ACTION_LINES, MAX_LINE_BYTES, Options, check_action, kb, needs_full,
};
use super::shown::Row;
use super::words::{Word, parse_lang};
use crate::embed::{READ_ONLY, text_of, to_js};
use crate::script::Session;
use crate::script::batch::{self, Size};
use crate::script::why::Lang;

/// The console's stylesheet (in the shadow root, so it touches nothing of the host page).
const STYLE: &str = include_str!("console.css");

/// A DOM event listener kept alive by the console.
type Listener = Closure<dyn FnMut(web_sys::Event)>;

struct State {
    session: Session,
    rows: Vec<Row>,
    /// The row whose answer is shown; None = the latest that has an output.
    selected: Option<usize>,
    lang: Lang,
    /// The full playground is loading in the element's place.
    loading: bool,
    /// Why the full playground did not load.
    failed: Option<String>,
    /// Why the last lines given to run did not run (too long, too many): the app's refusal.
    refused: Option<ActionRefusal>,
}

struct Parts {
    doc: Document,
    log: Element,
    empty: Element,
    detail: Element,
    notice: Element,
    full: HtmlElement,
    input: Option<HtmlInputElement>,
    run: Option<HtmlElement>,
}

struct Inner {
    state: RefCell<State>,
    parts: Parts,
    on_output: js_sys::Function,
    on_upgrade: js_sys::Function,
    /// The listeners, kept as long as the console is mounted.
    closures: RefCell<Vec<Listener>>,
    root: Element,
}

/// A console embed mounted in the page (`mountConsole`). Exported to JavaScript only by the
/// console embed's module (built without the app): the app's module does not carry it.
#[cfg_attr(not(feature = "app"), wasm_bindgen)]
pub struct Console {
    inner: Option<Rc<Inner>>,
}

#[cfg_attr(not(feature = "app"), wasm_bindgen)]
impl Console {
    /// Runs `script` as the full embed's `run()` does: the outputs of the lines that ran (each
    /// also goes to `on_output`), or `null` when a line needs the full playground (a line of the
    /// extras, or one over 64 KB, which the console's rows could not hand over; then none ran:
    /// the element loads it and runs the script there). Throws an `Error` when the embed runs no
    /// lines (mode=readonly) or is unmounted, as the full embed does.
    pub fn run(&self, script: JsValue) -> Result<JsValue, JsValue> {
        let inner = self.inner.as_ref().ok_or_else(|| js_sys::Error::new("the embed is not running"))?;
        // A read-only console has no input.
        if inner.parts.input.is_none() {
            return Err(js_sys::Error::new(READ_ONLY).into());
        }
        let out = Array::new();
        let next = inner.state.borrow().rows.len() + 1;
        let text = match text_of(&script).and_then(|t| Size::of(&t).check().map(|()| t)) {
            Ok(t) => t,
            Err(r) => {
                out.push(&to_js(&batch::refusal_output(next, &r)));
                return Ok(out.into());
            }
        };
        let lines = batch::split_script(&text);
        // Within `script::batch`'s limits (as the full embed's run() and `Lab`): a line of the
        // extras, or one longer than the console's replay may hand over, runs in the full
        // playground (which runs such a line: only a typed one is refused there).
        if lines.iter().any(|l| needs_full(l) || l.len() > MAX_LINE_BYTES) {
            return Ok(JsValue::NULL);
        }
        inner.state.borrow_mut().refused = None;
        for line in lines {
            if let Some(o) = inner.run_line(line) {
                out.push(&o);
            }
        }
        inner.state.borrow_mut().selected = None;
        inner.render();
        Ok(out.into())
    }

    /// Hands the sandbox over to the full playground the element is loading: the console stops
    /// taking lines (it says the full playground is loading) and gives its lines, one per line.
    #[cfg_attr(not(feature = "app"), wasm_bindgen(js_name = handOver))]
    pub fn hand_over(&self) -> String {
        let Some(inner) = &self.inner else { return String::new() };
        inner.set_loading();
        inner.script()
    }

    /// The full playground did not load (`message`: why): the console says so and works on.
    pub fn failed(&self, message: &str) {
        if let Some(i) = &self.inner {
            {
                let mut s = i.state.borrow_mut();
                s.loading = false;
                s.failed = Some(message.to_string());
            }
            i.render();
        }
    }

    /// Takes the console out of the page (its sandbox is dropped); later runs throw.
    pub fn unmount(&mut self) {
        if let Some(i) = self.inner.take() {
            i.closures.borrow_mut().clear();
            i.root.set_inner_html("");
        }
    }
}

/// Starts the module: a panic (a bug: no input should cause one) is reported on the browser's
/// console with its message, not lost.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("rvlab console embed: {info}").into());
    }));
}

/// The first language in the browser's preference list that the console has; English otherwise.
fn browser_lang() -> Lang {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else { return Lang::En };
    let langs = nav.languages();
    (0..langs.length())
        .find_map(|i| langs.get(i).as_string().and_then(|s| parse_lang(&s)))
        .or_else(|| nav.language().and_then(|s| parse_lang(&s)))
        .unwrap_or(Lang::En)
}

fn el(doc: &Document, tag: &str, class: &str) -> Result<Element, JsValue> {
    let e = doc.create_element(tag)?;
    if !class.is_empty() {
        e.set_class_name(class);
    }
    Ok(e)
}

impl Inner {
    /// Runs one line in the sandbox, logs it, and tells the element its output.
    fn run_line(&self, line: String) -> Option<JsValue> {
        let mut s = self.state.borrow_mut();
        let n = s.rows.len() + 1;
        let outcome = s.session.run_line_outcome(n, &line);
        let js = outcome.as_ref().map(|o| to_js(&o.out));
        s.rows.push(Row { n, text: line, outcome });
        drop(s);
        if let Some(js) = &js {
            let _ = self.on_output.call1(&JsValue::NULL, js);
        }
        js
    }

    fn script(&self) -> String {
        let s = self.state.borrow();
        s.rows.iter().map(|r| r.text.as_str()).collect::<Vec<_>>().join("\n")
    }

    /// Asks the element for the full playground with these lines and `extra` after them.
    fn upgrade(&self, extra: Option<&str>) {
        let mut script = self.script();
        if let Some(line) = extra {
            if !script.is_empty() {
                script.push('\n');
            }
            script.push_str(line);
        }
        self.set_loading();
        let _ = self.on_upgrade.call1(&JsValue::NULL, &script.into());
    }

    /// The full playground is loading: no line runs here any more (unless it fails to load).
    fn set_loading(&self) {
        {
            let mut s = self.state.borrow_mut();
            s.loading = true;
            s.failed = None;
            s.refused = None;
        }
        self.render();
    }

    /// Lines given to run were refused whole (the app's limits of one action).
    fn refuse(&self, r: ActionRefusal) {
        self.state.borrow_mut().refused = Some(r);
        self.render();
    }

    /// The reader pressed Run (or Enter) in the input.
    fn submit(&self) {
        let Some(input) = &self.parts.input else { return };
        let line = input.value().trim().to_string();
        if line.is_empty() || self.state.borrow().loading {
            return;
        }
        // Too long: refused as the app refuses it (the line stays in the input).
        if let Err(r) = check_action(std::slice::from_ref(&line)) {
            self.refuse(r);
            return;
        }
        if needs_full(&line) {
            self.upgrade(Some(&line));
            return;
        }
        input.set_value("");
        self.state.borrow_mut().refused = None;
        self.run_line(line);
        self.state.borrow_mut().selected = None;
        self.render();
    }

    /// Draws the log's new rows, the selection, the notice and the selected line's answer (the
    /// engine's reason first, then the output object).
    fn render(&self) {
        let _ = self.try_render();
    }

    fn try_render(&self) -> Result<(), JsValue> {
        let s = self.state.borrow();
        let p = &self.parts;
        let lang = s.lang;
        let drawn = p.log.child_element_count() as usize;
        for row in s.rows.iter().skip(drawn) {
            let li = el(&p.doc, "li", "")?;
            let b = el(&p.doc, "button", if row.is_error() { "rvc-row rvc-err" } else { "rvc-row" })?;
            b.set_attribute("type", "button")?;
            b.set_attribute("data-n", &row.n.to_string())?;
            let n = el(&p.doc, "span", "rvc-n")?;
            n.set_text_content(Some(&row.n.to_string()));
            let code = el(&p.doc, "code", "rvc-line")?;
            code.set_text_content(Some(&row.text));
            let sum = el(&p.doc, "span", "rvc-sum")?;
            sum.set_text_content(Some(&row.summary(lang)));
            b.append_child(&n)?;
            b.append_child(&code)?;
            b.append_child(&sum)?;
            li.append_child(&b)?;
            p.log.append_child(&li)?;
        }
        p.empty.toggle_attribute_with_force("hidden", !s.rows.is_empty() || p.input.is_none())?;
        let shown = s.selected.or_else(|| s.rows.iter().rposition(|r| r.outcome.is_some()));
        let buttons = p.log.query_selector_all("button.rvc-row")?;
        for i in 0..buttons.length() {
            if let Some(b) = buttons.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                let on = Some(i as usize) == shown;
                b.set_attribute("aria-pressed", if on { "true" } else { "false" })?;
                // One Tab stop for the log: the shown row; the arrows move between rows.
                b.set_attribute("tabindex", if on { "0" } else { "-1" })?;
            }
        }
        // The notice: loading, or why the full playground did not load.
        let refused = s.refused.as_ref().map(|r| match r {
            ActionRefusal::TooBig { lines, bytes } => Word::ScriptTooBig.with(
                lang,
                &[&lines.to_string(), &kb(*bytes), &MAX_ACTION_LINES.to_string(), &kb(MAX_ACTION_BYTES)],
            ),
            ActionRefusal::LineTooLong { index, bytes } => {
                Word::LineTooLong.with(lang, &[&(index + 1).to_string(), &kb(*bytes), &kb(MAX_LINE_BYTES)])
            }
        });
        let notice = match (&s.failed, s.loading, refused) {
            (Some(why), _, _) => Some(Word::LoadFailed.with(lang, &[why])),
            (None, true, _) => Some(Word::Loading.text(lang).to_string()),
            (None, false, refused) => refused,
        };
        let error = s.failed.is_some() || (!s.loading && s.refused.is_some());
        p.notice.set_text_content(notice.as_deref());
        p.notice.toggle_attribute_with_force("hidden", notice.is_none())?;
        p.notice.set_class_name(if error { "rvc-notice rvc-err" } else { "rvc-notice" });
        p.full.toggle_attribute_with_force("disabled", s.loading)?;
        if let Some(input) = &p.input {
            input.set_disabled(s.loading);
        }
        if let Some(run) = &p.run {
            run.toggle_attribute_with_force("disabled", s.loading)?;
        }
        // The selected line's answer.
        p.detail.set_inner_html("");
        let row = shown.and_then(|i| s.rows.get(i));
        p.detail.toggle_attribute_with_force("hidden", row.is_none())?;
        if let Some(row) = row {
            let h = el(&p.doc, "h3", "rvc-h")?;
            h.set_text_content(Some(&Word::ResponseOf.with(lang, &[&row.n.to_string()])));
            p.detail.append_child(&h)?;
            if let Some(why) = row.why(lang) {
                let h = el(&p.doc, "h4", "rvc-h")?;
                h.set_text_content(Some(Word::Why.text(lang)));
                let para = el(&p.doc, "p", "rvc-why")?;
                para.set_text_content(Some(&why));
                p.detail.append_child(&h)?;
                p.detail.append_child(&para)?;
            }
            if let Some(text) = row.output_text() {
                let pre = el(&p.doc, "pre", "rvc-json")?;
                pre.set_text_content(Some(&text));
                p.detail.append_child(&pre)?;
            }
        }
        Ok(())
    }
}

/// Whether the element whose attributes `query` holds needs the full playground rather than the
/// console ([`super::options::needs_full`]).
#[cfg_attr(not(feature = "app"), wasm_bindgen(js_name = needsFull))]
pub fn needs_full_query(query: &str) -> bool {
    Options::parse(query).needs_full()
}

/// Mounts a console embed into `root` (a node in the shadow root of the `<rv-playground>`
/// element). `query` holds the element's attributes as the frame's address
/// would (`embed=1&script=…&mode=…&theme=…&lang=…&height=…`). Each line that runs calls
/// `on_output(output)`, the element's lines first, before this returns; `on_upgrade(script)` asks
/// the element for the full playground with those lines (its button, or a line this module does
/// not run). The element asks [`needs_full_query`] first.
#[cfg_attr(not(feature = "app"), wasm_bindgen(js_name = mountConsole))]
pub fn mount(
    root: Element,
    query: &str,
    on_output: js_sys::Function,
    on_upgrade: js_sys::Function,
) -> Result<Console, JsValue> {
    let opts = Options::parse(query);
    let lang = opts.lang.unwrap_or_else(browser_lang);
    let doc = root.owner_document().ok_or_else(|| js_sys::Error::new("the element is in no document"))?;

    let style = el(&doc, "style", "")?;
    style.set_text_content(Some(STYLE));
    let app = el(&doc, "div", "rvc")?;
    app.set_attribute("data-theme", opts.theme)?;
    app.set_attribute(
        "lang",
        match lang {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        },
    )?;
    if let Some(h) = opts.height {
        app.set_attribute("style", &format!("height:{h}px;overflow:auto"))?;
    }
    let head = el(&doc, "div", "rvc-head")?;
    let title = el(&doc, "span", "rvc-title")?;
    title.set_text_content(Some(Word::Title.text(lang)));
    let full: HtmlElement = el(&doc, "button", "rvc-full")?.unchecked_into();
    full.set_attribute("type", "button")?;
    full.set_text_content(Some(Word::Full.text(lang)));
    full.set_title(Word::FullHint.text(lang));
    head.append_child(&title)?;
    head.append_child(&full)?;
    let notice = el(&doc, "p", "rvc-notice")?;
    notice.set_attribute("role", "status")?;
    let log = el(&doc, "ol", "rvc-log")?;
    let empty = el(&doc, "p", "rvc-empty")?;
    empty.set_text_content(Some(Word::Empty.text(lang)));
    app.append_child(&head)?;
    app.append_child(&notice)?;
    app.append_child(&log)?;
    app.append_child(&empty)?;
    let (input, run) = if opts.interactive {
        let bar = el(&doc, "div", "rvc-input")?;
        let input: HtmlInputElement = el(&doc, "input", "")?.unchecked_into();
        input.set_type("text");
        input.set_placeholder(Word::Placeholder.text(lang));
        input.set_attribute("aria-label", Word::InputLabel.text(lang))?;
        input.set_attribute("spellcheck", "false")?;
        input.set_attribute("autocomplete", "off")?;
        let run: HtmlElement = el(&doc, "button", "rvc-run")?.unchecked_into();
        run.set_attribute("type", "button")?;
        run.set_text_content(Some(Word::Run.text(lang)));
        bar.append_child(&input)?;
        bar.append_child(&run)?;
        app.append_child(&bar)?;
        (Some(input), Some(run))
    } else {
        let ro = el(&doc, "p", "rvc-ro")?;
        ro.set_text_content(Some(Word::ReadOnly.text(lang)));
        app.append_child(&ro)?;
        (None, None)
    };
    let detail = el(&doc, "section", "rvc-detail")?;
    detail.set_attribute("aria-live", "polite")?;
    app.append_child(&detail)?;
    root.set_inner_html("");
    root.append_child(&style)?;
    root.append_child(&app)?;

    let lines = batch::split_script(&opts.script);
    let state = State {
        session: Session::with_explain(true),
        rows: Vec::new(),
        selected: None,
        lang,
        loading: false,
        failed: None,
        refused: None,
    };
    let parts = Parts { doc, log, empty, detail, notice, full, input, run };
    let inner = Rc::new(Inner {
        state: RefCell::new(state),
        parts,
        on_output,
        on_upgrade,
        closures: RefCell::new(Vec::new()),
        root,
    });
    // The element asked `needsFull` first: these lines all run here.
    for line in lines {
        inner.run_line(line);
    }
    listen(&inner)?;
    inner.render();
    Ok(Console { inner: Some(inner) })
}

/// The console's listeners: a row selects its answer (a click; ↑ ↓ Home End in the log); the button and a line this module does not
/// run ask for the full playground; Run and Enter run the input's line.
fn listen(inner: &Rc<Inner>) -> Result<(), JsValue> {
    let weak = Rc::downgrade(inner);
    let on_log = Listener::new(move |e: web_sys::Event| {
        let Some(inner) = weak.upgrade() else { return };
        let row = e
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|t| t.closest("button[data-n]").ok().flatten())
            .and_then(|b| b.get_attribute("data-n"))
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| n.checked_sub(1));
        if let Some(i) = row {
            inner.state.borrow_mut().selected = Some(i);
            inner.render();
        }
    });
    inner.parts.log.add_event_listener_with_callback("click", on_log.as_ref().unchecked_ref())?;
    let weak = Rc::downgrade(inner);
    let on_arrow = Listener::new(move |e: web_sys::Event| {
        let Some(inner) = weak.upgrade() else { return };
        let Some(key) = e.dyn_ref::<web_sys::KeyboardEvent>().map(|k| k.key()) else { return };
        let n = inner.state.borrow().rows.len();
        let Some(last) = n.checked_sub(1) else { return };
        let at = {
            let s = inner.state.borrow();
            s.selected.or_else(|| s.rows.iter().rposition(|r| r.outcome.is_some())).unwrap_or(last)
        };
        let to = match key.as_str() {
            "ArrowUp" => at.saturating_sub(1),
            "ArrowDown" => (at + 1).min(last),
            "Home" => 0,
            "End" => last,
            _ => return,
        };
        e.prevent_default();
        inner.state.borrow_mut().selected = Some(to);
        inner.render();
        let row = inner.parts.log.query_selector(&format!("button[data-n=\"{}\"]", to + 1)).ok().flatten();
        if let Some(b) = row.and_then(|b| b.dyn_into::<HtmlElement>().ok()) {
            let _ = b.focus();
        }
    });
    inner.parts.log.add_event_listener_with_callback("keydown", on_arrow.as_ref().unchecked_ref())?;
    let weak = Rc::downgrade(inner);
    let on_full = Listener::new(move |_e: web_sys::Event| {
        if let Some(inner) = weak.upgrade() {
            inner.upgrade(None);
        }
    });
    inner.parts.full.add_event_listener_with_callback("click", on_full.as_ref().unchecked_ref())?;
    let mut closures = vec![on_log, on_arrow, on_full];
    if let (Some(input), Some(run)) = (&inner.parts.input, &inner.parts.run) {
        let weak = Rc::downgrade(inner);
        let on_run = Listener::new(move |_e: web_sys::Event| {
            if let Some(inner) = weak.upgrade() {
                inner.submit();
            }
        });
        run.add_event_listener_with_callback("click", on_run.as_ref().unchecked_ref())?;
        let weak = Rc::downgrade(inner);
        let on_key = Listener::new(move |e: web_sys::Event| {
            let enter = e.dyn_ref::<web_sys::KeyboardEvent>().is_some_and(|k| k.key() == "Enter");
            if let (true, Some(inner)) = (enter, weak.upgrade()) {
                e.prevent_default();
                inner.submit();
            }
        });
        input.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
        closures.push(on_run);
        closures.push(on_key);
    }
    *inner.closures.borrow_mut() = closures;
    Ok(())
}
