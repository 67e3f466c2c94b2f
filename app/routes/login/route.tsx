import type { Href, HrefWithSearch } from "#app/lib/href.ts";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import {
  redirect,
  useActionData,
  useLoaderData,
  useNavigate,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "react-router";
import type { Route } from "./+types/route";
import { AuthCard, type AuthActionData } from "#app/components/landing/auth-card.tsx";
import { DemoModal } from "./components/demo-modal.tsx";
import { LogoMark, PlayIcon } from "#app/components/signed-out-icons.tsx";
import { Features, LandingFooter, Stats, Testimonials, TrustBadges } from "./components/landing-sections.tsx";
import { authModeHref, authModeOf } from "#app/lib/auth-modes.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { intentOf } from "#app/lib/intents.ts";
import { LOGIN_INTENTS } from "#app/lib/login-intents.ts";
import type { RouteHandle } from "#app/lib/page-scripts.ts";
import { clientAddressContext } from "#app/server/context.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import { googleWebConfig } from "#app/server/firebase.server.ts";
import { forgot, googleSignIn, login, signup } from "./server.ts";
import { readSession } from "#app/server/session.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { loadLandingStats } from "#app/server/track-record.server.ts";
import { readForm } from "#app/server/form-body.server.ts";

export async function loader({ request }: Route.LoaderArgs) {
  if (await readSession(request)) throw redirect("/user-stocks" satisfies Href);
  return { google: googleWebConfig(appEnv()), stats: await loadLandingStats() };
}

/**
 * The landing page loads its scripts at the visitor's first interaction, not after the first paint
 * (ADR 0061): read, it needs none, and its forms post without them. Opened on the demo dialog
 * (`?demo`), it loads them at once, so the dialog is a true modal.
 */
export const handle: RouteHandle = { hydrateOnInteraction: (url) => !url.searchParams.has("demo") };

/** Switching modes or opening the demo needs no new data from this route. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => (formMethod || currentUrl.pathname !== nextUrl.pathname ? defaultShouldRevalidate : false);

/** One action for the card's forms, told apart by `intent` (login, signup, forgot, google, apple). */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  // The provider limits attempts per client address; it learns the browser's address from us.
  const address = context.get(clientAddressContext);
  const headers = address ? { "x-forwarded-for": address } : undefined;

  switch (intentOf(formData, LOGIN_INTENTS)) {
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
    case "login":
    case null:
      return login(formData, headers);
  }
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
        <a href={"/login" satisfies Href} className="landing-nav__brand">
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
              {/* In login mode already, only the card's anchor: a tap before the scripts have run
                  then scrolls to the card instead of loading the page again. */}
              <a
                href={mode === "login" ? "#auth" : authModeHref("login")}
                className="button button--primary button--large"
                onClick={getStarted}
              >
                Get Started Free
              </a>
              <a
                ref={demoButtonRef}
                href={`/login?${withDemo.toString()}` satisfies HrefWithSearch}
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
        closeHref={`${"/login" satisfies Href}${withoutDemo.size ? `?${withoutDemo.toString()}` : ""}`}
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
