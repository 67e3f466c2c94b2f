import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import {
  data,
  redirect,
  redirectDocument,
  useActionData,
  useLoaderData,
  useNavigate,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "react-router";
import type { Route } from "./+types/login";
import * as calls from "#contract/calls.ts";
import { AuthCard, type AuthActionData } from "#app/components/landing/auth-card.tsx";
import { DemoModal } from "#app/components/landing/demo-modal.tsx";
import { LogoMark, PlayIcon } from "#app/components/landing/landing-icons.tsx";
import {
  Features,
  LandingFooter,
  Stats,
  Testimonials,
  TrustBadges,
} from "#app/components/landing/landing-sections.tsx";
import {
  authModeHref,
  authModeOf,
  ForgotSchema,
  LoginSchema,
  safeRedirect,
  SignupSchema,
} from "#app/lib/auth-schemas.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { loadSessionUser } from "#app/server/auth.server.ts";
import { clientAddressContext } from "#app/server/context.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import { googleWebConfig } from "#app/server/firebase.server.ts";
import { callProvider, ProviderError } from "#app/server/provider.server.ts";
import { commitNewSession, readSession } from "#app/server/session.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { loadLandingStats } from "#app/server/track-record.server.ts";

export async function loader({ request }: Route.LoaderArgs) {
  if (await readSession(request)) throw redirect("/user-stocks");
  return { google: googleWebConfig(appEnv()), stats: await loadLandingStats() };
}

/** Switching modes or opening the demo needs no new data from this route. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => (formMethod || currentUrl.pathname !== nextUrl.pathname ? defaultShouldRevalidate : false);

/** One action for the card's forms, told apart by `intent` (login, signup, forgot, google, apple). */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  // The provider limits attempts per client address; it learns the browser's address from us.
  const address = context.get(clientAddressContext);
  const headers = address ? { "x-forwarded-for": address } : undefined;

  switch (formData.get("intent")) {
    case "signup":
      return signup(formData, headers);
    case "forgot":
      return forgot(formData, headers);
    case "google":
      return googleSignIn(formData, headers);
    case "apple": {
      // Without JavaScript the Apple button lands here; with it, the page shows the toast itself.
      const back = new URL(request.url);
      return redirectWithToast(`${back.pathname}${back.search}`, {
        type: "info",
        text: messages.appleComingSoon,
        autoClose: TOAST_MS.app,
      });
    }
    default:
      return login(formData, headers);
  }
}

async function login(formData: FormData, headers: Record<string, string> | undefined) {
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") {
    return data(reply("login", submission.reply({ hideFields: ["password"] })), { status: 400 });
  }
  const { username, password, redirectTo } = submission.value;
  try {
    const { access_token } = await callProvider(calls.login, { body: { username, password }, headers });
    if (!access_token)
      return data(reply("login", submission.reply({ formErrors: [messages.noToken] })), { status: 502 });
    return await startSession(access_token, redirectTo);
  } catch (error) {
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    return data(reply("login", submission.reply({ formErrors: [loginErrorText(error)] })), { status });
  }
}

/** docs/product.md#errors-login: 404 'User not found', 401 'Invalid credentials', a rate limit's own text, else the generic one. */
function loginErrorText(error: unknown): string {
  if (!(error instanceof ProviderError)) return messages.unexpected;
  if (error.status === 404) return messages.userNotFound;
  if (error.status === 401) return messages.invalidCredentials;
  if (error.status === 429 && error.detail) return error.detail;
  if (error.status === 0) return messages.network;
  return messages.unexpected;
}

async function signup(formData: FormData, headers: Record<string, string> | undefined) {
  const submission = parseWithZod(formData, { schema: SignupSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return data(reply("signup", submission.reply({ hideFields })), { status: 400 });
  const { email, username, password, firstName, lastName } = submission.value;
  try {
    await callProvider(calls.register, {
      body: { email, username, password, first_name: firstName, last_name: lastName },
      headers,
    });
  } catch (error) {
    // docs/product.md#errors-registration: the server's detail, else 'Registration failed'; a non-HTTP failure is 'unexpected'.
    const text =
      error instanceof ProviderError && error.status > 0
        ? (error.detail ?? messages.registrationFailed)
        : messages.unexpected;
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    return data(reply("signup", submission.reply({ formErrors: [text], hideFields })), { status });
  }
  // docs/product.md#states-auth: back to login with a success toast.
  return redirectWithToast("/login", { type: "success", text: messages.accountCreated, autoClose: TOAST_MS.app });
}

async function forgot(formData: FormData, headers: Record<string, string> | undefined) {
  const submission = parseWithZod(formData, { schema: ForgotSchema });
  if (submission.status !== "success") return data(reply("forgot", submission.reply()), { status: 400 });
  try {
    await callProvider(calls.forgotPassword, { body: { email: submission.value.email }, headers });
  } catch (error) {
    // docs/product.md#errors-registration: the detail, else 'Failed to send reset email'.
    const text = (error instanceof ProviderError && error.status > 0 && error.detail) || messages.resetEmailFailed;
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    return data(reply("forgot", submission.reply({ formErrors: [text] })), { status });
  }
  return redirectWithToast("/login", { type: "success", text: messages.resetSent, autoClose: TOAST_MS.app });
}

async function googleSignIn(formData: FormData, headers: Record<string, string> | undefined) {
  const token = formData.get("firebase_token");
  const redirectTo = formData.get("redirectTo");
  if (typeof token !== "string" || !token) {
    // The button posts here without a token only when JavaScript is off.
    return data(googleReply(messages.googleNeedsJavaScript, "card"), { status: 400 });
  }
  try {
    const { access_token } = await callProvider(calls.googleLogin, { body: { firebase_token: token }, headers });
    if (!access_token) return data(googleReply(messages.googleFailed, "toast"), { status: 502 });
    return await startSession(access_token, typeof redirectTo === "string" ? redirectTo : undefined);
  } catch (error) {
    if (error instanceof ProviderError && error.status === 429 && error.detail) {
      return data(googleReply(error.detail, "card"), { status: 429 });
    }
    console.error("[login] Google sign-in was refused:", error instanceof Error ? error.message : error);
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    return data(googleReply(messages.googleFailed, "toast"), { status });
  }
}

/** docs/product.md#states-auth: a successful sign-in keeps the token in the session and lands by a full page load. */
async function startSession(token: string, redirectTo: string | undefined) {
  const user = await loadSessionUser(token);
  return redirectDocument(safeRedirect(redirectTo), { headers: { "set-cookie": await commitNewSession(token, user) } });
}

function reply(intent: "login" | "signup" | "forgot", result: SubmissionResult<string[]>): AuthActionData {
  return { intent, result };
}

function googleReply(error: string, display: "card" | "toast"): AuthActionData {
  return { intent: "google", error, display };
}

export default function Login() {
  const { google, stats } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const mode = authModeOf(searchParams.get("mode"));
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const cardRef = useRef<HTMLElement>(null);
  const demoButtonRef = useRef<HTMLAnchorElement>(null);
  const [demoOpen, setDemoOpen] = useState(searchParams.has("demo"));
  const withoutDemo = new URLSearchParams(searchParams);
  withoutDemo.delete("demo");
  const withDemo = new URLSearchParams(withoutDemo);
  withDemo.set("demo", "1");

  const focusUsername = useRef(false);
  useEffect(() => {
    if (mode !== "login" || !focusUsername.current) return;
    focusUsername.current = false;
    cardRef.current?.querySelector<HTMLInputElement>("input:not([type=hidden])")?.focus({ preventScroll: true });
  }, [mode]);

  /** 'Get Started Free' (docs/product.md#screens-login): login mode, and the card scrolled into view. */
  function getStarted(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    focusUsername.current = true;
    if (mode !== "login") void navigate(authModeHref("login"), { preventScrollReset: true });
    else {
      focusUsername.current = false;
      cardRef.current?.querySelector<HTMLInputElement>("input:not([type=hidden])")?.focus({ preventScroll: true });
    }
    cardRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  return (
    <div className="landing">
      <header className="landing-nav">
        <a href="/login" className="landing-nav__brand">
          <LogoMark />
          PutSeller
        </a>
        <a href={authModeHref("login")} className="landing-nav__link">
          Sign in
        </a>
      </header>

      <main>
        <div className="landing-hero">
          <section className="landing-hero__copy" aria-labelledby="hero-title">
            <p className="landing-hero__eyebrow">For sellers of cash-secured puts</p>
            <h1 id="hero-title">Sell puts with a plan, not a hunch.</h1>
            <p className="landing-hero__lead">
              PutSeller keeps your watchlist, intrinsic values and buy levels in one place, and tells you which puts are
              worth selling today, with the numbers explained.
            </p>
            <div className="landing-hero__actions">
              <a href={authModeHref("login")} className="button button--primary button--large" onClick={getStarted}>
                Get Started Free
              </a>
              <a
                ref={demoButtonRef}
                href={`/login?${withDemo.toString()}`}
                className="button button--ghost button--large"
                onClick={(event) => {
                  event.preventDefault();
                  setDemoOpen(true);
                }}
              >
                <PlayIcon width={20} height={20} />
                Watch Demo
              </a>
            </div>
          </section>
          <AuthCard
            mode={mode}
            google={google}
            redirectTo={redirectTo}
            actionData={actionData as AuthActionData | undefined}
            cardRef={cardRef}
          />
        </div>
        <Stats stats={stats} />
        <Features />
        <Testimonials />
        <TrustBadges />
      </main>
      <LandingFooter />

      <DemoModal
        open={demoOpen}
        closeHref={`/login${withoutDemo.size ? `?${withoutDemo.toString()}` : ""}`}
        onClose={() => setDemoOpen(false)}
        returnFocusRef={demoButtonRef}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "PutSeller · Sell cash-secured puts with a plan" },
  {
    name: "description",
    content:
      "Watchlist, intrinsic values, buy levels and sell-put recommendations with AI explanations, on your phone.",
  },
];
