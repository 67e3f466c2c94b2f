import { expect, test } from "vitest";
import { BrokerPosition } from "./broker-positions.ts";

test("an option position needs its type, strike and expiry; shares have none; 0 is no position", () => {
  const option = {
    ticker: "ko",
    kind: "option",
    option_type: "put",
    strike: 65,
    expiry: "2026-12-18",
    quantity: -1,
    cost_basis: null,
  };
  expect(BrokerPosition.parse(option).ticker).toBe("KO");
  expect(BrokerPosition.safeParse({ ...option, strike: null }).success).toBe(false);
  expect(BrokerPosition.safeParse({ ...option, quantity: -1.5 }).success).toBe(false);
  expect(BrokerPosition.safeParse({ ...option, quantity: 0 }).success).toBe(false);
  const shares = {
    ticker: "KO",
    kind: "shares",
    option_type: null,
    strike: null,
    expiry: null,
    quantity: 12.5,
    cost_basis: 60,
  };
  expect(BrokerPosition.safeParse(shares).success).toBe(true);
  expect(BrokerPosition.safeParse({ ...shares, expiry: "2026-12-18" }).success).toBe(false);
});
