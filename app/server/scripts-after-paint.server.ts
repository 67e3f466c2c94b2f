import { Transform } from "node:stream";

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
 *   code into the page once the first contentful paint is reported (`afterPaintLoader`).
 *
 * The hydration data (`window.__reactRouterContext…`) stays where it is: classic scripts that
 * fill a stream the client entry reads when it runs. Everything after the module script passes
 * through untouched.
 */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const FALLBACK_MS = 10_000;
const MODULE_SCRIPT = /<script((?: nonce="[^"]*")?) type="module" async="">([\s\S]*?)<\/script>/;

/**
 * The classic script that adds `code` as a module script once the first contentful paint is
 * reported (a `paint` PerformanceObserver; a frame later where that is missing). Not on the first
 * frame: when one page of the site follows another, Chrome holds the old page on screen and runs
 * frames before it shows the new one. A hidden tab paints nothing, so it loads at once; and should
 * no paint ever be reported, the scripts load after FALLBACK_MS anyway.
 */
export function afterPaintLoader(code: string): string {
  // JSON is a JavaScript string literal; `<` escaped so no `</script>` can end the element early.
  const literal = JSON.stringify(code).replace(/</g, "\\u003c");
  return (
    `(function(code){var nonce=document.currentScript.nonce,done=false;` +
    `function load(){if(done)return;done=true;var s=document.createElement("script");s.type="module";s.nonce=nonce;s.textContent=code;document.body.appendChild(s)}` +
    `if(document.visibilityState==="hidden")return load();` +
    `setTimeout(load,${FALLBACK_MS});` +
    `if(typeof PerformanceObserver==="function"&&(PerformanceObserver.supportedEntryTypes||[]).indexOf("paint")!==-1){` +
    `new PerformanceObserver(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();setTimeout(load,0)}}).observe({type:"paint",buffered:true})` +
    `}else requestAnimationFrame(function(){setTimeout(load,0)})})(${literal})`
  );
}

/** Rewrites a complete piece of HTML; returns it and whether the module script was in it. */
function deferScripts(html: string): { html: string; done: boolean } {
  let done = false;
  const out = html.replace(MODULE_PRELOAD, "").replace(MODULE_SCRIPT, (_match, nonce: string, code: string) => {
    done = true;
    return `<script${nonce}>${afterPaintLoader(code)}</script>`;
  });
  return { html: out, done };
}

/**
 * The stream transform for entry.server.tsx: holds back a tag (or a module script) cut between two
 * chunks. It reads bytes as latin1, one character a byte: what it does not rewrite comes out as the
 * same bytes (UTF-8 included) with no decoding, and its patterns, all ASCII, cannot match inside a
 * multi-byte character. After the module script, chunks pass through as they are.
 */
export function scriptsAfterPaint(): Transform {
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
      const result = deferScripts(text.slice(0, cut));
      done = result.done;
      // Nothing to rewrite after the module script: what was held back goes with it.
      const out = done ? result.html + carry : result.html;
      if (done) carry = "";
      callback(null, Buffer.from(out, "latin1"));
    },
    flush(callback) {
      callback(null, Buffer.from(done ? carry : deferScripts(carry).html, "latin1"));
    },
  });
}
