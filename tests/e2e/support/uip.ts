import { expect, type Page } from "@playwright/test";
import * as calls from "#contract/calls.ts";
import type { Category, UipStock } from "#contract/entities.ts";
import { embeddedProviderUrl } from "./ports.ts";
import { providerCall, signInAs, type StockValues } from "./watchlist.ts";

/**
 * UIP list test helpers. The UIP list is shared by every user, so a test that changes it as the
 * admin makes its own rows (tickers the demo list does not hold) and puts everything back
 * afterwards (`UipFixture.restore`), so tests never depend on each other.
 */
export const ADMIN = { username: "admin", password: "admin1234" } as const;

/** Demo tickers that are not on the demo UIP list, for rows a test adds. */
export const FREE_TICKERS = ["JPM", "PG", "PEP", "WMT", "HD", "DIS", "NFLX", "AMD", "CRM", "ADBE", "XOM", "CVX"];

/** The admin's token per provider (each worker has its own provider, with its own keys). */
const adminTokens = new Map<string, string>();

export async function adminTokenOf(providerUrl = embeddedProviderUrl()): Promise<string> {
  const known = adminTokens.get(providerUrl);
  if (known) return known;
  const login = await providerCall<{ access_token: string }>(providerUrl, calls.login, {
    body: ADMIN,
    headers: { "x-forwarded-for": "10.250.0.1" },
  });
  expect(login.status).toBe(200);
  adminTokens.set(providerUrl, login.body.access_token);
  return login.body.access_token;
}

/** The UIP list as `token`'s user sees it (their own bells), ascending sort_order. */
export async function uipList(token?: string): Promise<UipStock[]> {
  const res = await providerCall<UipStock[]>(embeddedProviderUrl(), calls.listUipStocks, {
    token: token ?? (await adminTokenOf()),
  });
  expect(res.status).toBe(200);
  return [...res.body].sort((a, b) => a.sort_order - b.sort_order);
}

export async function categories(): Promise<Category[]> {
  const res = await providerCall<Category[]>(embeddedProviderUrl(), calls.listCategories, {
    token: await adminTokenOf(),
  });
  expect(res.status).toBe(200);
  return res.body;
}

export async function categoryNamed(name: string): Promise<Category> {
  const found = (await categories()).find((c) => c.name === name);
  if (!found) throw new Error(`no category ${name}`);
  return found;
}

const DEFAULT_VALUES: StockValues = {
  base_iv: 100,
  conservative_iv: 80,
  buy_level_one: 60,
  buy_level_two: 50,
  buy_level_three: 40,
  buy_level_four: 30,
};

/** Records the list's order and rows at the start, adds rows for the test, and restores both at the end. */
export class UipFixture {
  private readonly startOrder: number[];
  private readonly startRows: UipStock[];

  private constructor(rows: UipStock[]) {
    this.startRows = rows;
    this.startOrder = rows.map((r) => r.id);
  }

  static async start(): Promise<UipFixture> {
    return new UipFixture(await uipList());
  }

  /** Adds a row through the provider as the admin (at the end of the list). */
  async add(ticker: string, category: string, values: Partial<StockValues> = {}): Promise<UipStock> {
    const res = await providerCall<UipStock>(embeddedProviderUrl(), calls.createUipStock, {
      token: await adminTokenOf(),
      body: {
        ...DEFAULT_VALUES,
        ...values,
        category_id: (await categoryNamed(category)).id,
        stock: { ticker, name: "", current_price: 0 },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  async remove(id: number): Promise<void> {
    await providerCall(embeddedProviderUrl(), calls.deleteUipStock, { token: await adminTokenOf(), params: { id } });
  }

  /** Deletes rows the test added, puts back the values it changed, and the order. */
  async restore(): Promise<void> {
    const token = await adminTokenOf();
    const now = await uipList();
    for (const row of now) if (!this.startOrder.includes(row.id)) await this.remove(row.id);
    for (const before of this.startRows) {
      const after = now.find((r) => r.id === before.id);
      if (!after) throw new Error(`a test deleted a demo UIP row (${before.stock.ticker}); it cannot be restored`);
      const keys = [
        "base_iv",
        "conservative_iv",
        "buy_level_one",
        "buy_level_two",
        "buy_level_three",
        "buy_level_four",
        "category_id",
      ] as const;
      if (keys.some((k) => after[k] !== before[k])) {
        await providerCall(embeddedProviderUrl(), calls.updateUipStock, {
          token,
          params: { id: before.id },
          body: Object.fromEntries(keys.map((k) => [k, before[k]])),
        });
      }
    }
    const res = await providerCall(embeddedProviderUrl(), calls.reorderUipStocks, {
      token,
      body: this.startOrder.map((id, i) => ({ id, sort_order: i, active: 1 })),
    });
    expect(res.status).toBe(200);
  }
}

/** Signs in (landing on the watchlist) and opens the UIP list by the bottom navigation. */
export async function openUipList(page: Page, user: { username: string; password: string }): Promise<void> {
  await signInAs(page, user);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "UIP" }).click();
  await expect(page).toHaveURL(/\/uip-stocks$/);
  await expect(page.getByRole("heading", { name: "UIP Stocks" })).toBeVisible();
}
