/**
 * Every form's zod schema, loaded on demand, and what it tells the browser (`required`, `pattern`)
 * written without zod, so a page renders its form before the schema arrives (ADR 0051).
 * form-schemas.test.ts holds each `constraint` equal to Conform's `getZodConstraint` of its schema,
 * so the choices' patterns are spelled here (importing the trade forms' choices would put them on
 * every form page's first load).
 */

export type FormConstraint = Record<string, { required?: boolean; pattern?: string }>;

/** A form's schema module, imported when the form first renders in the browser, and its constraint. */
export interface LazyFormSchema<Schema> {
  load: () => Promise<Schema>;
  constraint: FormConstraint;
}

/** Fields the schema requires, then the ones it lets be empty. */
function constraintOf(required: readonly string[], optional: readonly string[] = []): FormConstraint {
  const constraint: FormConstraint = {};
  for (const name of required) constraint[name] = { required: true };
  for (const name of optional) constraint[name] = { required: false };
  return constraint;
}

export const LOGIN_FORM = {
  load: () => import("./auth-schemas.ts").then((m) => m.LoginSchema),
  constraint: constraintOf(["username", "password"], ["redirectTo"]),
};
export const SIGNUP_FORM = {
  load: () => import("./auth-schemas.ts").then((m) => m.SignupSchema),
  constraint: constraintOf(["firstName", "lastName", "email", "username", "password", "confirmPassword"]),
};
export const FORGOT_FORM = {
  load: () => import("./auth-schemas.ts").then((m) => m.ForgotSchema),
  constraint: constraintOf(["email"]),
};
export const RESET_PASSWORD_FORM = {
  load: () => import("./auth-schemas.ts").then((m) => m.ResetPasswordSchema),
  constraint: constraintOf(["token", "password", "confirmPassword"]),
};

const STOCK_VALUES = [
  "base_iv",
  "conservative_iv",
  "buy_level_one",
  "buy_level_two",
  "buy_level_three",
  "buy_level_four",
] as const;
export const ADD_USER_STOCK_FORM = {
  load: () => import("./stock-schemas.ts").then((m) => m.AddUserStockSchema),
  constraint: constraintOf([...STOCK_VALUES, "ticker"], ["name"]),
};
export const EDIT_USER_STOCK_FORM = {
  load: () => import("./stock-schemas.ts").then((m) => m.EditUserStockSchema),
  constraint: constraintOf(STOCK_VALUES),
};
export const ADD_UIP_STOCK_FORM = {
  load: () => import("./stock-schemas.ts").then((m) => m.AddUipStockSchema),
  constraint: constraintOf([...STOCK_VALUES, "ticker", "category_id"], ["name"]),
};
export const EDIT_UIP_STOCK_FORM = {
  load: () => import("./stock-schemas.ts").then((m) => m.EditUipStockSchema),
  constraint: constraintOf([...STOCK_VALUES, "category_id"]),
};

const TRADE_OPTIONAL = ["portfolio", "closingPrice", "exitFee", "exitDate", "strategy", "notes", "confidence"];
export const STOCK_TRADE_FORM = {
  load: () => import("./trade-schemas.ts").then((m) => m.StockTradeSchema),
  constraint: {
    ...constraintOf(["symbol", "entryPrice", "quantity", "entryFee", "entryDate"], TRADE_OPTIONAL),
    type: { required: false, pattern: "buy|sell" },
  },
};
export const OPTION_TRADE_FORM = {
  load: () => import("./trade-schemas.ts").then((m) => m.OptionTradeSchema),
  constraint: {
    ...constraintOf(["symbol", "strike", "expiry", "quantity", "entryPrice", "entryFee", "entryDate"], TRADE_OPTIONAL),
    action: { required: false, pattern: "sell_to_open|buy_to_close|expire|assignment|exercise" },
    optionType: { required: false, pattern: "put|call" },
  },
};
export const ROLL_FORM = {
  load: () => import("./roll-form.ts").then((m) => m.RollFormSchema),
  constraint: constraintOf([
    "contracts",
    "closePrice",
    "closeFees",
    "strike",
    "expiry",
    "openPrice",
    "openFees",
    "tradedAt",
  ]),
};

export const SUPPORT_FORM = {
  load: () => import("./support-schemas.ts").then((m) => m.SupportSchema),
  constraint: {
    subject: { required: true, pattern: "account|trading|technical|billing|feature|other" },
    message: { required: true },
  },
};
export const ALERT_SETTINGS_FORM = {
  load: () => import("./alert-settings-schema.ts").then((m) => m.AlertSettingsForm),
  constraint: constraintOf(["profit_share", "strike_distance", "earnings_days"]),
};
export const CAPITAL_SETTINGS_FORM = {
  load: () => import("./capital-settings-schema.ts").then((m) => m.CapitalSettingsForm),
  constraint: constraintOf(["reserve_share", "ticker_limit", "sector_limit"], ["capital", "only_fitting"]),
};
