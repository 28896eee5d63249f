/*
 * <rv-playground> — an rvlab embed for documentation pages, as a custom element.
 *
 *   <script src="https://example.org/rvlab/rv-playground.js"></script>
 *   <rv-playground script="POST /api/v1/namespaces/default/configmaps {…}&#10;GET …"
 *                  mode="readonly" theme="dark" lang="zh"></rv-playground>
 *   <rv-playground lesson="paging" mode="interactive"></rv-playground>
 *
 * Attributes: script (the lines, newline-separated) or lesson (a guided lesson's slug such as
 * paging or continue-after-compaction, or an example's name such as pagination), mode
 * (readonly|interactive), theme (auto|light|dark), lang (en|zh), height (fixed, in px; without
 * it the frame fits its content), title (the frame's accessible name). Changing an attribute
 * reloads the frame with the new parameters.
 *
 * The frame loads index.html?embed=1&… from the directory this script was loaded from, so the
 * script and the app must be deployed together. Each element fits its own frame's height from the
 * {type: "rvlab:height", height} messages that frame posts; several elements on one page are
 * independent. Plain JS, no build step.
 */
(function () {
  "use strict";
  if (typeof window === "undefined" || !window.customElements) return;
  if (window.customElements.get("rv-playground")) return;

  // Captured at load: document.currentScript is only set while the script first runs.
  var current = document.currentScript;
  var SCRIPT_URL = (current && current.src) || document.baseURI;
  var APP_URL = new URL("index.html", SCRIPT_URL).href;
  var PARAMS = ["script", "lesson", "mode", "theme", "lang"];
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
      if (v !== null && v !== "") q.push(name + "=" + encodeURIComponent(v));
    });
    var h = fixedHeight(el);
    q.push("height=" + (h ? h : "auto"));
    return APP_URL + "?" + q.join("&");
  }

  /** Routes an rvlab:height message to the element whose frame sent it. */
  function onMessage(e) {
    var d = e.data;
    if (!d || d.type !== "rvlab:height" || typeof d.height !== "number" || !isFinite(d.height)) return;
    live.forEach(function (el) {
      var f = el._frame;
      if (f && e.source && f.contentWindow === e.source && fixedHeight(el) === null) {
        // Set only when it differs: the same height again does not make the host lay out again.
        var px = Math.min(Math.max(Math.ceil(d.height), MIN), MAX) + "px";
        if (f.style.height !== px) f.style.height = px;
      }
    });
  }

  class RvPlayground extends HTMLElement {
    static get observedAttributes() {
      return PARAMS.concat(["height", "title"]);
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
      if (f.getAttribute("src") !== src) f.setAttribute("src", src);
    }
  }

  // For host pages and tests: the message handler and the app address in use.
  RvPlayground.handleMessage = onMessage;
  RvPlayground.appUrl = APP_URL;
  window.RvPlayground = RvPlayground;
  window.addEventListener("message", onMessage);
  window.customElements.define("rv-playground", RvPlayground);
})();
