/*
 * <rv-playground> — an rvlab embed for documentation pages, as a custom element.
 *
 *   <script src="https://example.org/rvlab/rv-playground.js"></script>
 *   <rv-playground script="POST /api/v1/namespaces/default/configmaps {…}&#10;GET …"
 *                  mode="readonly" theme="dark" lang="zh"></rv-playground>
 *   <rv-playground lesson="paging" mode="interactive"></rv-playground>
 *
 * Attributes: script (the lines, newline-separated) or lesson (a guided lesson's slug such as
 * paging, its file name such as 05-paging, or an example's name such as pagination) or
 * lesson-src (the address of a lesson file, relative to the host page), mode
 * (readonly|interactive), theme (auto|light|dark), lang (en|zh), height (fixed, in px; without
 * it the frame fits its content), title (the frame's accessible name). Changing an attribute
 * reloads the frame with the new parameters.
 *
 * The frame loads index.html?embed=1&… from the directory this script was loaded from, so the
 * script and the app must be deployed together. Each element fits its own frame's height from the
 * {type: "rvlab:height", height} messages that frame posts; several elements on one page are
 * independent. Plain JS, no build step.
 *
 * Driving it (site/src/reference/embedding-api.md): el.run(script) runs the lines in the embed's
 * sandbox as if typed in its console and resolves with an Array of their output objects (what
 * `rvlab run` prints for them); every line that runs in the embed, the reader's own included,
 * dispatches a bubbling "rv-output" CustomEvent whose detail is its output object, in order.
 * A run() before the frame is ready waits for it. Messages go by postMessage (structured clone):
 * to the frame only at the app's origin, and only messages from this element's own frame window
 * and the app's origin are read.
 */
(function () {
  "use strict";
  if (typeof window === "undefined" || !window.customElements) return;
  if (window.customElements.get("rv-playground")) return;

  // Captured at load: document.currentScript is only set while the script first runs.
  var current = document.currentScript;
  var SCRIPT_URL = (current && current.src) || document.baseURI;
  var APP_URL = new URL("index.html", SCRIPT_URL).href;
  var APP_ORIGIN = new URL(APP_URL).origin;
  // postMessage cannot name an opaque origin (a file: page): then "*".
  var TARGET = APP_ORIGIN === "null" ? "*" : APP_ORIGIN;
  var PARAMS = ["script", "lesson", "lesson-src", "mode", "theme", "lang"];
  var MIN = 120, MAX = 4000, DEFAULT = 420;
  var live = new Set();

  function fixedHeight(el) {
    var h = parseInt(el.getAttribute("height") || "", 10);
    return h >= 80 ? h : null;
  }

  /** The frame's address for an element's attributes. */
  function srcFor(el) {
    var q = ["embed=1"];
    PARAMS.forEach(function (name) {
      var v = el.getAttribute(name);
      // The frame is another page: a lesson file's address is made absolute from the host's.
      if (name === "lesson-src" && v) { try { v = new URL(v, document.baseURI).href; } catch (e) { /* sent as written */ } }
      if (v !== null && v !== "") q.push(name + "=" + encodeURIComponent(v));
    });
    var h = fixedHeight(el);
    q.push("height=" + (h ? h : "auto"));
    return APP_URL + "?" + q.join("&");
  }

  /** Routes a message from an embed to the element whose frame sent it; anything else is ignored. */
  function onMessage(e) {
    var d = e.data;
    if (!d || typeof d.type !== "string" || !e.source || e.origin !== APP_ORIGIN) return;
    live.forEach(function (el) {
      var f = el._frame;
      if (f && f.contentWindow === e.source) el._message(d);
    });
  }

  class RvPlayground extends HTMLElement {
    static get observedAttributes() {
      return PARAMS.concat(["height", "title"]);
    }

    constructor() {
      super();
      this._seq = 0;
      this._waiting = new Map(); // run id → {resolve, reject}, until the frame answers
      this._queue = []; // runs waiting for the frame to be ready
      this._ready = false;
    }

    connectedCallback() {
      if (!this.style.display) this.style.display = "block";
      if (!this._frame) {
        var f = document.createElement("iframe");
        f.className = "rv-playground-frame";
        f.setAttribute("loading", "lazy");
        f.style.cssText = "display:block;width:100%;border:0;height:" + DEFAULT + "px";
        this._frame = f;
        this._sync();
        this.appendChild(f);
      }
      live.add(this);
    }

    disconnectedCallback() {
      live.delete(this);
      // The frame unloads with the element; queued runs wait for it to be attached again.
      this._dropSent("the element was removed before the embed answered");
    }

    /**
     * Runs `script` (lines, newline-separated) in the embed's sandbox as if typed in its
     * console; resolves with an Array of the output objects of the lines that ran. A script the
     * sandbox refuses resolves too (with its refusal objects). Rejects only when the embed runs
     * no lines (mode=readonly), the frame reloaded (an attribute changed) or the element was
     * removed before it answered, or the script cannot be cloned (DataCloneError).
     */
    run(script) {
      var self = this;
      return new Promise(function (resolve, reject) {
        var msg = { type: "rvlab:run", id: ++self._seq, script: script };
        self._waiting.set(msg.id, { resolve: resolve, reject: reject });
        if (self._ready) {
          self._post(msg);
        } else {
          self._queue.push(msg);
          // A lazy frame out of view would not load until scrolled to: the run asks for it now.
          if (self._frame) self._frame.setAttribute("loading", "eager");
        }
      });
    }

    _post(msg) {
      var w = this._frame && this._frame.contentWindow;
      if (!w) return;
      try {
        w.postMessage(msg, TARGET);
      } catch (err) {
        // A script that cannot be cloned (a function, a symbol): that run fails, nothing else.
        var waiting = this._waiting.get(msg.id);
        if (!waiting) return;
        this._waiting.delete(msg.id);
        waiting.reject(err);
      }
    }

    /** Runs sent to the frame that will get no answer (it is gone or reloading) fail. */
    _dropSent(reason) {
      var waiting = this._waiting;
      var queued = new Set(this._queue.map(function (m) { return m.id; }));
      Array.from(waiting.keys()).forEach(function (id) {
        if (queued.has(id)) return;
        waiting.get(id).reject(new Error("rv-playground: " + reason));
        waiting.delete(id);
      });
      this._ready = false;
    }

    /** A message from this element's frame. */
    _message(d) {
      if (d.type === "rvlab:height") {
        if (typeof d.height === "number" && isFinite(d.height) && fixedHeight(this) === null) {
          // Set only when it differs: the same height again does not make the host lay out again.
          var px = Math.min(Math.max(Math.ceil(d.height), MIN), MAX) + "px";
          if (this._frame.style.height !== px) this._frame.style.height = px;
        }
      } else if (d.type === "rvlab:ready") {
        this._ready = true;
        this._post({ type: "rvlab:hello" });
        var queued = this._queue;
        this._queue = [];
        for (var i = 0; i < queued.length; i++) this._post(queued[i]);
      } else if (d.type === "rvlab:output") {
        this.dispatchEvent(new CustomEvent("rv-output", { detail: d.output, bubbles: true, composed: true }));
      } else if (d.type === "rvlab:result" || d.type === "rvlab:error") {
        var w = this._waiting.get(d.id);
        if (!w) return;
        this._waiting.delete(d.id);
        if (d.type === "rvlab:result") w.resolve(d.outputs);
        else w.reject(new Error("rv-playground: " + d.message));
      }
    }

    attributeChangedCallback(name, oldValue, newValue) {
      if (this._frame && oldValue !== newValue) this._sync();
    }

    /** The frame's address as the attributes say now. */
    get src() {
      return srcFor(this);
    }

    /** The iframe this element created. */
    get frame() {
      return this._frame || null;
    }

    _sync() {
      var f = this._frame;
      f.title = this.getAttribute("title") || "rvlab";
      var h = fixedHeight(this);
      if (h) f.style.height = h + "px";
      var src = srcFor(this);
      if (f.getAttribute("src") !== src) {
        // A new frame: runs sent to the old one get no answer; later ones wait for the new one.
        this._dropSent("the embed reloaded before it answered");
        f.setAttribute("src", src);
      }
    }
  }

  // For host pages and tests: the message handler and the app address in use.
  RvPlayground.handleMessage = onMessage;
  RvPlayground.appUrl = APP_URL;
  window.RvPlayground = RvPlayground;
  window.addEventListener("message", onMessage);
  window.customElements.define("rv-playground", RvPlayground);
})();
