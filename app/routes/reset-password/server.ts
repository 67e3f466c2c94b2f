import type { Href } from "#app/lib/href.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { ResetPasswordSchema } from "#app/lib/auth-schemas.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { clientAddressContext } from "#app/server/context.server.ts";
import { callProvider, ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { readForm } from "#app/server/form-body.server.ts";

/**
 * A new password for the reset mail's token (docs/product.md#additions-screens): the provider
 * checks the token (POST /auth/reset-password); its refusal is the form's error, and the typed
 * passwords never come back in the reply.
 */
export async function resetPassword(request: Request, context: Readonly<RouterContextProvider>) {
  const submission = parseWithZod(await readForm(request), { schema: ResetPasswordSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400 });
  const address = context.get(clientAddressContext);
  try {
    await callProvider(calls.resetPassword, {
      body: { token: submission.value.token, password: submission.value.password },
      headers: address ? { "x-forwarded-for": address } : undefined,
    });
  } catch (error) {
    const text = (error instanceof ProviderError && error.status > 0 && error.detail) || messages.unexpected;
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    return data({ result: submission.reply({ formErrors: [text], hideFields }) }, { status });
  }
  return redirectWithToast("/login" satisfies Href, {
    type: "success",
    text: messages.passwordResetDone,
    autoClose: TOAST_MS.app,
  });
}
