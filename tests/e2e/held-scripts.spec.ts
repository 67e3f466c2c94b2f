import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { holdScripts, waitForHydration } from "./support/hydration.ts";
import { flaggedTrader, generateAs } from "./support/insights.ts";
import * as calls from "#contract/calls.ts";
import { providerCall, signInAs, type Trader } from "./support/watchlist.ts";

/**
 * Issue 46, "every control held": on a slow phone the scripts arrive seconds after the first paint
 * (ADR 0044). Per screen, with the scripts held, this drives every control on the page: it fills
 * each text field, flips each checkbox and switch, picks another option of each select, and
 * presses each button (each in a page of its own, scripts held). Then it checks that what was done
 * is kept once the scripts run (ADR 0084), or was done by the plain form. The controls are listed
 * from the page (`button, input, select, textarea, a[role=button]`), so a new control nobody drives
 * fails the coverage check at the end of each test.
 */
test.describe.configure({ timeout: 240_000 });

const CONTROLS = "button, input:not([type=hidden]), select, textarea, a[role=button]";

interface Control {
  index: number;
  tag: string;
  type: string;
  name: string;
  /** What a person would call it: its label, aria-label, or text. */
  label: string;
  visible: boolean;
  disabled: boolean;
  /** The form it submits, for a button; "" when none. */
  formAction: string | null;
}

/** Every control of the page, each marked `data-held` with its index so it can be found again after hydration. */
async function controlsOf(page: Page): Promise<Control[]> {
  return page.locator(CONTROLS).evaluateAll((elements) =>
    elements.map((el, index) => {
      el.setAttribute("data-held", String(index));
      const input = el as HTMLInputElement;
      const labelled =
        el.getAttribute("aria-label") ??
        (input.labels && input.labels.length > 0 ? (input.labels[0]!.textContent ?? "") : "");
      const button = el as HTMLButtonElement;
      return {
        index,
        tag: el.tagName.toLowerCase(),
        type: (el.getAttribute("type") ?? "").toLowerCase(),
        name: el.getAttribute("name") ?? "",
        label: (labelled || el.textContent || el.getAttribute("title") || "").trim().replace(/\s+/g, " "),
        visible: el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden",
        disabled: (el as HTMLButtonElement).disabled === true,
        formAction: el.tagName === "BUTTON" && button.type !== "button" && button.form ? button.form.action : null,
      };
    }),
  );
}

/**
 * Opens every closed disclosure (`<details>`, e.g. /insights' "Your filters") by its summary, as a
 * person would before reaching what it holds; the HTML opens it without the scripts.
 */
async function openDisclosures(page: Page) {
  const closed = page.locator("details:not([open]) > summary");
  for (let left = 20; left > 0 && (await closed.count()) > 0; left--) await closed.first().click();
}

const key = (c: Control) => `${c.tag}[${c.type || "-"}] ${c.name || "-"} "${c.label}"`;
const isButton = (c: Control) =>
  c.tag === "button" || c.tag === "a" || (c.tag === "input" && ["submit", "button", "reset"].includes(c.type));
const isCheck = (c: Control) => c.tag === "input" && (c.type === "checkbox" || c.type === "radio");

/** A value a field of this type accepts. */
function typed(c: Control): string {
  switch (c.type) {
    case "number":
      return "7";
    case "date":
      return "2027-01-15";
    case "datetime-local":
      return "2027-01-15T10:30";
    case "time":
      return "10:30";
    case "email":
      return "held@example.test";
    case "url":
      return "https://example.test/";
    default:
      return c.name === "q" || c.type === "search" ? "K" : "Held 7";
  }
}

interface Done {
  control: Control;
  check: (page: Page) => Promise<void>;
}

/**
 * Before the scripts: fills, flips and picks every visible field; answers what each should hold
 * once the scripts run. A file field is given a picture when it is the profile photo's.
 */
async function driveFields(page: Page, controls: Control[]): Promise<Done[]> {
  const done: Done[] = [];
  for (const c of controls) {
    if (!c.visible || c.disabled || isButton(c)) continue;
    const el = page.locator(`[data-held="${c.index}"]`);
    const again = (p: Page) => p.locator(`[data-held="${c.index}"]`);
    if (isCheck(c)) {
      const was = await el.isChecked();
      if (c.type === "radio" && was) {
        done.push({ control: c, check: async (p) => expect(again(p), key(c)).toBeChecked() });
        continue;
      }
      await el.click();
      const want = c.type === "radio" ? true : !was;
      done.push({
        control: c,
        check: async (p) =>
          want ? expect(again(p), key(c)).toBeChecked() : expect(again(p), key(c)).not.toBeChecked(),
      });
    } else if (c.tag === "select") {
      const values = await el.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      const current = await el.inputValue();
      const other = values.find((v) => v !== current) ?? current;
      await el.selectOption(other);
      done.push({ control: c, check: async (p) => expect(again(p), key(c)).toHaveValue(other) });
    } else if (c.type === "file") {
      await el.setInputFiles({ name: "held.png", mimeType: "image/png", buffer: PNG });
      done.push({
        control: c,
        check: async (p) => expect(p.getByRole("img", { name: "Your profile photo" })).toBeVisible(),
      });
    } else {
      const value = typed(c);
      await el.fill(value);
      done.push({ control: c, check: async (p) => expect(again(p), key(c)).toHaveValue(value) });
    }
  }
  return done;
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/**
 * Fills the fields a button's form requires and that are still empty (/insights' Generate needs a
 * ticker), as a person would before pressing it: the browser itself refuses the post otherwise.
 */
async function fillRequired(page: Page, controls: Control[], button: Control) {
  const missing = await page.locator(`[data-held="${button.index}"]`).evaluate((el) => {
    const form = (el as HTMLButtonElement).form;
    if (!form || form.noValidate || (el as HTMLButtonElement).formNoValidate) return [];
    return [...form.elements]
      .filter((field) => (field as HTMLInputElement).willValidate && !(field as HTMLInputElement).checkValidity())
      .map((field) => Number(field.getAttribute("data-held")));
  });
  for (const c of controls) {
    if (missing.includes(c.index) && !isButton(c) && !isCheck(c) && c.tag !== "select" && c.type !== "file") {
      await page.locator(`[data-held="${c.index}"]`).fill(typed(c));
    }
  }
}

/**
 * Presses one button before the scripts, in a page of its own: it must do its job without them, as
 * a plain form post or link (a new document), or by what the HTML does alone (a disclosure), and
 * what it did must still hold once the scripts run.
 */
async function pressHeld(context: BrowserContext, trader: Trader, path: string, c: Control): Promise<string | null> {
  const page = await context.newPage();
  try {
    await page.goto(path);
    // An earlier press may have signed out (Logout): sign in again.
    if (new URL(page.url()).pathname === "/login") await signInAs(page, trader);
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: "domcontentloaded" });
    await openDisclosures(page);
    const controls = await controlsOf(page);
    const same = controls.find((x) => key(x) === key(c) && x.visible && !x.disabled);
    if (!same) return null; // pressed away by an earlier press (a deleted row): nothing left to press
    await fillRequired(page, controls, same);
    await page.evaluate(() => ((window as unknown as { heldMark: number }).heldMark = 1));
    const before = await page.locator("body").innerHTML();
    // A plain form's post and its redirect: given seconds, as a loaded machine may take them.
    const navigated = page.waitForEvent("framenavigated", { timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    await page.locator(`[data-held="${same.index}"]`).click({ noWaitAfter: true });
    const newDocument = await navigated;
    const stayed = await page
      .evaluate(() => (window as unknown as { heldMark?: number }).heldMark === 1)
      .catch(() => false);
    const changed = stayed && (await page.locator("body").innerHTML()) !== before;
    release();
    if (!newDocument && !changed) return `${key(c)} did nothing before the scripts ran`;
    return null;
  } finally {
    await page.close();
  }
}

async function heldScreen(browser: Browser, trader: Trader, path: string) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await signInAs(page, trader);
  const release = await holdScripts(page);
  await page.goto(path, { waitUntil: "domcontentloaded" });
  await openDisclosures(page);
  const controls = await controlsOf(page);
  const done = await driveFields(page, controls);
  release();
  await waitForHydration(page);
  for (const d of done) await d.check(page);

  // Each button once per name and form: a list's rows repeat the same buttons.
  const buttons = new Map<string, Control>();
  for (const c of controls) if (c.visible && !c.disabled && isButton(c) && !buttons.has(key(c))) buttons.set(key(c), c);
  const problems: string[] = [];
  for (const c of buttons.values()) {
    const problem = await pressHeld(context, trader, path, c);
    if (problem) problems.push(problem);
  }
  expect(problems).toEqual([]);

  // Coverage: every visible control was driven (a field) or pressed (a button, once per name).
  const covered = new Set([...done.map((d) => d.control.index)]);
  const uncovered = controls.filter(
    (c) => c.visible && !c.disabled && !covered.has(c.index) && !(isButton(c) && buttons.has(key(c))),
  );
  expect(uncovered.map(key)).toEqual([]);
  await context.close();
}

async function traderWithBook(): Promise<Trader> {
  const trader = await flaggedTrader(["KO", "MSFT"]);
  for (const ticker of ["KO", "MSFT"]) expect((await generateAs(trader, ticker)).status).toBe(200);
  const bought = await providerCall(trader.providerUrl, calls.addTrade, {
    token: trader.token,
    body: {
      kind: "stock_buy",
      ticker: "KO",
      quantity: 100,
      price: 60,
      fees: 1,
      traded_at: new Date(Date.now() - 3_600_000).toISOString(),
    },
  });
  expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  return trader;
}

/**
 * `known`: what this spec found that still loses a press made before the scripts, to be fixed by
 * the mechanism of ADR 0084 (a plain-form path), not per control; the screen's test is skipped as
 * `fixme` until then. `unverified`: not yet run green on a build.
 */
const SCREENS: { path: string; known?: string; unverified?: true }[] = [
  { path: "/user-stocks" },
  { path: "/add-trade" },
  { path: "/uip-stocks" },
  { path: "/profile" },
  { path: "/insights" },
  { path: "/portfolio" },
];

for (const screen of SCREENS) {
  const run = screen.known || screen.unverified ? test.fixme : test;
  run(
    `${screen.path}: every control driven before the scripts is kept or done by the plain form`,
    async ({ browser }) => {
      await heldScreen(browser, await traderWithBook(), screen.path);
    },
  );
}
