import { Readable } from "node:stream";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import { NEEDS_SCRIPTS } from "#app/lib/page-scripts.ts";
import { afterPaintLoader, INTERACTION_EVENTS, scriptsAfterPaint } from "./scripts-after-paint.server.ts";

// The shape React Router's <Scripts> streams, around a page (see ADR 0044).
const page = [
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>`,
  `<link nonce="N0==" rel="stylesheet" href="/assets/index.css" data-precedence="default"/>`,
  `<link rel="modulepreload" href="/assets/manifest-1.js" nonce="N0=="/>`,
  `<link rel="modulepreload" href="/assets/entry.client-2.js" nonce="N0=="/></head>`,
  `<body><main><h1>Prix – 5 €</h1><form method="post"><button>Go</button></form></main>`,
  `<script nonce="N0==">window.__reactRouterContext = {"ssr":true};</script>`,
  `<script nonce="N0==" type="module" async="">import "/assets/manifest-1.js";\nimport * as route0 from "/assets/root-3.js";\n`,
  `window.__reactRouterRouteModules = {"root":route0};\n\nimport("/assets/entry.client-2.js");</script>`,
  `<script nonce="N0==">window.__reactRouterContext.streamController.enqueue("[1]");</script></body></html>`,
].join("");

/** The rewritten page as a browser reads it: the bytes, then decoded (a piece may end inside a character). */
async function rewrite(chunks: Buffer[]): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of Readable.from(chunks).pipe(scriptsAfterPaint())) pieces.push(piece as Buffer);
  return Buffer.concat(pieces).toString("utf8");
}

/** Cuts the page's bytes into pieces of `size` (through tags and multi-byte characters). */
const cut = (size: number) => {
  const bytes = Buffer.from(page, "utf8");
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return pieces;
};

describe("scripts after the first paint", () => {
  test("no modulepreload and no module script are left; the markup, the data and the nonce are", async () => {
    const html = await rewrite([Buffer.from(page)]);
    expect(html).not.toContain("modulepreload");
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain(`<main><h1>Prix – 5 €</h1><form method="post"><button>Go</button></form></main>`);
    expect(html).toContain(`<script nonce="N0==">window.__reactRouterContext = {"ssr":true};</script>`);
    expect(html).toContain(`enqueue("[1]");</script></body></html>`);
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toEqual(Array(3).fill(`<script nonce="N0==">`));
  });

  test("the same HTML comes out however the stream is cut", async () => {
    const whole = await rewrite([Buffer.from(page)]);
    for (const size of [1, 3, 7, 64, 200]) expect(await rewrite(cut(size)), `pieces of ${size}`).toBe(whole);
  });

  /** Runs the loader in a stand-in page: what it added, and the paint and timers to set off by hand. */
  function runLoader(code: string, visibilityState = "visible") {
    const added: { type: string; nonce: string; textContent: string }[] = [];
    const timers: { run: () => void; ms: number }[] = [];
    let observer: ((list: { getEntriesByName(name: string): unknown[] }, o: { disconnect(): void }) => void) | null =
      null;
    let observed: unknown = null;
    class PerformanceObserver {
      static supportedEntryTypes = ["paint", "resource"];
      constructor(callback: NonNullable<typeof observer>) {
        observer = callback;
      }
      observe(options: unknown) {
        observed = options;
      }
    }
    const document = {
      visibilityState,
      currentScript: { nonce: "N0==" },
      createElement: () => ({ type: "", nonce: "", textContent: "" }),
      body: { appendChild: (el: (typeof added)[number]) => added.push(el) },
    };
    runInNewContext(afterPaintLoader(code), {
      document,
      PerformanceObserver,
      requestAnimationFrame: () => {
        throw new Error("not used where paint timing exists");
      },
      setTimeout: (run: () => void, ms: number) => timers.push({ run, ms }),
    });
    const paint = (names: string[]) =>
      observer!({ getEntriesByName: (name) => names.filter((n) => n === name) }, { disconnect() {} });
    return { added, timers, paint, observed: () => observed };
  }

  test("the loader adds the same module code, with the nonce, once the first contentful paint is reported", () => {
    const code = `import "/assets/x.js";\nwindow.done = "</script>";`;
    expect(afterPaintLoader(code)).not.toContain("</script>");
    const page = runLoader(code);
    expect(page.observed()).toEqual({ type: "paint", buffered: true });
    page.paint(["first-paint"]);
    expect(page.added).toHaveLength(0);
    page.paint(["first-paint", "first-contentful-paint"]);
    expect(page.added).toHaveLength(0); // in the task after it
    for (const timer of page.timers.filter((t) => t.ms === 0)) timer.run();
    expect(page.added).toEqual([{ type: "module", nonce: "N0==", textContent: code }]);
    // The fallback timer, later, adds nothing more.
    for (const timer of page.timers) timer.run();
    expect(page.added).toHaveLength(1);
  });

  test("with no paint reported the code is added after the fallback delay; in a hidden tab at once", () => {
    const page = runLoader("import './y.js';");
    expect(page.added).toHaveLength(0);
    const fallback = page.timers.find((t) => t.ms > 0)!;
    expect(fallback.ms).toBe(10_000);
    fallback.run();
    expect(page.added.map((s) => s.textContent)).toEqual(["import './y.js';"]);

    const hidden = runLoader("import './z.js';", "hidden");
    expect(hidden.added.map((s) => s.textContent)).toEqual(["import './z.js';"]);
  });

  /** Runs the landing page's loader (ADR 0061) in a stand-in window: its listeners, what it added and registered. */
  function runInteractionLoader(code: string, serviceWorker: string | null) {
    const added: { type: string; nonce: string; textContent: string; onerror?: () => void }[] = [];
    const listeners = new Map<string, { listener: (event?: unknown) => void; options: unknown }>();
    const registered: unknown[][] = [];
    const root = { hydrated: false, hasAttribute: (name: string) => name === "data-hydrated" && root.hydrated };
    let mutation: (() => void) | null = null;
    let watched: unknown = null;
    class MutationObserver {
      constructor(callback: (records: unknown[], observer: { disconnect(): void }) => void) {
        mutation = () => callback([], { disconnect: () => (mutation = null) });
      }
      observe(target: unknown, options: unknown) {
        watched = { target, options };
      }
    }
    const window = {
      document: {
        visibilityState: "visible",
        currentScript: { nonce: "N0==" },
        documentElement: root,
        createElement: () => ({ type: "", nonce: "", textContent: "" }),
        body: { appendChild: (el: (typeof added)[number]) => added.push(el) },
      },
      navigator: { serviceWorker: { register: (...args: unknown[]) => (registered.push(args), Promise.resolve()) } },
      MutationObserver,
      addEventListener: (type: string, listener: () => void, options: unknown) =>
        listeners.set(type, { listener, options }),
      removeEventListener: (type: string, listener: () => void, capture: unknown) => {
        if (listeners.get(type)?.listener === listener && capture === true) listeners.delete(type);
      },
      setTimeout: () => {
        throw new Error("no timer: only an interaction loads the scripts");
      },
    };
    runInNewContext(afterPaintLoader(code, { when: "interaction", serviceWorker }), window);
    const fire = (type: string, event?: unknown) => listeners.get(type)?.listener(event);
    /** The page has hydrated: the root marks <html data-hydrated>. */
    const hydrate = () => {
      root.hydrated = true;
      mutation?.();
    };
    return { added, listeners, registered, fire, hydrate, watched: () => watched, root };
  }

  test("on the landing page the code is added at the first interaction only, and the worker registered once loaded", () => {
    const page = runInteractionLoader("import './login.js';", "/service-worker.js");
    expect(page.added).toHaveLength(0);
    for (const type of INTERACTION_EVENTS) {
      expect(page.listeners.get(type)?.options, type).toEqual({ capture: true, passive: true });
    }
    page.fire("load");
    expect(page.registered).toEqual([["/service-worker.js", { scope: "/" }]]);
    expect(page.added).toHaveLength(0);
    page.fire("focusin");
    expect(page.added).toMatchObject([{ type: "module", nonce: "N0==", textContent: "import './login.js';" }]);
    // Every interaction listener is gone: another press adds nothing.
    expect([...page.listeners.keys()].sort()).toEqual(["load", "submit"]);
    page.fire("keydown");
    expect(page.added).toHaveLength(1);

    // A pointer that moves is an interaction too; without a worker address nothing is registered.
    const dev = runInteractionLoader("import './x.js';", null);
    expect(dev.listeners.has("load")).toBe(false);
    dev.fire("pointermove");
    expect(dev.added.map((s) => s.textContent)).toEqual(["import './x.js';"]);
  });

  test("a form that needs the scripts, sent before the page has hydrated, is held and sent again once it has", () => {
    const page = runInteractionLoader("import './login.js';", null);
    expect(page.watched()).toEqual({
      target: page.root,
      options: { attributes: true, attributeFilter: ["data-hydrated"] },
    });
    const submitted: unknown[] = [];
    const form = (needsScripts: boolean) => ({
      hasAttribute: (name: string) => needsScripts && name === NEEDS_SCRIPTS,
      requestSubmit: (submitter: unknown) => submitted.push(submitter),
    });
    const submit = (target: ReturnType<typeof form>, submitter: unknown) => {
      const event = { target, submitter, prevented: false, stopped: false };
      page.fire("submit", {
        ...event,
        preventDefault: () => (event.prevented = true),
        stopImmediatePropagation: () => (event.stopped = true),
      });
      return event;
    };
    const button = { busy: null as string | null, setAttribute: (_: string, value: string) => (button.busy = value) };

    // The sign-in form posts without the scripts as it always could.
    expect(submit(form(false), null)).toMatchObject({ prevented: false, stopped: false });
    // Google's waits, its button says it is busy, and React's listeners never see it.
    const google = form(true);
    expect(submit(google, button)).toMatchObject({ prevented: true, stopped: true });
    expect(button.busy).toBe("true");
    // A second press while it waits is held too, and not sent twice.
    expect(submit(google, button)).toMatchObject({ prevented: true });
    expect(submitted).toEqual([]);

    page.hydrate();
    expect(submitted).toEqual([button]);
    // Hydrated, the page's own code takes its forms: the loader holds nothing more.
    expect(page.listeners.has("submit")).toBe(false);
  });

  test("should the scripts fail to load, a held form is posted as it is", () => {
    const page = runInteractionLoader("import './login.js';", null);
    let posted = 0;
    const google = {
      hasAttribute: (name: string) => name === NEEDS_SCRIPTS,
      submit: () => posted++,
      requestSubmit: () => {
        throw new Error("not hydrated");
      },
    };
    page.fire("pointerdown");
    page.fire("submit", { target: google, submitter: null, preventDefault() {}, stopImmediatePropagation() {} });
    expect(posted).toBe(0);
    // The module script's imports could not be fetched (a flaky network): its error event.
    page.added[0]!.onerror!();
    expect(posted).toBe(1);
    expect(page.listeners.has("submit")).toBe(false);
  });
});
