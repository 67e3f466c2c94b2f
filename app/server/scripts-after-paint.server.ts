import { Transform } from "node:stream";
import { HYDRATED_ATTRIBUTE, NEEDS_SCRIPTS } from "#app/lib/page-scripts.ts";

/**
 * Scripts are asked for after the first paint, not before it (ADR 0044, issue 22).
 *
 * React Router's `<Scripts>` writes a `<link rel="modulepreload">` per module (React hoists them
 * into `<head>`) and one inline module script that imports the route modules and the client entry.
 * Both make the browser request 120–160 kB of JavaScript while it is still waiting for the
 * stylesheet, and Lighthouse's simulation counts every request started before the largest paint
 * as something that paint waited for. The server-rendered HTML needs no script to be read or to
 * post its forms, so this rewrites the answer as it streams:
 *
 * - the modulepreload links are left out (the module script imports the same files);
 * - the module script becomes a classic script, with the same nonce, that puts the same module
 *   code into the page once the first contentful paint is reported (`afterPaintLoader`), or, on a
 *   page whose route asks for it (the landing page), at the visitor's first interaction (ADR 0061;
 *   `scriptsTrigger` in scripts-trigger.server.ts decides which).
 *
 * The hydration data (`window.__reactRouterContext…`) stays where it is: classic scripts that
 * fill a stream the client entry reads when it runs. Everything after the module script passes
 * through untouched.
 */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const FALLBACK_MS = 10_000;
const MODULE_SCRIPT = /<script((?: nonce="[^"]*")?) type="module" async="">([\s\S]*?)<\/script>/;

/**
 * When a page's scripts load: after its first paint (every page but the landing page), or at the
 * visitor's first interaction (ADR 0061). `serviceWorker`: with "interaction", the worker's address
 * to register once the page has loaded, as the app's scripts would have (none in development).
 */
export type ScriptsTrigger = { when: "paint" } | { when: "interaction"; serviceWorker: string | null };

/**
 * What counts as the first interaction: a pointer that moves or presses, a touch, a key, a focus,
 * or a click alone (a screen reader's activation may send nothing before it).
 */
export const INTERACTION_EVENTS = ["pointerdown", "pointermove", "touchstart", "keydown", "focusin", "click"] as const;

/**
 * The classic script that adds `code` as a module script once the first contentful paint is
 * reported (a `paint` PerformanceObserver; a frame later where that is missing). Not on the first
 * frame: when one page of the site follows another, Chrome holds the old page on screen and runs
 * frames before it shows the new one. A hidden tab paints nothing, so it loads at once; and should
 * no paint ever be reported, the scripts load after FALLBACK_MS anyway.
 *
 * With `when: "interaction"` it waits instead for the first of INTERACTION_EVENTS, anywhere in the
 * page (a press before the scripts run takes the forms' path without JavaScript), and registers
 * the service worker when the page has loaded, so the worker caches the scripts meanwhile. A form
 * marked NEEDS_SCRIPTS (Google's popup has no path without them) is not posted before the page
 * has hydrated (`<html data-hydrated>`, app/root.tsx): its submission is held, then made again;
 * should the scripts fail to load, it is posted as it is.
 */
export function afterPaintLoader(code: string, trigger: ScriptsTrigger = { when: "paint" }): string {
  // JSON is a JavaScript string literal; `<` escaped so no `</script>` can end the element early.
  const literal = JSON.stringify(code).replace(/</g, "\\u003c");
  const load = (onError: string) =>
    `(function(code){var nonce=document.currentScript.nonce,done=false;` +
    `function load(){if(done)return;done=true;var s=document.createElement("script");s.type="module";s.nonce=nonce;s.textContent=code;${onError}document.body.appendChild(s)}`;
  if (trigger.when === "interaction") {
    const worker = trigger.serviceWorker
      ? `if("serviceWorker" in navigator)addEventListener("load",function(){navigator.serviceWorker.register(${JSON.stringify(trigger.serviceWorker)},{scope:"/"}).catch(function(){})});`
      : "";
    return (
      // Should the scripts fail to load, a held form is posted as it is: the page says what it can.
      load("s.onerror=failed;") +
      `var events=${JSON.stringify(INTERACTION_EVENTS)};` +
      `function first(){for(var i=0;i<events.length;i++)removeEventListener(events[i],first,true);load()}` +
      `for(var i=0;i<events.length;i++)addEventListener(events[i],first,{capture:true,passive:true});` +
      // Ahead of React's own listeners, which may be in place before the page has hydrated.
      `var held=null;function hold(e){var f=e.target;if(!f.hasAttribute||!f.hasAttribute(${JSON.stringify(NEEDS_SCRIPTS)}))return;` +
      `e.preventDefault();e.stopImmediatePropagation();if(!held){held={form:f,submitter:e.submitter||undefined};if(e.submitter)e.submitter.setAttribute("aria-busy","true")}}` +
      `function release(send){removeEventListener("submit",hold,true);if(held){var h=held;held=null;send(h)}}` +
      `function failed(){release(function(h){h.form.submit()})}` +
      `addEventListener("submit",hold,true);var root=document.documentElement;` +
      `new MutationObserver(function(_,observer){if(!root.hasAttribute(${JSON.stringify(HYDRATED_ATTRIBUTE)}))return;observer.disconnect();` +
      `release(function(h){h.form.requestSubmit(h.submitter)})}).observe(root,{attributes:true,attributeFilter:[${JSON.stringify(HYDRATED_ATTRIBUTE)}]});` +
      `${worker}})(${literal})`
    );
  }
  return (
    load("") +
    `if(document.visibilityState==="hidden")return load();` +
    `setTimeout(load,${FALLBACK_MS});` +
    `if(typeof PerformanceObserver==="function"&&(PerformanceObserver.supportedEntryTypes||[]).indexOf("paint")!==-1){` +
    `new PerformanceObserver(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();setTimeout(load,0)}}).observe({type:"paint",buffered:true})` +
    `}else requestAnimationFrame(function(){setTimeout(load,0)})})(${literal})`
  );
}

/** Rewrites a complete piece of HTML; returns it and whether the module script was in it. */
function deferScripts(html: string, trigger: ScriptsTrigger): { html: string; done: boolean } {
  let done = false;
  const out = html.replace(MODULE_PRELOAD, "").replace(MODULE_SCRIPT, (_match, nonce: string, code: string) => {
    done = true;
    return `<script${nonce}>${afterPaintLoader(code, trigger)}</script>`;
  });
  return { html: out, done };
}

/**
 * The stream transform for entry.server.tsx: holds back a tag (or a module script) cut between two
 * chunks. It reads bytes as latin1, one character a byte: what it does not rewrite comes out as the
 * same bytes (UTF-8 included) with no decoding, and its patterns, all ASCII, cannot match inside a
 * multi-byte character. After the module script, chunks pass through as they are.
 */
export function scriptsAfterPaint(trigger: ScriptsTrigger = { when: "paint" }): Transform {
  let carry = "";
  let done = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      const text = carry + chunk.toString("latin1");
      let cut = text.length;
      const lastTag = text.lastIndexOf("<");
      if (lastTag !== -1 && !text.includes(">", lastTag)) cut = lastTag;
      const lastScript = text.lastIndexOf("<script");
      if (lastScript !== -1 && !text.includes("</script>", lastScript)) cut = Math.min(cut, lastScript);
      carry = text.slice(cut);
      const result = deferScripts(text.slice(0, cut), trigger);
      done = result.done;
      // Nothing to rewrite after the module script: what was held back goes with it.
      const out = done ? result.html + carry : result.html;
      if (done) carry = "";
      callback(null, Buffer.from(out, "latin1"));
    },
    flush(callback) {
      callback(null, Buffer.from(done ? carry : deferScripts(carry, trigger).html, "latin1"));
    },
  });
}
