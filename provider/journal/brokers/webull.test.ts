import { describe, expect, it } from "vitest";
import { readCsv } from "./csv.ts";
import { parseWebull, webullTime } from "./webull.ts";

/** Webull's times and share orders (docs/decisions/0095-webull-orders-and-expiries-from-the-close.md). */
const HEADER = "Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time";
async function lines(...rows: string[]) {
  return [...parseWebull((await readCsv([HEADER, ...rows].join("\n"))).records)].map((l) =>
    "trade" in l ? l.trade : "refused" in l ? { refused: l.refused } : "skipped",
  );
}

describe("Webull's clock", () => {
  it("reads the zone written after the time: EDT is UTC−4, EST UTC−5; none is New York's clock", () => {
    expect(webullTime("05/04/2026 10:31:05 EDT")).toBe("2026-05-04T14:31:05.000Z");
    expect(webullTime("01/22/2026 09:53:04 EST")).toBe("2026-01-22T14:53:04.000Z");
    expect(webullTime("01/22/2026 09:53 PST")).toBe("2026-01-22T17:53:00.000Z");
    expect(webullTime("07/20/2026 09:45:30")).toBe("2026-07-20T13:45:30.000Z");
    expect(webullTime("07/20/2026 09:45:30 XYZ")).toBeNull();
    expect(webullTime("2026-07-20 09:45")).toBeNull();
  });
});

describe("Webull's order lines", () => {
  it("a Filled share order of a ticker the file sells options on is a share trade at its Avg Price", async () => {
    expect(
      await lines(
        "Coca-Cola,KO,Buy,Filled,100,100,@64.90,64.88,DAY,06/01/2026 10:00:00 EDT,06/01/2026 10:00:02 EDT",
        "KO260717C00066000,KO260717C00066000,Sell,Filled,1,1,@0.95,0.95,DAY,06/01/2026 10:05:00 EDT,06/01/2026 10:05:01 EDT",
        "Coca-Cola,KO,Sell,Filled,100,100,MKT,66.10,DAY,06/20/2026 10:00:00 EDT,06/20/2026 10:00:00 EDT",
      ),
    ).toEqual([
      { kind: "stock_buy", ticker: "KO", quantity: 100, price: 64.88, fees: 0, traded_at: "2026-06-01T14:00:02.000Z" },
      {
        kind: "sell_to_open",
        ticker: "KO",
        option_type: "call",
        strike: 66,
        expiry: "2026-07-17",
        quantity: 1,
        price: 0.95,
        fees: 0,
        traded_at: "2026-06-01T14:05:01.000Z",
      },
      { kind: "stock_sell", ticker: "KO", quantity: 100, price: 66.1, fees: 0, traded_at: "2026-06-20T14:00:00.000Z" },
    ]);
  });

  it("a Filled line whose time, side or price cannot be read gets the reason", async () => {
    const put = "KO260717P00065000,KO260717P00065000";
    expect(
      await lines(
        `${put},Sell,Filled,1,1,@1.00,1.00,DAY,06/01/2026 10:00:00 EDT,June 1 10:00`,
        `${put},Exercise,Filled,1,1,@1.00,1.00,DAY,06/01/2026 10:00:00 EDT,06/01/2026 10:00:00 EDT`,
        `${put},Sell,Filled,1,1,@1.00,abc,DAY,06/01/2026 10:00:00 EDT,06/01/2026 10:00:00 EDT`,
      ),
    ).toEqual([
      { refused: 'Filled Time "June 1 10:00" is not like 05/04/2026 10:31:05 EDT' },
      { refused: 'Side "Exercise" is neither Buy nor Sell' },
      { refused: 'Avg Price "abc" is not a number' },
    ]);
  });
});
