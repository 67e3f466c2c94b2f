import type { Href } from "#app/lib/href.ts";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/route";
import { ErrorList } from "#app/components/forms.tsx";
import { PasswordField } from "#app/components/landing/auth-card.tsx";
import { BackIcon, LogoMark } from "#app/components/signed-out-icons.tsx";
import { useSchemaForm } from "#app/hooks/use-schema-form.ts";
import { authModeHref, PASSWORD_HINT } from "#app/lib/auth-modes.ts";
import { RESET_PASSWORD_FORM } from "#app/lib/form-schemas.ts";
import { messages } from "#app/lib/messages.ts";
import { resetPassword } from "./server.ts";

/**
 * An addition (docs/product.md#additions-screens): the page the reset mail links to (`/reset-password?token=…`). The token
 * works once, within an hour; the provider decides (POST /auth/reset-password).
 */

/** The token is in the URL: never send it to another site as a Referer, and never keep the page in a cache. */
export const headers: Route.HeadersFunction = () => ({
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
});

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export function action({ request, context }: Route.ActionArgs) {
  return resetPassword(request, context);
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { form, fields, formProps } = useSchemaForm({
    id: "reset-password",
    schema: RESET_PASSWORD_FORM,
    lastResult: actionData?.result,
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state === "submitting";

  return (
    <div className="landing landing--narrow">
      <header className="landing-nav">
        <a href={"/login" satisfies Href} className="landing-nav__brand">
          <LogoMark />
          PutSeller
        </a>
      </header>
      <main className="auth-page">
        <section className="auth-card landing-auth" aria-labelledby="reset-title">
          <Link to={authModeHref("login")} className="auth-card__back">
            <BackIcon width={18} height={18} />
            Back to Login
          </Link>
          <h1 id="reset-title" className="auth-card__title">
            Choose a New Password
          </h1>
          {token ? (
            <>
              <p className="auth-card__subtitle">The link in your email works once, for one hour.</p>
              <Form method="post" {...formProps} className="auth-form">
                <input type="hidden" name="token" value={token} />
                <PasswordField
                  label="New Password"
                  field={fields.password}
                  autoComplete="new-password"
                  hint={PASSWORD_HINT}
                />
                <PasswordField label="Confirm Password" field={fields.confirmPassword} autoComplete="new-password" />
                <ErrorList id={form.errorId} errors={form.errors} />
                <button type="submit" className="button button--primary" disabled={busy}>
                  {busy ? "Saving…" : "Change Password"}
                </button>
              </Form>
              {form.errors?.length ? (
                <p className="auth-card__links auth-card__links--center">
                  <Link to={authModeHref("forgot")}>Ask for a new link</Link>
                </p>
              ) : null}
            </>
          ) : (
            <>
              <p className="error-list" role="alert">
                {messages.resetLinkIncomplete}
              </p>
              <p className="auth-card__links auth-card__links--center">
                <Link to={authModeHref("forgot")}>Ask for a new link</Link>
              </p>
            </>
          )}
        </section>
      </main>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Choose a new password · PutSeller" },
  { name: "referrer", content: "same-origin" },
];
