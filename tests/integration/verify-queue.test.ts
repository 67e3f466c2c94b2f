import { describe, expect, it } from "vitest";
import { queuedVerify } from "../../server/verify-queue.ts";

/**
 * The relay's session checks (ADR 0070): a few provider calls at a time, in arrival order with the
 * urgent ones first, and a check not yet sent answers every ask for its token. The provider here is a hand-driven one: each
 * call waits until the test answers it.
 */
function handProvider() {
  const calls: { token: string; answer(accepted: boolean): void; fail(error: Error): void }[] = [];
  const verify = (token: string) =>
    new Promise<boolean>((resolve, reject) => calls.push({ token, answer: resolve, fail: reject }));
  return { calls, verify };
}
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("queuedVerify", () => {
  it("sends at most `concurrency` checks at once, the others in the order they were asked", async () => {
    const provider = handProvider();
    const verify = queuedVerify(provider.verify, { concurrency: 2 });
    const answers = ["a", "b", "c", "d"].map((token) => verify(token));
    await settled();
    expect(provider.calls.map((c) => c.token)).toEqual(["a", "b"]);

    provider.calls[1]!.answer(false);
    await settled();
    expect(provider.calls.map((c) => c.token)).toEqual(["a", "b", "c"]);
    provider.calls[0]!.answer(true);
    await settled();
    expect(provider.calls.map((c) => c.token)).toEqual(["a", "b", "c", "d"]);
    provider.calls[2]!.answer(true);
    provider.calls[3]!.answer(false);
    expect(await Promise.all(answers)).toEqual([true, false, true, false]);
  });

  it("answers every ask for a token from its waiting check, but asks again once that check was sent", async () => {
    const provider = handProvider();
    const verify = queuedVerify(provider.verify, { concurrency: 1 });
    const first = verify("busy");
    const waiting = [verify("x"), verify("x"), verify("x")];
    await settled();
    expect(provider.calls.map((c) => c.token)).toEqual(["busy"]);

    provider.calls[0]!.answer(true);
    await first;
    await settled();
    // The three asks for "x" came before its check was sent: one call answers them all.
    expect(provider.calls.map((c) => c.token)).toEqual(["busy", "x"]);
    // Asked while that call is out (a sign-out may have happened since it left): a call of its own.
    const later = verify("x");
    provider.calls[1]!.answer(true);
    expect(await Promise.all(waiting)).toEqual([true, true, true]);
    await settled();
    expect(provider.calls.map((c) => c.token)).toEqual(["busy", "x", "x"]);
    provider.calls[2]!.answer(false);
    expect(await later).toBe(false);
  });

  it("sends an urgent check (a browser waiting for its socket) before the rechecks already waiting", async () => {
    const provider = handProvider();
    const verify = queuedVerify(provider.verify, { concurrency: 1 });
    const busy = verify("busy");
    const rechecks = ["a", "b", "c"].map((token) => verify(token));
    const upgrade = verify("new", { urgent: true });
    // An upgrade of a session whose recheck is waiting takes that check ahead, and shares it.
    const sameSession = verify("c", { urgent: true });
    await settled();
    for (const answer of [true, true, false, true, true]) {
      provider.calls.at(-1)!.answer(answer);
      await settled();
    }
    expect(provider.calls.map((c) => c.token)).toEqual(["busy", "new", "c", "a", "b"]);
    expect(await Promise.all([busy, upgrade, sameSession, rechecks[2], rechecks[0], rechecks[1]])).toEqual([
      true,
      true,
      false,
      false,
      true,
      true,
    ]);
  });

  it("passes a failed check's error to its askers and sends the next one", async () => {
    const provider = handProvider();
    const verify = queuedVerify(provider.verify, { concurrency: 1 });
    const failing = verify("a");
    const next = verify("b");
    await settled();
    provider.calls[0]!.fail(new Error("provider unreachable"));
    await expect(failing).rejects.toThrow("provider unreachable");
    await settled();
    expect(provider.calls.map((c) => c.token)).toEqual(["a", "b"]);
    provider.calls[1]!.answer(true);
    expect(await next).toBe(true);
  });
});
