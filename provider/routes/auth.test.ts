import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { RATE_RULES } from "#provider/auth/rate-limit.ts";
import { createProvider } from "#provider/app.ts";
import {
  TEST_PASSWORD_COST,
  testPostgresDatabase,
  testProvider,
  type TestProvider,
} from "#provider/testing/provider.ts";

let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider();
});
afterAll(() => provider.close());

describe("POST /auth/token", () => {
  it("gives a bearer token for the demo user's password", async () => {
    const res = await provider.call(calls.login, { body: { username: "demo", password: "demo1234" } });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("bearer");
    const me = await provider.call(calls.me, { token: res.body.access_token });
    expect(me.body).toMatchObject({ name: "Dana Demo", username: "demo" });
  });

  it("accepts the username in any case", async () => {
    const res = await provider.call(calls.login, { body: { username: "DEMO", password: "demo1234" } });
    expect(res.status).toBe(200);
  });

  it("answers a wrong password and an unknown user alike, so usernames cannot be probed", async () => {
    const wrong = await provider.call(calls.login, { body: { username: "demo", password: "nope12345" } });
    const unknown = await provider.call(calls.login, { body: { username: "nobody", password: "nope12345" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ detail: "Invalid credentials" });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("refuses a missing password with a readable 422", async () => {
    const res = await provider.call(calls.login, { body: { username: "demo" } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/password/i);
  });
});

describe("GET /auth/users/me", () => {
  it("needs a token", async () => {
    const res = await provider.call(calls.me);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("refuses a forged token", async () => {
    const token = await provider.login("demo", "demo1234");
    const [head, , sig] = token.split(".");
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: "2", iss: "putseller-provider" })).toString("base64url")}.${sig}`;
    const res = await provider.call(calls.me, { token: forged });
    expect(res.status).toBe(401);
  });
});

describe("GET /api/user/{userId}/permissions", () => {
  it("lists a trader's own permissions", async () => {
    const token = await provider.login("demo", "demo1234");
    const me = await provider.call(calls.me, { token });
    const res = await provider.call(calls.permissions, { token, params: { userId: me.body.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ object: "USER_STOCK", action: "DELETE" }]);
  });

  it("gives the admin every permission of docs/product.md#roles", async () => {
    const token = await provider.login("admin", "admin1234");
    const me = await provider.call(calls.me, { token });
    const res = await provider.call(calls.permissions, { token, params: { userId: me.body.id } });
    const pairs = res.body.map((p: { object: string; action: string }) => `${p.object}:${p.action}`).sort();
    expect(pairs).toEqual(
      [
        "BACKEND_CONFIG:CREATE",
        "BACKEND_CONFIG:DELETE",
        "BACKEND_CONFIG:UPDATE",
        "BACKEND_CONFIG:VIEW",
        "UIP_STOCK:CREATE",
        "UIP_STOCK:DELETE",
        "UIP_STOCK:UPDATE",
        "USER_STOCK:DELETE",
      ].sort(),
    );
  });

  it("refuses another user's permissions to a trader, with the text of docs/product.md#roles-403", async () => {
    const demo = await provider.login("demo", "demo1234");
    const admin = await provider.login("admin", "admin1234");
    const adminMe = await provider.call(calls.me, { token: admin });
    const res = await provider.call(calls.permissions, { token: demo, params: { userId: adminMe.body.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: "Not authorized to perform this action" });
  });

  it("answers a non-numeric user id with 422, not a crash", async () => {
    const token = await provider.login("demo", "demo1234");
    const res = await provider.call(calls.permissions, { token, params: { userId: "abc" } });
    expect(res.status).toBe(422);
    expect(typeof res.body.detail).toBe("string");
  });
});

describe("unknown paths and methods", () => {
  it("answers 404 and 405 with a detail", async () => {
    const res = await provider.fetch(new Request("http://x/api/nothing-here"));
    expect(res.status).toBe(404);
    const wrongMethod = await provider.fetch(new Request("http://x/auth/users/me", { method: "DELETE" }));
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toEqual({ detail: "Method Not Allowed" });
  });
});

/** A distinct client address per test, so the per-IP limits of one test never touch another. */
let ipCounter = 0;
const freshIp = () => ({ "x-forwarded-for": `198.51.100.${++ipCounter}` });

const registration = (name: string, extra: Record<string, string> = {}) => ({
  email: `${name}@example.com`,
  username: name,
  password: "s3cret-pass",
  first_name: "Pat",
  last_name: "Seller",
  ...extra,
});

async function outboxFor(address: string) {
  return provider.context.db
    .selectFrom("mail_outbox")
    .selectAll()
    .where("to_address", "=", address)
    .orderBy("id", "desc")
    .execute();
}

function resetTokenIn(body: string): string {
  const match = /\/reset-password\?token=([\w%-]+)/.exec(body);
  if (!match) throw new Error(`no reset link in: ${body}`);
  return decodeURIComponent(match[1]!);
}

describe("POST /auth/register", () => {
  it("creates a trader who can sign in at once, and keeps no password in clear", async () => {
    const res = await provider.call(calls.register, { body: registration("newtrader"), headers: freshIp() });
    expect(res.status).toBe(200);
    const token = await provider.login("newtrader", "s3cret-pass");
    const me = await provider.call(calls.me, { token });
    expect(me.body).toMatchObject({ name: "Pat Seller", username: "newtrader", email: "newtrader@example.com" });
    const perms = await provider.call(calls.permissions, { token, params: { userId: me.body.id } });
    expect(perms.body).toEqual([{ object: "USER_STOCK", action: "DELETE" }]);
    const row = await provider.context.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", me.body.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain("s3cret-pass");
  });

  it("answers 409 with a clear detail for a taken username, in any case, and for a taken email", async () => {
    await provider.call(calls.register, { body: registration("takenname"), headers: freshIp() });
    const sameName = await provider.call(calls.register, {
      body: registration("TakenName", { email: "other-address@example.com" }),
      headers: freshIp(),
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({ detail: "The username 'TakenName' is already taken" });
    const sameEmail = await provider.call(calls.register, {
      body: registration("othername", { email: "TAKENNAME@example.com" }),
      headers: freshIp(),
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ detail: "An account with this email already exists" });
  });

  it("states the password policy when a password breaks it", async () => {
    for (const password of ["short1", "lettersonly", "12345678901"]) {
      const res = await provider.call(calls.register, {
        body: registration(`weak${password.length}`, { password }),
        headers: freshIp(),
      });
      expect(res.status).toBe(422);
      expect(res.body.detail).toContain("Password must be 8 to 128 characters and contain a letter and a digit");
    }
  });

  it("refuses a malformed email and a missing name with a readable 422", async () => {
    const badEmail = await provider.call(calls.register, {
      body: registration("bademail", { email: "not-an-email" }),
      headers: freshIp(),
    });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.detail).toContain("Enter a valid email address");
    const noName = await provider.call(calls.register, {
      body: registration("noname", { first_name: " " }),
      headers: freshIp(),
    });
    expect(noName.status).toBe(422);
    expect(noName.body.detail).toContain("First name is required");
  });

  it("limits registrations per client address: the 11th in an hour gets 429 with a readable detail", async () => {
    const ip = freshIp();
    for (let i = 1; i <= 10; i++) {
      const res = await provider.call(calls.register, { body: registration(`burst${i}`), headers: ip });
      expect(res.status).toBe(200);
    }
    const over = await provider.call(calls.register, { body: registration("burst11"), headers: ip });
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatch(/^Too many registration attempts\. Please wait \d+ minutes and try again\.$/);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await provider.call(calls.register, { body: registration("burst12"), headers: freshIp() })).status).toBe(
      200,
    );
  });

  it("limits attempts on one username from many addresses", async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await provider.call(calls.register, {
        body: registration("contested", { email: `contested${i}@example.com` }),
        headers: freshIp(),
      });
      expect(res.status).toBe(i === 1 ? 200 : 409);
    }
    const over = await provider.call(calls.register, {
      body: registration("contested", { email: "contested6@example.com" }),
      headers: freshIp(),
    });
    expect(over.status).toBe(429);
  });
});

describe("sign-in rate limits", () => {
  it("stops an address after 5 failed passwords for an account, even for the right one, and says so", async () => {
    await provider.call(calls.register, { body: registration("lockme"), headers: freshIp() });
    const guesser = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await provider.call(calls.login, {
        body: { username: "lockme", password: "wrong-pass1" },
        headers: guesser,
      });
      expect(res.status).toBe(401);
    }
    const locked = await provider.call(calls.login, {
      body: { username: "LOCKME", password: "s3cret-pass" },
      headers: guesser,
    });
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toBe("Too many sign-in attempts. Please wait 15 minutes and try again.");
    // The owner, elsewhere, is not held back by that address's failures; nor are other accounts.
    expect(
      (await provider.call(calls.login, { body: { username: "lockme", password: "s3cret-pass" }, headers: freshIp() }))
        .status,
    ).toBe(200);
    expect(
      (await provider.call(calls.login, { body: { username: "demo", password: "demo1234" }, headers: freshIp() }))
        .status,
    ).toBe(200);
  });

  it("stops an address guessing an unknown username the same way, so the limit reveals nothing", async () => {
    const guesser = freshIp();
    for (let i = 0; i < 5; i++) {
      await provider.call(calls.login, {
        body: { username: "ghost-user", password: "wrong-pass1" },
        headers: guesser,
      });
    }
    const res = await provider.call(calls.login, {
      body: { username: "ghost-user", password: "wrong-pass1" },
      headers: guesser,
    });
    expect(res.status).toBe(429);
  });

  it("strangers guessing from many addresses cannot lock the owner out: a short back-off, none where the owner signed in before", async () => {
    await provider.call(calls.register, { body: registration("besieged"), headers: freshIp() });
    const home = freshIp();
    const first = await provider.call(calls.login, {
      body: { username: "besieged", password: "s3cret-pass" },
      headers: home,
    });
    expect(first.status).toBe(200);
    // 20 failed guesses from 20 addresses, then more.
    for (let i = 0; i < 22; i++) {
      await provider.call(calls.login, { body: { username: "besieged", password: "wrong-pass1" }, headers: freshIp() });
    }
    // From home, the right password still signs in.
    const owner = await provider.call(calls.login, {
      body: { username: "besieged", password: "s3cret-pass" },
      headers: home,
    });
    expect(owner.status).toBe(200);
    // From a new address: a wait of minutes (the back-off's 5-minute window), not a lock.
    const travelling = await provider.call(calls.login, {
      body: { username: "besieged", password: "s3cret-pass" },
      headers: freshIp(),
    });
    expect(travelling.status).toBe(429);
    expect(travelling.body.detail).toMatch(/Please wait (a minute|[2-5] minutes)/);
  });

  it("counts failures only, and a success clears the account's failures", async () => {
    await provider.call(calls.register, { body: registration("forgetful"), headers: freshIp() });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) {
        await provider.call(calls.login, {
          body: { username: "forgetful", password: "wrong-pass1" },
          headers: freshIp(),
        });
      }
      const ok = await provider.call(calls.login, {
        body: { username: "forgetful", password: "s3cret-pass" },
        headers: freshIp(),
      });
      expect(ok.status).toBe(200);
    }
  });

  it("limits failures per client address across many usernames: 30 in 15 minutes", async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) {
      const res = await provider.call(calls.login, {
        body: { username: `spray${i}`, password: "wrong-pass1" },
        headers: ip,
      });
      expect(res.status).toBe(401);
    }
    const res = await provider.call(calls.login, { body: { username: "demo", password: "demo1234" }, headers: ip });
    expect(res.status).toBe(429);
    expect(res.body.detail).toMatch(/Too many sign-in attempts/);
  });
});

describe("sign-in limits under concurrency (ADR 0071)", () => {
  /** The answers' statuses, counted: a 401 or a 200 is a password that was checked. */
  const tally = (statuses: number[]) => ({
    checked: statuses.filter((s) => s === 401 || s === 200).length,
    refused: statuses.filter((s) => s === 429).length,
    signedIn: statuses.filter((s) => s === 200).length,
  });

  it("30 attempts at once from one address (29 wrong, the right one last) check at most 5 passwords", async () => {
    await provider.call(calls.register, { body: registration("rushed"), headers: freshIp() });
    const guesser = freshIp();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        provider
          .call(calls.login, {
            body: { username: "rushed", password: i === 29 ? "s3cret-pass" : `wrong-pass${i}` },
            headers: guesser,
          })
          .then((res) => res.status),
      ),
    );
    const { checked, refused, signedIn } = tally(statuses);
    expect(checked).toBeLessThanOrEqual(RATE_RULES.loginAccountIp.limit);
    expect(refused).toBe(30 - checked);
    // The right password came after five wrong ones had taken the address's slots.
    expect(signedIn).toBe(0);
    // The limit stays: the next try from that address, right or wrong, is refused unchecked.
    const after = await provider.call(calls.login, {
      body: { username: "rushed", password: "s3cret-pass" },
      headers: guesser,
    });
    expect(after.status).toBe(429);
  });

  it("100 attempts at once over 10 addresses check at most the account-wide 20", async () => {
    await provider.call(calls.register, { body: registration("swarmed"), headers: freshIp() });
    const addresses = Array.from({ length: 10 }, freshIp);
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        provider
          .call(calls.login, {
            body: { username: "swarmed", password: i === 99 ? "s3cret-pass" : `wrong-pass${i}` },
            headers: addresses[i % 10],
          })
          .then((res) => res.status),
      ),
    );
    const { checked, refused } = tally(statuses);
    expect(checked).toBeLessThanOrEqual(RATE_RULES.loginAccount.limit);
    expect(checked).toBeGreaterThan(0);
    expect(refused).toBe(100 - checked);
  });

  it.runIf(process.env.TEST_DATABASE === "postgres")(
    "holds across two provider processes on one PostgreSQL database: 30 at once over both check at most 5",
    async () => {
      const database = await testPostgresDatabase();
      const options = {
        passwordCost: TEST_PASSWORD_COST,
        secrets: ["test-secret-test-secret-test-secret!"],
        jobs: false,
        databaseUrl: database.url,
      };
      const first = await createProvider({ ...options, seedDemo: true });
      const second = await createProvider({ ...options, seedDemo: false });
      try {
        const attempt = (target: typeof first, i: number) =>
          target
            .fetch(
              new Request(`http://provider.test${calls.login.path}`, {
                method: "POST",
                headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.77" },
                body: new URLSearchParams({ username: "demo", password: `wrong-pass${i}` }),
              }),
            )
            .then((res) => res.status);
        const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt(i % 2 ? first : second, i)));
        expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(RATE_RULES.loginAccountIp.limit);
        expect(statuses.filter((s) => s === 401 || s === 429)).toHaveLength(30);
      } finally {
        await first.close();
        await second.close();
        await database.drop();
      }
    },
  );

  it("a success gives its slots back: batches of sign-ins at once, more in all than any limit, all succeed", async () => {
    await provider.call(calls.register, { body: registration("eager"), headers: freshIp() });
    const home = freshIp();
    // Seven batches of five: 35 attempts, over the address's 30 if a success kept its slot.
    for (let batch = 0; batch < 7; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: RATE_RULES.loginAccountIp.limit }, () =>
          provider
            .call(calls.login, { body: { username: "eager", password: "s3cret-pass" }, headers: home })
            .then((res) => res.status),
        ),
      );
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
    }
  });
});

describe("POST /auth/forgot-password and POST /auth/reset-password", () => {
  it("answers a known and an unknown email identically, and mails a link only to the known one", async () => {
    await provider.call(calls.register, { body: registration("resetme"), headers: freshIp() });
    const known = await provider.call(calls.forgotPassword, {
      body: { email: "ResetMe@Example.com" },
      headers: freshIp(),
    });
    const unknown = await provider.call(calls.forgotPassword, {
      body: { email: "nobody-here@example.com" },
      headers: freshIp(),
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(await outboxFor("nobody-here@example.com")).toHaveLength(0);
    const [mail] = await outboxFor("resetme@example.com");
    expect(mail!.subject).toBe("Reset your PutSeller password");
    expect(mail!.body_text).toContain("http://localhost:3000/reset-password?token=");
    expect(mail!.body_text).toContain("within one hour");
  });

  it("resets the password with the mailed link, once", async () => {
    await provider.call(calls.register, { body: registration("onceonly"), headers: freshIp() });
    await provider.call(calls.forgotPassword, { body: { email: "onceonly@example.com" }, headers: freshIp() });
    const token = resetTokenIn((await outboxFor("onceonly@example.com"))[0]!.body_text);
    // The database keeps only a hash of the token.
    const stored = await provider.context.db.selectFrom("password_resets").select("token_hash").execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);

    const res = await provider.call(calls.resetPassword, {
      body: { token, password: "brand-new-pass9" },
      headers: freshIp(),
    });
    expect(res.status).toBe(200);
    expect((await provider.call(calls.login, { body: { username: "onceonly", password: "s3cret-pass" } })).status).toBe(
      401,
    );
    expect(
      (await provider.call(calls.login, { body: { username: "onceonly", password: "brand-new-pass9" } })).status,
    ).toBe(200);

    const again = await provider.call(calls.resetPassword, {
      body: { token, password: "another-pass9" },
      headers: freshIp(),
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      detail: "This password reset link is invalid or has expired. Please ask for a new one.",
    });
  });

  it("ends the sessions signed in before the reset; a sign-in with the new password works", async () => {
    await provider.call(calls.register, { body: registration("stolenphone"), headers: freshIp() });
    const before = await provider.login("stolenphone", "s3cret-pass");
    expect((await provider.call(calls.me, { token: before })).status).toBe(200);
    // Tokens carry whole seconds: the reset happens in a later second than the old sign-in.
    await new Promise((resolve) => setTimeout(resolve, 1_010 - (Date.now() % 1_000)));
    await provider.call(calls.forgotPassword, { body: { email: "stolenphone@example.com" }, headers: freshIp() });
    const token = resetTokenIn((await outboxFor("stolenphone@example.com"))[0]!.body_text);
    const reset = await provider.call(calls.resetPassword, {
      body: { token, password: "brand-new-pass9" },
      headers: freshIp(),
    });
    expect(reset.status).toBe(200);

    const old = await provider.call(calls.me, { token: before });
    expect(old.status).toBe(401);
    expect(old.body.detail).toEqual(expect.any(String));
    const after = await provider.login("stolenphone", "brand-new-pass9");
    expect((await provider.call(calls.me, { token: after })).status).toBe(200);
  });

  it("refuses an expired link and an unknown one", async () => {
    await provider.call(calls.register, { body: registration("toolate"), headers: freshIp() });
    await provider.call(calls.forgotPassword, { body: { email: "toolate@example.com" }, headers: freshIp() });
    const token = resetTokenIn((await outboxFor("toolate@example.com"))[0]!.body_text);
    const user = await provider.context.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", "toolate")
      .executeTakeFirstOrThrow();
    // One hour and a second later:
    await provider.context.db
      .updateTable("password_resets")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", user.id)
      .execute();
    const expired = await provider.call(calls.resetPassword, {
      body: { token, password: "brand-new-pass9" },
      headers: freshIp(),
    });
    expect(expired.status).toBe(400);
    const unknown = await provider.call(calls.resetPassword, {
      body: { token: "made-up-token", password: "brand-new-pass9" },
      headers: freshIp(),
    });
    expect(unknown.status).toBe(400);
  });

  it("sets the expiry one hour ahead", async () => {
    await provider.call(calls.register, { body: registration("hourlong"), headers: freshIp() });
    const before = Date.now();
    await provider.call(calls.forgotPassword, { body: { email: "hourlong@example.com" }, headers: freshIp() });
    const user = await provider.context.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", "hourlong")
      .executeTakeFirstOrThrow();
    const row = await provider.context.db
      .selectFrom("password_resets")
      .select("expires_at")
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    const ms = new Date(row.expires_at).getTime() - before;
    expect(ms).toBeGreaterThan(3590_000);
    expect(ms).toBeLessThan(3660_000);
  });

  it("retires older links when one is used, and clears the sign-in lock", async () => {
    await provider.call(calls.register, { body: registration("twolinks"), headers: freshIp() });
    await provider.call(calls.forgotPassword, { body: { email: "twolinks@example.com" }, headers: freshIp() });
    await provider.call(calls.forgotPassword, { body: { email: "twolinks@example.com" }, headers: freshIp() });
    const [newer, older] = (await outboxFor("twolinks@example.com")).map((m) => resetTokenIn(m.body_text));
    for (let i = 0; i < 5; i++) {
      await provider.call(calls.login, { body: { username: "twolinks", password: "wrong-pass1" }, headers: freshIp() });
    }
    expect(
      (
        await provider.call(calls.resetPassword, {
          body: { token: newer!, password: "brand-new-pass9" },
          headers: freshIp(),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await provider.call(calls.resetPassword, {
          body: { token: older!, password: "other-pass9" },
          headers: freshIp(),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await provider.call(calls.login, {
          body: { username: "twolinks", password: "brand-new-pass9" },
          headers: freshIp(),
        })
      ).status,
    ).toBe(200);
  });

  it("applies the password policy to the new password", async () => {
    const res = await provider.call(calls.resetPassword, {
      body: { token: "whatever", password: "short" },
      headers: freshIp(),
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("Password must be 8 to 128 characters and contain a letter and a digit");
  });

  it("limits reset requests per email (3 an hour) whether or not the email has an account", async () => {
    await provider.call(calls.register, { body: registration("oftenforgets"), headers: freshIp() });
    for (const email of ["oftenforgets@example.com", "unknown-spam@example.com"]) {
      for (let i = 0; i < 3; i++) {
        expect((await provider.call(calls.forgotPassword, { body: { email }, headers: freshIp() })).status).toBe(200);
      }
      const over = await provider.call(calls.forgotPassword, { body: { email }, headers: freshIp() });
      expect(over.status).toBe(429);
      expect(over.body.detail).toBe("Too many password reset requests. Please wait 60 minutes and try again.");
    }
  });

  it("limits guesses of reset tokens per client address", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const res = await provider.call(calls.resetPassword, {
        body: { token: `guess-${i}`, password: "brand-new-pass9" },
        headers: ip,
      });
      expect(res.status).toBe(400);
    }
    const over = await provider.call(calls.resetPassword, {
      body: { token: "guess-x", password: "brand-new-pass9" },
      headers: ip,
    });
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatch(/^Too many password reset attempts\./);
  });
});

describe("POST /auth/google-login without Firebase", () => {
  it("says plainly that Google sign-in is not configured", async () => {
    const res = await provider.call(calls.googleLogin, { body: { firebase_token: "anything" }, headers: freshIp() });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: "Google sign-in is not configured on this server" });
  });
});

describe("GET /api/admin/mail-outbox", () => {
  it("shows admins the waiting mail, newest first, filtered by recipient", async () => {
    await provider.call(calls.register, { body: registration("outboxreader"), headers: freshIp() });
    await provider.call(calls.forgotPassword, { body: { email: "outboxreader@example.com" }, headers: freshIp() });
    const admin = await provider.login("admin", "admin1234");
    const res = await provider.call(calls.mailOutbox, { token: admin, query: { to: "OutboxReader@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      to_address: "outboxreader@example.com",
      subject: "Reset your PutSeller password",
      sent_at: null,
    });
    expect(calls.mailOutbox.response.safeParse(res.body).success).toBe(true);
  });

  it("is refused to traders and to anonymous callers", async () => {
    const demo = await provider.login("demo", "demo1234");
    expect((await provider.call(calls.mailOutbox, { token: demo })).status).toBe(403);
    expect((await provider.call(calls.mailOutbox)).status).toBe(401);
  });
});
