/*
 * A stand-in for https://apis.google.com/js/api.js, served by the browser tests in its place
 * (that host cannot be reached offline). It implements only what Firebase Auth's popup flow
 * and the Auth emulator's helper iframe use: gapi.load('gapi.iframes'), context.open() in the
 * page, getParentIframe() in the iframe, and register/send/ping over postMessage.
 */
/* global window, document, setTimeout, URL */
(function () {
  "use strict";
  var TAG = "__gapiStandIn";
  var counter = 0;
  var nextId = function () {
    counter += 1;
    return String(counter) + "-" + Math.random().toString(36).slice(2);
  };
  var safely = function (fn, arg) {
    try {
      return fn(arg);
    } catch {
      // Real gapi swallows errors thrown by handlers and callbacks.
      return undefined;
    }
  };
  var allowAll = function () {
    return true;
  };

  // ── In the page: iframes opened by the Firebase SDK ──────────────────────────
  var frames = [];
  function Iframe(element) {
    this.element = element;
    this.handlers = {};
    this.queued = [];
    this.callbacks = {};
    this.ready = false;
    this.waiting = [];
  }
  Iframe.prototype.post = function (message) {
    message[TAG] = true;
    this.element.contentWindow.postMessage(message, "*");
  };
  Iframe.prototype.restyle = function () {
    return Promise.resolve();
  };
  Iframe.prototype.ping = function (callback) {
    return new Promise((resolve) => {
      const done = () => {
        if (callback) safely(callback);
        resolve();
      };
      if (this.ready) done();
      else this.waiting.push(done);
    });
  };
  Iframe.prototype.register = function (name, handler) {
    this.handlers[name] = handler;
    const now = this.queued.filter((m) => m.name === name);
    this.queued = this.queued.filter((m) => m.name !== name);
    now.forEach((m) => this.answer(m));
  };
  Iframe.prototype.answer = function (message) {
    var result = safely(this.handlers[message.name], message.data);
    this.post({ kind: "reply", id: message.id, result: [result] });
  };
  Iframe.prototype.send = function (name, data, callback) {
    var id = nextId();
    this.callbacks[id] = callback;
    this.post({ kind: "send", id: id, name: name, data: data });
  };

  // ── In the helper iframe: its link to the page ───────────────────────────────
  var parentLink = null;
  function ParentLink() {
    this.handlers = {};
    this.callbacks = {};
  }
  ParentLink.prototype.register = function (name, handler) {
    this.handlers[name] = handler;
  };
  ParentLink.prototype.send = function (name, data, callback) {
    var id = nextId();
    this.callbacks[id] = callback;
    var message = { kind: "send", id: id, name: name, data: data };
    message[TAG] = true;
    window.parent.postMessage(message, "*");
  };

  window.addEventListener("message", function (event) {
    var m = event.data;
    if (!m || typeof m !== "object" || !m[TAG]) return;
    if (parentLink && event.source === window.parent) {
      if (m.kind === "send") {
        var handler = parentLink.handlers[m.name];
        var reply = { kind: "reply", id: m.id, result: [handler ? safely(handler, m.data) : undefined] };
        reply[TAG] = true;
        window.parent.postMessage(reply, "*");
      } else if (m.kind === "reply" && parentLink.callbacks[m.id]) {
        var cb = parentLink.callbacks[m.id];
        delete parentLink.callbacks[m.id];
        safely(cb, m.result);
      }
      return;
    }
    var frame = frames.filter(function (f) {
      return f.element.contentWindow === event.source;
    })[0];
    if (!frame) return;
    if (m.kind === "ready") {
      frame.ready = true;
      frame.waiting.splice(0).forEach(function (done) {
        done();
      });
    } else if (m.kind === "send") {
      if (frame.handlers[m.name]) frame.answer(m);
      else frame.queued.push(m);
    } else if (m.kind === "reply" && frame.callbacks[m.id]) {
      var callback = frame.callbacks[m.id];
      delete frame.callbacks[m.id];
      safely(callback, m.result);
    }
  });

  var context = {
    open: function (options, onOpen) {
      var element = document.createElement("iframe");
      var attributes = options.attributes || {};
      if (attributes.style) Object.assign(element.style, attributes.style);
      Object.keys(attributes).forEach(function (key) {
        if (key !== "style") element.setAttribute(key, attributes[key]);
      });
      element.src = options.url;
      (options.where || document.body).appendChild(element);
      var frame = new Iframe(element);
      frames.push(frame);
      return Promise.resolve(onOpen ? onOpen(frame) : frame);
    },
    getParentIframe: function () {
      if (!parentLink) {
        parentLink = new ParentLink();
        var ready = { kind: "ready" };
        ready[TAG] = true;
        window.parent.postMessage(ready, "*");
      }
      return parentLink;
    },
  };

  window.gapi = window.gapi || {};
  window.gapi.load = function (name, options) {
    var callback = typeof options === "function" ? options : options && options.callback;
    setTimeout(function () {
      if (callback) callback();
    }, 0);
  };
  window.gapi.iframes = {
    Iframe: Iframe,
    CROSS_ORIGIN_IFRAMES_FILTER: allowAll,
    getContext: function () {
      return context;
    },
  };

  // api.js calls the function named by its ?onload= parameter, and gapi_onload.
  var script = document.currentScript;
  var onload = script && script.src ? new URL(script.src).searchParams.get("onload") : null;
  setTimeout(function () {
    if (onload && typeof window[onload] === "function") window[onload]();
    if (typeof window.gapi_onload === "function") window.gapi_onload();
  }, 0);
})();
