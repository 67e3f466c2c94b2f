import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { authModeOf } from "./auth-modes.ts";
import { ForgotSchema, LoginSchema, ResetPasswordSchema, safeRedirect, SignupSchema } from "./auth-schemas.ts";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
};
const errorsOf = (schema: Parameters<typeof parseWithZod>[1]["schema"], values: Record<string, string>) => {
  const submission = parseWithZod(form(values), { schema });
  return submission.status === "success" ? {} : (submission.reply().error ?? {});
};

const signup = {
  firstName: "Pat",
  lastName: "Seller",
  email: "Pat@Example.com",
  username: "pat",
  password: "s3cret-pass",
  confirmPassword: "s3cret-pass",
};

describe("signup (docs/product.md#validation-auth)", () => {
  it("accepts a complete form and normalises the email", () => {
    const submission = parseWithZod(form(signup), { schema: SignupSchema });
    expect(submission.status).toBe("success");
    if (submission.status === "success") expect(submission.value.email).toBe("pat@example.com");
  });

  it("requires every field", () => {
    expect(errorsOf(SignupSchema, {})).toEqual({
      firstName: ["First name is required"],
      lastName: ["Last name is required"],
      email: ["Email is required"],
      username: ["Username is required"],
      password: ["Password is required"],
      confirmPassword: ["Please confirm your password"],
    });
    expect(errorsOf(SignupSchema, { ...signup, firstName: "   " })).toEqual({ firstName: ["First name is required"] });
  });

  it("says 'Passwords do not match' on the confirmation", () => {
    expect(errorsOf(SignupSchema, { ...signup, confirmPassword: "s3cret-pasS" })).toEqual({
      confirmPassword: ["Passwords do not match"],
    });
  });

  it("checks the email format and the provider's username and password rules", () => {
    expect(errorsOf(SignupSchema, { ...signup, email: "pat@" }).email).toEqual(["Enter a valid email address"]);
    expect(errorsOf(SignupSchema, { ...signup, username: "pa" }).username).toEqual([
      "Username must be at least 3 characters",
    ]);
    expect(
      errorsOf(SignupSchema, { ...signup, password: "onlyletters", confirmPassword: "onlyletters" }).password,
    ).toEqual(["Password must be 8 to 128 characters and contain a letter and a digit"]);
  });
});

describe("login and forgot (docs/product.md#validation-auth)", () => {
  it("requires username and password", () => {
    expect(errorsOf(LoginSchema, {})).toEqual({
      username: ["Username is required"],
      password: ["Password is required"],
    });
  });
  it("requires an email", () => {
    expect(errorsOf(ForgotSchema, {})).toEqual({ email: ["Email is required"] });
    expect(errorsOf(ForgotSchema, { email: "x" })).toEqual({ email: ["Enter a valid email address"] });
  });
});

describe("reset password", () => {
  it("needs the token, a policy-abiding password and a matching confirmation", () => {
    expect(errorsOf(ResetPasswordSchema, { password: "new-pass9", confirmPassword: "new-pass9" }).token).toBeDefined();
    expect(errorsOf(ResetPasswordSchema, { token: "t", password: "new-pass9", confirmPassword: "new-pass8" })).toEqual({
      confirmPassword: ["Passwords do not match"],
    });
    expect(errorsOf(ResetPasswordSchema, { token: "t", password: "new-pass9", confirmPassword: "new-pass9" })).toEqual(
      {},
    );
  });
});

describe("helpers", () => {
  it("reads the card's mode from the URL, login by default", () => {
    expect(authModeOf("signup")).toBe("signup");
    expect(authModeOf("forgot")).toBe("forgot");
    expect(authModeOf(null)).toBe("login");
    expect(authModeOf("admin")).toBe("login");
  });
  it("redirects only within the site", () => {
    expect(safeRedirect("/user-stocks?x=1")).toBe("/user-stocks?x=1");
    // Any text is kept, percent-encoded, so the Location header can carry it (issue 40, finding 5).
    expect(safeRedirect("/insights?q=☃")).toBe("/insights?q=%E2%98%83");
    expect(safeRedirect("/user-stock/☃#ü")).toBe("/user-stock/%E2%98%83#%C3%BC");
    expect(safeRedirect("/insights?q=%E2%98%83")).toBe("/insights?q=%E2%98%83");
    expect(safeRedirect("//evil.example")).toBe("/user-stocks");
    expect(safeRedirect("https://evil.example")).toBe("/user-stocks");
    expect(safeRedirect("/\\evil.example")).toBe("/user-stocks");
    // Browsers drop tabs and newlines and read backslashes as slashes: each of these is another host.
    for (const bad of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "\\/evil.example",
      "/x\\..\\\\evil",
      "/\u0000x",
    ]) {
      expect(safeRedirect(bad), JSON.stringify(bad)).toBe("/user-stocks");
    }
    expect(safeRedirect("/uip-stock/AAPL?tab=chart#levels")).toBe("/uip-stock/AAPL?tab=chart#levels");
  });
});

describe("messages stay readable", () => {
  it("states the password policy once, however many parts of it are broken", () => {
    expect(errorsOf(SignupSchema, { ...signup, password: "abc", confirmPassword: "abc" }).password).toEqual([
      "Password must be 8 to 128 characters and contain a letter and a digit",
    ]);
  });

  it("says the passwords differ even while other fields are still wrong", () => {
    const errors = errorsOf(SignupSchema, { ...signup, email: "bad@", password: "abc", confirmPassword: "abd" });
    expect(errors.confirmPassword).toEqual(["Passwords do not match"]);
    expect(errors.email).toEqual(["Enter a valid email address"]);
  });
});
