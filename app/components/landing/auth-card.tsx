import { getInputProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from "react";
import { Form, Link, useFetcher, useNavigation } from "react-router";
import { toast } from "#app/lib/toast.ts";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { authModeHref, PASSWORD_HINT, PRODUCT_NAME, type AuthMode } from "#app/lib/auth-modes.ts";
import { FORGOT_FORM, LOGIN_FORM, SIGNUP_FORM } from "#app/lib/form-schemas.ts";
import { useSchemaForm } from "#app/hooks/use-schema-form.ts";
import type { GoogleWebConfig } from "#app/lib/google-web-config.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { AppleLogo, BackIcon, GoogleLogo } from "#app/components/signed-out-icons.tsx";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { LOGIN_INTENT, type LoginIntent } from "#app/lib/login-intents.ts";
import { NEEDS_SCRIPTS } from "#app/lib/page-scripts.ts";

/** What the /login action answers when it does not redirect. */
export type AuthActionData =
  | { intent: Extract<LoginIntent, "login" | "signup" | "forgot">; result: SubmissionResult<string[]> }
  | { intent: Extract<LoginIntent, "google">; error: string; display: "card" | "toast" };

const TITLES: Record<AuthMode, string> = {
  login: "Welcome Back",
  signup: `Join ${PRODUCT_NAME}`,
  forgot: "Reset Password",
};
const SUBTITLES: Record<AuthMode, string> = {
  login: "Sign in to your watchlist and today's put ideas.",
  signup: "Create your free account in under a minute.",
  forgot: "Enter your account's email and we'll send you a link to choose a new password.",
};

/**
 * The one card of /login with its three modes (docs/product.md#screens-login). The mode lives in the URL, so each
 * mode can be linked and every form works without JavaScript.
 */
export function AuthCard({
  mode,
  google,
  redirectTo,
  actionData,
  cardRef,
}: {
  mode: AuthMode;
  google: GoogleWebConfig | null;
  redirectTo: string;
  actionData: AuthActionData | undefined;
  cardRef?: RefObject<HTMLElement | null>;
}) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  const previousMode = useRef(mode);
  useEffect(() => {
    // After switching modes, tell assistive technology where it is now.
    if (previousMode.current !== mode) titleRef.current?.focus({ preventScroll: true });
    previousMode.current = mode;
  }, [mode]);
  const result = (intent: AuthActionData["intent"]) =>
    actionData?.intent === intent && "result" in actionData ? actionData.result : undefined;

  return (
    <section id="auth" ref={cardRef} className="auth-card landing-auth" aria-labelledby="auth-title">
      {mode !== "login" ? (
        <Link to={authModeHref("login")} className="auth-card__back">
          <BackIcon width={18} height={18} />
          Back to Login
        </Link>
      ) : null}
      <h2 id="auth-title" ref={titleRef} tabIndex={-1} className="auth-card__title">
        {TITLES[mode]}
      </h2>
      <p className="auth-card__subtitle">{SUBTITLES[mode]}</p>

      {mode === "login" ? (
        <>
          <LoginForm key="login" redirectTo={redirectTo} lastResult={result("login")} />
          <div className="auth-card__divider" role="separator">
            <span>or</span>
          </div>
          <GoogleButton config={google} redirectTo={redirectTo} actionData={actionData} />
          <AppleButton />
          <p className="auth-card__links">
            <Link to={authModeHref("forgot")}>Forgot Password?</Link>
            <Link to={authModeHref("signup")}>Create Account</Link>
          </p>
        </>
      ) : mode === "signup" ? (
        <>
          <SignupForm key="signup" lastResult={result("signup")} />
          <p className="auth-card__links auth-card__links--center">
            <span>Already have an account?</span> <Link to={authModeHref("login")}>Sign In</Link>
          </p>
        </>
      ) : (
        <ForgotForm key="forgot" lastResult={result("forgot")} />
      )}
    </section>
  );
}

/** True while this card's form with the given intent is being submitted. */
function useSubmitting(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function LoginForm({
  redirectTo,
  lastResult,
}: {
  redirectTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { form, fields, formProps } = useSchemaForm({
    id: "login",
    schema: LOGIN_FORM,
    lastResult,
    shouldRevalidate: "onInput",
  });
  const busy = useSubmitting("login");
  return (
    <Form method="post" {...formProps} className="auth-form">
      <input type="hidden" name="intent" value={LOGIN_INTENT.login} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field
        labelProps={{ children: "Username" }}
        inputProps={{
          ...getInputProps(fields.username, { type: "text" }),
          autoComplete: "username",
          autoCapitalize: "none",
          spellCheck: false,
        }}
        errors={fields.username.errors}
      />
      <PasswordField label="Password" field={fields.password} autoComplete="current-password" />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? "Signing in…" : "Sign In"}
      </button>
    </Form>
  );
}

function SignupForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { form, fields, formProps } = useSchemaForm({
    id: "signup",
    schema: SIGNUP_FORM,
    lastResult,
    shouldRevalidate: "onInput",
  });
  const busy = useSubmitting("signup");
  return (
    <Form method="post" {...formProps} className="auth-form">
      <input type="hidden" name="intent" value={LOGIN_INTENT.signup} />
      <div className="auth-form__row">
        <Field
          labelProps={{ children: "First Name" }}
          inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
          errors={fields.firstName.errors}
        />
        <Field
          labelProps={{ children: "Last Name" }}
          inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
          errors={fields.lastName.errors}
        />
      </div>
      <Field
        labelProps={{ children: "Email" }}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", spellCheck: false }}
        errors={fields.email.errors}
      />
      <Field
        labelProps={{ children: "Username" }}
        inputProps={{
          ...getInputProps(fields.username, { type: "text" }),
          autoComplete: "username",
          autoCapitalize: "none",
          spellCheck: false,
        }}
        errors={fields.username.errors}
      />
      <PasswordField label="Password" field={fields.password} autoComplete="new-password" hint={PASSWORD_HINT} />
      <PasswordField label="Confirm Password" field={fields.confirmPassword} autoComplete="new-password" />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? "Creating account…" : "Create Account"}
      </button>
    </Form>
  );
}

function ForgotForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { form, fields, formProps } = useSchemaForm({
    id: "forgot",
    schema: FORGOT_FORM,
    lastResult,
    shouldRevalidate: "onInput",
  });
  const busy = useSubmitting("forgot");
  return (
    <Form method="post" {...formProps} className="auth-form">
      <input type="hidden" name="intent" value={LOGIN_INTENT.forgot} />
      <Field
        labelProps={{ children: "Email" }}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", spellCheck: false }}
        errors={fields.email.errors}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? "Sending…" : "Send Reset Link"}
      </button>
    </Form>
  );
}

/**
 * A password input with a show/hide button (docs/product.md#screens-login). The button needs JavaScript, so it
 * appears once the page is hydrated; its place is kept so nothing moves when it does.
 */
export function PasswordField({
  label,
  field,
  autoComplete,
  hint,
}: {
  label: string;
  field: FieldMetadata<string>;
  autoComplete: string;
  hint?: string;
}) {
  const [visible, setVisible] = useState(false);
  const hydrated = useHydrated();
  const inputProps = getInputProps(field, { type: "password" });
  return (
    <Field
      labelProps={{ children: label }}
      inputProps={{
        ...inputProps,
        type: visible ? "text" : "password",
        autoComplete,
        autoCapitalize: "none",
        spellCheck: false,
      }}
      errors={field.errors}
      hint={hint}
      trailing={
        <span className="password-toggle">
          {hydrated ? (
            <button
              type="button"
              className="password-toggle__button"
              aria-controls={inputProps.id}
              aria-pressed={visible}
              title={visible ? "Hide the password" : "Show the password"}
              onClick={() => setVisible((v) => !v)}
            >
              {visible ? "Hide" : "Show"}
            </button>
          ) : null}
        </span>
      }
    />
  );
}

/**
 * 'Continue with Google' (docs/product.md#screens-login, #states-auth): Firebase's popup, then the ID token goes to our
 * action, which exchanges it with the provider and starts the session. Firebase is imported
 * when the button is pressed (or pointed at), never with the page.
 */
function GoogleButton({
  config,
  redirectTo,
  actionData,
}: {
  config: GoogleWebConfig | null;
  redirectTo: string;
  actionData: AuthActionData | undefined;
}) {
  const fetcher = useFetcher<AuthActionData>();
  const [opening, setOpening] = useState(false);
  const noteId = useId();
  const reply = fetcher.data ?? (actionData?.intent === "google" ? actionData : undefined);
  const googleReply = reply?.intent === "google" ? reply : undefined;

  useEffect(() => {
    if (fetcher.data?.intent === "google" && fetcher.data.display === "toast") {
      toast.error(fetcher.data.error, { autoClose: TOAST_MS.app });
    }
  }, [fetcher.data]);

  if (!config) {
    return (
      <div className="social-sign-in">
        <button type="button" className="button social-button" disabled aria-describedby={noteId}>
          <GoogleLogo />
          Continue with Google
        </button>
        <p id={noteId} className="social-sign-in__note">
          {messages.googleNotConfigured}
        </p>
      </div>
    );
  }

  const preload = () => void loadGoogleSignIn();
  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!config) return;
    setOpening(true);
    let module: GoogleSignInModule | undefined;
    try {
      module = await loadGoogleSignIn();
      const token = await module.googleIdToken(config);
      await fetcher.submit({ intent: LOGIN_INTENT.google, firebase_token: token, redirectTo }, { method: "post" });
    } catch (error) {
      if (!(module && error instanceof module.GoogleSignInCancelled)) {
        console.error("Google sign-in failed:", error);
        toast.error(messages.googleFailed, { autoClose: TOAST_MS.app });
      }
    } finally {
      setOpening(false);
    }
  }
  const busy = opening || fetcher.state !== "idle";

  return (
    <div className="social-sign-in">
      {/* Pressed before the scripts have run, it waits for them (ADR 0061): its post without them can only say they are needed. */}
      <Form method="post" onSubmit={signIn} {...{ [NEEDS_SCRIPTS]: "" }}>
        <input type="hidden" name="intent" value={LOGIN_INTENT.google} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <button
          type="submit"
          className="button social-button"
          disabled={busy}
          aria-busy={busy || undefined}
          onPointerEnter={preload}
          onFocus={preload}
        >
          <GoogleLogo />
          Continue with Google
        </button>
      </Form>
      {googleReply?.display === "card" ? (
        <p className="error-list social-sign-in__error" role="alert">
          {googleReply.error}
        </p>
      ) : null}
    </div>
  );
}

type GoogleSignInModule = Awaited<ReturnType<typeof loadGoogleSignIn>>;
const loadGoogleSignIn = () => import("#app/lib/google-sign-in.client.ts");

/** 'Continue with Apple' only says it is coming (docs/product.md#screens-login); without JavaScript the server sends the same toast. */
function AppleButton() {
  return (
    <Form
      method="post"
      className="social-sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        toast.info(messages.appleComingSoon, { autoClose: TOAST_MS.app });
      }}
    >
      <input type="hidden" name="intent" value={LOGIN_INTENT.apple} />
      <button type="submit" className="button social-button">
        <AppleLogo />
        Continue with Apple
      </button>
    </Form>
  );
}
