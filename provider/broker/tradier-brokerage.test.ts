import { expect, it } from "vitest";
import { BrokerError, createTradierBrokerage } from "./tradier-brokerage.ts";

/** Tradier at the internet's edge: /accounts/{id}/balances answering `body` as Tradier's JSON. */
const tradierAnswering = (body: unknown) =>
  createTradierBrokerage({
    token: "t",
    baseUrl: "https://sandbox.tradier.test/v1",
    fetch: async (url) => {
      expect(String(url)).toBe("https://sandbox.tradier.test/v1/accounts/VA1/balances");
      return Response.json(body);
    },
  });

it("the account's cash is total_cash; a cash account without it gives cash_available; neither is unknown (ADR 0098)", async () => {
  const margin = {
    balances: { account_type: "margin", total_cash: 3835.07, margin: { option_buying_power: 2585.07 } },
  };
  expect(await tradierAnswering(margin).cash("VA1")).toBe(3835.07);
  const cash = { balances: { account_type: "cash", cash: { cash_available: 1200.5, sweep: 0, unsettled_funds: 0 } } };
  expect(await tradierAnswering(cash).cash("VA1")).toBe(1200.5);
  expect(await tradierAnswering({ balances: { account_type: "pdt" } }).cash("VA1")).toBeNull();
  await expect(tradierAnswering({ nothing: 1 }).cash("VA1")).rejects.toBeInstanceOf(BrokerError);
});
