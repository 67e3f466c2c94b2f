import { expect, type CDPSession, type Locator, type Page } from "@playwright/test";
import * as calls from "#contract/calls.ts";
import { fillPath, type Endpoint } from "#contract/endpoint.ts";
import type { UserStock } from "#contract/entities.ts";
import { embeddedProviderUrl } from "./ports.ts";
import { signIn } from "./sign-in.ts";

/**
 * Watchlist test helpers: a fresh trader per test (registered and filled through the provider's
 * own API, so tests never share rows), sign-in through the login form, and real touch gestures
 * dispatched as touch input (Chromium turns them into pointer events, as on a phone).
 */
export interface Trader {
  username: string;
  password: string;
  token: string;
  id: number;
  providerUrl: string;
}

export interface StockValues {
  base_iv: number;
  conservative_iv: number;
  buy_level_one: number;
  buy_level_two: number;
  buy_level_three: number;
  buy_level_four: number;
}

const DEFAULT_VALUES: StockValues = {
  base_iv: 100,
  conservative_iv: 80,
  buy_level_one: 60,
  buy_level_two: 50,
  buy_level_three: 40,
  buy_level_four: 30,
};

let counter = 0;

export async function providerCall<T = unknown>(
  providerUrl: string,
  endpoint: Endpoint,
  input: {
    token?: string;
    params?: Record<string, string | number>;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { ...input.headers };
  if (input.token) headers.authorization = `Bearer ${input.token}`;
  let body: string | undefined;
  if (input.body !== undefined) {
    if (endpoint.bodyEncoding === "form") {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(input.body as Record<string, string>).toString();
    } else {
      headers["content-type"] = "application/json";
      body = JSON.stringify(input.body);
    }
  }
  const response = await fetch(providerUrl + fillPath(endpoint.path, input.params ?? {}), {
    method: endpoint.method,
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // plain text
  }
  return { status: response.status, body: parsed as T };
}

/**
 * Registers a new trader and fills their watchlist in the given order. Each registration names its
 * own client address (the provider trusts X-Forwarded-For from loopback), so the per-address
 * registration limit never trips a long test run.
 */
export async function createTrader(
  tickers: (string | ({ ticker: string } & Partial<StockValues>))[],
  providerUrl = embeddedProviderUrl(),
): Promise<Trader> {
  counter += 1;
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
  const username = `wl${stamp}`.slice(0, 30);
  const password = "Watch-list-1234";
  const address = `10.${(counter >> 8) & 255}.${counter & 255}.${(process.pid % 250) + 1}`;
  const registered = await providerCall(providerUrl, calls.register, {
    body: { email: `${username}@example.com`, username, password, first_name: "Wanda", last_name: "List" },
    headers: { "x-forwarded-for": address },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  const login = await providerCall<{ access_token: string }>(providerUrl, calls.login, {
    body: { username, password },
    headers: { "x-forwarded-for": address },
  });
  expect(login.status).toBe(200);
  const token = login.body.access_token;
  const me = await providerCall<{ id: number }>(providerUrl, calls.me, { token });
  const trader = { username, password, token, id: me.body.id, providerUrl };
  for (const entry of tickers) {
    const { ticker, ...values } = typeof entry === "string" ? { ticker: entry } : entry;
    const added = await providerCall(providerUrl, calls.createUserStock, {
      token,
      params: { userId: trader.id },
      body: { ...DEFAULT_VALUES, ...values, stock: { ticker, name: "", current_price: 0 } },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  return trader;
}

/** The trader's watchlist as the provider holds it, ascending sort_order. */
export async function watchlistOf(trader: Trader): Promise<UserStock[]> {
  const res = await providerCall<UserStock[]>(trader.providerUrl, calls.listUserStocks, {
    token: trader.token,
    params: { userId: trader.id },
  });
  expect(res.status).toBe(200);
  return [...res.body].sort((a, b) => a.sort_order - b.sort_order);
}

export async function signInAs(page: Page, trader: Pick<Trader, "username" | "password">, baseUrl = "") {
  await signIn(page, trader.username, trader.password, baseUrl);
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
}

/** The list row of a ticker. */
export function row(page: Page, ticker: string): Locator {
  return page.locator(`li.stock-row[data-ticker="${ticker}"]`);
}

/**
 * The tickers shown, top to bottom. Read while the page may be navigating (an offline change
 * answered by the service worker redirects back to the list), so a read that the navigation cut
 * short is made again on the new page, as `expect.poll` would not retry a thrown error.
 */
export async function shownTickers(page: Page): Promise<string[]> {
  const read = () =>
    page.locator("li.stock-row").evaluateAll((items) => items.map((li) => li.getAttribute("data-ticker") ?? ""));
  try {
    return await read();
  } catch (error) {
    if (!/Execution context was destroyed/.test(String(error))) throw error;
    await page.waitForLoadState();
    return read();
  }
}

/** A finger on the screen: touch input through the DevTools protocol, as a phone sends it. */
export class Finger {
  private readonly cdp: CDPSession;
  private x: number;
  private y: number;

  private constructor(cdp: CDPSession, x: number, y: number) {
    this.cdp = cdp;
    this.x = x;
    this.y = y;
  }

  static async down(page: Page, at: { x: number; y: number }): Promise<Finger> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: at.x, y: at.y, id: 1 }] });
    return new Finger(cdp, at.x, at.y);
  }

  /** Moves by (dx, dy) in small steps, as a real finger does. */
  async move(dx: number, dy = 0, steps = 8): Promise<void> {
    const from = { x: this.x, y: this.y };
    for (let i = 1; i <= steps; i++) {
      this.x = from.x + (dx * i) / steps;
      this.y = from.y + (dy * i) / steps;
      await this.cdp.send("Input.dispatchTouchEvent", {
        type: "touchMove",
        touchPoints: [{ x: this.x, y: this.y, id: 1 }],
      });
    }
  }

  async up(): Promise<void> {
    await this.cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await this.cdp.detach();
  }
}

/** The middle of an element, in viewport coordinates. */
export async function centerOf(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("element is not visible");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Records every toast as it appears, with the auto-close time its progress bar runs for, so a
 * test can check a 1 s toast without racing it. Call before the page loads.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: { text: string; autoClose: string }[] = [];
    (window as unknown as { __toasts: typeof seen }).__toasts = seen;
    const look = (node: Node) => {
      if (!(node instanceof HTMLElement)) return;
      const toasts = node.matches(".Toastify__toast")
        ? [node]
        : [...node.querySelectorAll<HTMLElement>(".Toastify__toast")];
      for (const toast of toasts) {
        if (toast.dataset.recorded) continue;
        toast.dataset.recorded = "1";
        const bar = toast.querySelector<HTMLElement>(".Toastify__progress-bar");
        seen.push({ text: toast.textContent ?? "", autoClose: bar ? getComputedStyle(bar).animationDuration : "" });
      }
    };
    new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(look))).observe(document, {
      childList: true,
      subtree: true,
    });
  });
}

/** Waits until a toast with this text has appeared, and checks its auto-close time when given. */
export async function expectToast(page: Page, text: string, autoCloseMs?: number): Promise<void> {
  // Polls the list of every toast seen so far; a failure prints them all. A read that a navigation
  // cuts short (a form answered by a redirect, often the service worker's) reads as nothing seen yet,
  // and the next poll reads the new page's list: expect.poll does not retry a thrown error.
  const seen = () =>
    page
      .evaluate(() => (window as unknown as { __toasts?: { text: string; autoClose: string }[] }).__toasts ?? [])
      .catch((error: unknown) => {
        if (/Execution context was destroyed/.test(String(error))) return [];
        throw error;
      });
  await expect
    .poll(seen)
    .toContainEqual(
      autoCloseMs === undefined ? expect.objectContaining({ text }) : { text, autoClose: `${autoCloseMs / 1000}s` },
    );
}

/** The list's event handlers are attached (gestures need React running). */
export async function listReady(page: Page): Promise<void> {
  await expect(page.locator(".stock-list[data-ready]")).toHaveCount(1);
}
