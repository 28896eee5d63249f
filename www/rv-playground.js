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
 * it the embed fits its content), title (the embed's accessible name), render (page|frame),
 * view (console|full). Changing an attribute reloads the embed with the new parameters.
 *
 * view: an element without a lesson shows the console embed first: the
 * `rvlab-embed` module, a fraction of the playground's size, runs the lines and shows each answer
 * and why. Its "Picture and full playground" button, and any line it does not run (PATCH,
 * informer, pager, expect, kubectl; a run() line over 64 KB), load the full playground in its
 * place with the same lines (their rv-output events are not sent twice). view="full" shows the full playground at once
 * (the picture and the timeline); lesson embeds always do.
 *
 * render="page" (the default; any value but "frame"): the app is mounted in the element's own
 * shadow root, in the host page; every such element of the page shares ONE import of the app's
 * ES module (one wasm download, one compile) and its stylesheet, each with its own sandbox,
 * language and theme, and is as tall as its content. The build writes the module's hashed names
 * into this file (BUILD below, by scripts/trunk/embed-names.sh); where the module cannot be
 * imported (no names, a file: page, a Content-Security-Policy, no shadow DOM) the element falls
 * back to a frame. render="frame": an iframe loads index.html?embed=1&… from the directory this
 * script was loaded from, so the script and the app must be deployed together. Each element fits
 * its own frame's height from the {type: "rvlab:height", height} messages that frame posts.
 * Several elements on one page are independent either way. Plain JS, no build step.
 *
 * Driving it (site/src/reference/embedding-api.md): el.run(script) runs the lines in the embed's
 * sandbox as if typed in its console and resolves with an Array of their output objects (what
 * `rvlab run` prints for them); every line that runs in the embed, the reader's own included,
 * dispatches a bubbling "rv-output" CustomEvent whose detail is its output object, in order.
 * A run() before the embed is ready waits for it. In a frame, messages go by postMessage
 * (structured clone): to the frame only at the app's origin, and only messages from this element's
 * own frame window and the app's origin are read. In the page, run() calls the embed directly.
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
  // This build's hashed file names, written by the build (scripts/trunk/embed-names.sh); null in
  // the source: then every element renders in a frame.
  var BUILD = null; // rvlab:build
  // What the stylesheet needs in a shadow root: its :root rules on the element, and the body's
  // font and colours on the app.
  var SHADOW_CSS = ":host{display:block}.app{font:15px/1.45 system-ui,sans-serif;text-align:start}";
  var shared = null; // the one import of the app's module: Promise<{mod, sheet}>
  var sharedLight = null; // the one import of the console embed's module: Promise<module>

  /** Imports and initialises the console embed's module once for every element of the page. */
  function sharedConsole() {
    if (!sharedLight) {
      sharedLight = (async function () {
        if (!BUILD || !BUILD.console) throw new Error("this rv-playground.js was not written by a build (no module names)");
        var url = function (name) { return new URL(name, SCRIPT_URL).href; };
        var mod = await import(url(BUILD.console.module));
        await mod.default({ module_or_path: url(BUILD.console.wasm) });
        if (typeof mod.mountConsole !== "function") throw new Error("the console module has no mountConsole");
        return mod;
      })();
    }
    return sharedLight;
  }

  /** Whether the element shows the console embed first: no lesson, and view is not "full". */
  function wantsConsole(el) {
    return el.getAttribute("view") !== "full" && !el.getAttribute("lesson") && !el.getAttribute("lesson-src");
  }

  /** Imports, initialises and styles the app's module once for every element of the page. */
  function sharedApp() {
    if (!shared) {
      shared = (async function () {
        if (!BUILD) throw new Error("this rv-playground.js was not written by a build (no module names)");
        var url = function (name) { return new URL(name, SCRIPT_URL).href; };
        // The module's start function mounts no app on this page (embed::wants_app reads it).
        RvPlayground.inPage = true;
        var mod = await import(url(BUILD.module));
        var got = await Promise.all([
          mod.default({ module_or_path: url(BUILD.wasm) }),
          fetch(url(BUILD.css)).then(function (r) {
            if (!r.ok) throw new Error("the stylesheet answered HTTP " + r.status);
            return r.text();
          }),
        ]);
        if (typeof mod.mountEmbed !== "function") throw new Error("the app's module has no mountEmbed (a build without the app)");
        var sheet = new CSSStyleSheet();
        sheet.replaceSync(SHADOW_CSS + got[1].replace(/:root\b/g, ":host"));
        // Where the pictures measure their labels: hidden, styled like the embeds (the host
        // page's body has none of the app's styles).
        var box = document.createElement("div");
        box.setAttribute("aria-hidden", "true");
        box.className = "rv-playground-measure";
        box.style.cssText = "position:absolute;left:-10000px;top:0;width:0;height:0;overflow:hidden;visibility:hidden";
        var boxRoot = box.attachShadow({ mode: "open" });
        boxRoot.adoptedStyleSheets = [sheet];
        var measure = document.createElement("div");
        measure.className = "app";
        boxRoot.appendChild(measure);
        document.body.appendChild(box);
        RvPlayground.module = mod;
        return { mod: mod, sheet: sheet, measure: measure };
      })();
    }
    return shared;
  }

  /** Whether this browser can mount embeds in the page (shadow roots with adopted sheets). */
  function canMountInPage() {
    return !!(BUILD && HTMLElement.prototype.attachShadow && "adoptedStyleSheets" in Document.prototype
      && typeof CSSStyleSheet === "function" && location.protocol !== "file:");
  }

  function fixedHeight(el) {
    var h = parseInt(el.getAttribute("height") || "", 10);
    return h >= 80 ? h : null;
  }

  /** The frame's address for an element's attributes. */
  function srcFor(el) {
    return APP_URL + "?" + queryFor(el);
  }

  /** The element's attributes as the app's query (what the frame's address carries); `script`,
   *  when given, in place of the element's (the lines a console embed hands to the full one). */
  function queryFor(el, script) {
    var q = ["embed=1"];
    PARAMS.forEach(function (name) {
      var v = name === "script" && typeof script === "string" ? script : el.getAttribute(name);
      // The frame is another page: a lesson file's address is made absolute from the host's.
      if (name === "lesson-src" && v) { try { v = new URL(v, document.baseURI).href; } catch (e) { /* sent as written */ } }
      if (v !== null && v !== "") q.push(name + "=" + encodeURIComponent(v));
    });
    var h = fixedHeight(el);
    q.push("height=" + (h ? h : "auto"));
    return q.join("&");
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
      return PARAMS.concat(["height", "title", "render", "view"]);
    }

    constructor() {
      super();
      this._seq = 0;
      this._waiting = new Map(); // run id → {resolve, reject}, until the embed answers
      this._queue = []; // runs waiting for the embed to be ready
      this._ready = false;
      this._inPage = false; // rendered in the page (a shadow root), not in a frame
      this._app = null; // the mounted embed (render="page")
      this._gen = 0; // counts mounts, so a mount overtaken by another is dropped
      this._fallback = null; // why render="page" fell back to a frame
      this._sent = 0; // rv-output events sent for the lines of the mounted sandbox
      this._skip = 0; // outputs of the full playground's replay already sent by the console
    }

    connectedCallback() {
      if (!this.style.display) this.style.display = "block";
      if (!this._keysKept) {
        // In the page, a key pressed in the embed stays in it, as in a frame: the host page's own
        // shortcuts (a book's arrow keys turning the page) do not see it. Only Ctrl/⌘
        // combinations pressed outside a text field go on to the document, where the embed's
        // undo and redo listen for them.
        this._keysKept = true;
        var self = this;
        ["keydown", "keyup", "keypress"].forEach(function (type) {
          self.addEventListener(type, function (e) {
            if (!self._inPage) return;
            var at = e.composedPath()[0];
            var typing = !!(at && at.tagName && /^(INPUT|TEXTAREA|SELECT)$/.test(at.tagName));
            if (typing || !(e.ctrlKey || e.metaKey)) e.stopPropagation();
          });
        });
      }
      live.add(this);
      if (this._inPage) this._mountInPage();
      else if (!this._frame) this._build();
    }

    disconnectedCallback() {
      live.delete(this);
      if (this._inPage) {
        // The sandbox goes with the element, as a frame's unloads: queued runs wait for the
        // embed mounted when the element is attached again.
        this._unmount();
        return;
      }
      // The frame unloads with the element; queued runs wait for it to be attached again.
      this._dropSent("the element was removed before the embed answered");
    }

    /** Renders the element as its render attribute says (and the browser allows). */
    _build() {
      if (this.getAttribute("render") !== "frame" && !this._fallback && canMountInPage()) {
        this._inPage = true;
        this._mountInPage();
        return;
      }
      this._inPage = false;
      if (this.shadowRoot) {
        // A shadow root cannot be removed: the frame shows through a slot.
        this.shadowRoot.adoptedStyleSheets = [];
        this.shadowRoot.replaceChildren(document.createElement("slot"));
      }
      if (!this._frame) {
        var f = document.createElement("iframe");
        f.className = "rv-playground-frame";
        f.setAttribute("loading", "lazy");
        f.style.cssText = "display:block;width:100%;border:0;height:" + DEFAULT + "px";
        this._frame = f;
        this._sync();
        this.appendChild(f);
      }
    }

    /** Takes the element's frame or in-page embed away (before rendering it the other way). */
    _teardown() {
      if (this._inPage) {
        this._unmount();
        if (this.shadowRoot) this.shadowRoot.replaceChildren();
      } else if (this._frame) {
        this._dropSent("the embed reloaded before it answered");
        this._frame.remove();
        this._frame = null;
      }
      this._inPage = false;
    }

    /** Mounts (again) the embed in this element's shadow root, from the page's one module: the
     *  console embed first where the element wants it, else the full playground. */
    _mountInPage() {
      if (wantsConsole(this)) this._mountConsole();
      else this._mountFull(null, 0);
    }

    /** A fresh root for an embed in the shadow root. */
    _root(shadow, sheets) {
      shadow.adoptedStyleSheets = sheets;
      var root = document.createElement("div");
      root.setAttribute("role", "region");
      root.setAttribute("aria-label", this.getAttribute("title") || "rvlab");
      shadow.replaceChildren(root);
      return root;
    }

    /** Mounts the console embed; the full playground where the element's lines need it. */
    _mountConsole() {
      var gen = ++this._gen;
      var self = this;
      var shadow = this.shadowRoot || this.attachShadow({ mode: "open" });
      sharedConsole().then(function (mod) {
        if (gen !== self._gen || !self.isConnected) return;
        try {
          // A line the console does not run: the full playground runs them all.
          if (mod.needsFull(queryFor(self))) { self._mountFull(null, 0); return; }
          self._unmount();
          self._gen = gen;
          self._sent = 0;
          self._skip = 0;
          var root = self._root(shadow, []);
          self._app = mod.mountConsole(root, queryFor(self),
            function (output) { self._output(output); },
            function (script) { self._upgrade(gen, script); });
        } catch (err) {
          // Not expected (the console throws nothing a page can cause): the full playground.
          if (window.console) console.warn("rv-playground: the console embed did not mount: " + (err && err.message));
          self._mountFull(null, 0);
          return;
        }
        self._ready = true;
        queueMicrotask(function () { if (gen === self._gen) self._flush(); });
      }, function (err) {
        if (gen !== self._gen) return;
        if (window.console) console.warn("rv-playground: the console embed did not load: " + (err && err.message));
        self._mountFull(null, 0);
      });
    }

    /** The console hands its sandbox (`script`: its lines) to the full playground; it takes no
     *  line meanwhile and stays until the full playground is mounted; if that fails, it says why
     *  and works on. The outputs sent so far are the replay's to skip. */
    _upgrade(gen, script) {
      if (gen !== this._gen) return;
      this._ready = false;
      var self = this;
      var light = this._app;
      var skip = this._sent;
      sharedApp().then(function () {
        if (gen !== self._gen || !self.isConnected) return;
        self._mountFull(script, skip);
      }, function (err) {
        if (gen !== self._gen) return;
        var why = err && err.message ? err.message : String(err);
        shared = null; // the reader may try again
        if (light && light.failed) light.failed(why);
        // Runs that needed the full playground fail; any other queued run goes to the console.
        self._upgradeFailed = why;
        self._ready = true;
        self._flush();
        self._upgradeFailed = null;
      });
    }

    /** Mounts the full playground; `script`: the lines a console embed hands over (null: the
     *  element's), `skip`: how many of the replay's outputs were sent already (by the console). */
    _mountFull(script, skip) {
      var gen = ++this._gen;
      var self = this;
      var shadow = this.shadowRoot || this.attachShadow({ mode: "open" });
      sharedApp().then(function (app) {
        if (gen !== self._gen || !self.isConnected) return;
        self._unmount();
        self._gen = gen; // _unmount counted a mount: this one is still the latest
        self._sent = 0;
        self._skip = skip;
        var root = self._root(shadow, [app.sheet]);
        try {
          self._app = app.mod.mountEmbed(self, root, app.measure, queryFor(self, script), new URL(".", APP_URL).href,
            function (output) { self._output(output); },
            function () {
              self._ready = true;
              // After mountEmbed has returned (it may call this while it mounts).
              queueMicrotask(function () { if (gen === self._gen) self._flush(); });
            });
        } catch (err) {
          // Not expected (a bug): a frame, with the element's own lines, takes the queued runs.
          self._fallback = err;
          if (window.console) console.warn("rv-playground: rendering in a frame: " + (err && err.message));
          self._inPage = false;
          self._build();
        }
      }, function (err) {
        if (gen !== self._gen) return;
        // No module (a file: page, a Content-Security-Policy, a build without names): a frame.
        self._fallback = err;
        if (window.console) console.warn("rv-playground: rendering in a frame: " + (err && err.message));
        self._inPage = false;
        self._build();
      });
    }

    /** Unmounts the in-page embed, if any (runs sent to it were answered at once). */
    _unmount() {
      this._gen++;
      this._ready = false;
      var app = this._app;
      this._app = null;
      if (app) {
        try { app.unmount(); } finally { app.free(); }
      }
    }

    /** An output of the in-page embed: its rv-output event, after the line's run has returned. */
    _output(output) {
      if (this._skip > 0) { this._skip--; this._sent++; return; }
      this._sent++;
      var self = this;
      queueMicrotask(function () {
        self.dispatchEvent(new CustomEvent("rv-output", { detail: output, bubbles: true, composed: true }));
      });
    }

    /** The runs queued before the embed was ready. */
    _flush() {
      var queued = this._queue;
      this._queue = [];
      for (var i = 0; i < queued.length; i++) {
        // A run that handed the sandbox to the full playground: the rest wait for it, in order.
        if (!this._ready) { this._queue = this._queue.concat(queued.slice(i)); return; }
        if (this._inPage) this._runInPage(queued[i]);
        else this._post(queued[i]);
      }
    }

    _runInPage(msg) {
      var waiting = this._waiting.get(msg.id);
      if (!waiting) return;
      try {
        var outputs = this._app.run(msg.script);
        if (outputs === null) {
          if (this._upgradeFailed) throw new Error("the full playground did not load: " + this._upgradeFailed);
          // A line the console does not run: the run waits for the full playground.
          this._queue.push(msg);
          this._upgrade(this._gen, this._app.handOver());
          return;
        }
        this._waiting.delete(msg.id);
        waiting.resolve(outputs);
      } catch (err) {
        this._waiting.delete(msg.id);
        waiting.reject(new Error("rv-playground: " + (err && err.message ? err.message : String(err))));
      }
    }

    /**
     * Runs `script` (lines, newline-separated) in the embed's sandbox as if typed in its
     * console; resolves with an Array of the output objects of the lines that ran. A script the
     * sandbox refuses resolves too (with its refusal objects). Rejects only when the embed runs
     * no lines (mode=readonly), the frame reloaded (an attribute changed) or the element was
     * removed before it answered, or the script cannot be cloned (DataCloneError, in a frame).
     */
    run(script) {
      var self = this;
      return new Promise(function (resolve, reject) {
        var msg = { type: "rvlab:run", id: ++self._seq, script: script };
        self._waiting.set(msg.id, { resolve: resolve, reject: reject });
        // Behind runs still queued (their flush is due), never ahead of them.
        if (self._ready && self._queue.length === 0) {
          if (self._inPage) self._runInPage(msg);
          else self._post(msg);
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
      if (this._inPage || !this._frame) return;
      if (d.type === "rvlab:height") {
        if (typeof d.height === "number" && isFinite(d.height) && fixedHeight(this) === null) {
          // Set only when it differs: the same height again does not make the host lay out again.
          var px = Math.min(Math.max(Math.ceil(d.height), MIN), MAX) + "px";
          if (this._frame.style.height !== px) this._frame.style.height = px;
        }
      } else if (d.type === "rvlab:ready") {
        this._ready = true;
        this._post({ type: "rvlab:hello" });
        this._flush();
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
      if (oldValue === newValue) return;
      if (name === "render") {
        // Only "frame" or not matters: removing render="page" (the default) changes nothing.
        if ((oldValue === "frame") === (newValue === "frame")) return;
        if (!this.isConnected || (!this._frame && !this._inPage)) return;
        this._teardown();
        this._build();
      } else if (this._inPage) {
        if (!this.isConnected) return;
        var region = this.shadowRoot && this.shadowRoot.querySelector("[role=region]");
        if (name === "title") { if (region) region.setAttribute("aria-label", newValue || "rvlab"); }
        else this._mountInPage(); // a new sandbox with the new parameters, as a frame reloads
      } else if (this._frame) {
        this._sync();
      }
    }

    /** The frame's address as the attributes say now. */
    get src() {
      return srcFor(this);
    }

    /** The iframe this element renders in: with render="frame", or after a fallback to a frame;
     *  null when it renders in the page (the default) and before it is attached. */
    get frame() {
      return (!this._inPage && this._frame) || null;
    }

    /** Where the embed renders: "page" (its shadow root), "frame", or null before it is attached. */
    get renderedIn() {
      return this._inPage ? "page" : this._frame ? "frame" : null;
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
