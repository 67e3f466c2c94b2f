import type { Href } from "#app/lib/href.ts";
import { Outlet, useLocation, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import { BottomNav } from "./components/bottom-nav.tsx";
import { PushBanner } from "./components/push-banner.tsx";
import { Spinner } from "#app/components/spinner.tsx";
import { isSameScreen } from "#app/lib/revalidation.ts";
import { shellMarketNote } from "./server.ts";

/** The market line beside the Live dot (docs/product.md#states-market), as finished text. */
export async function loader() {
  return { marketNote: await shellMarketNote() };
}

/**
 * A screen's own URL state (a list's search, reorder mode, a dialog's step) reloads nothing here:
 * the market line can wait for the next screen. Offline, such a step would otherwise ask for data
 * with no saved copy and reload the whole page, dropping the toast that says a change waits.
 */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  // A reload of the same address (back online, fresher data) still brings the line up to date.
  const step = args.currentUrl.search !== args.nextUrl.search;
  return step && isSameScreen(args) ? false : args.defaultShouldRevalidate;
}

/** The main screens: content above, the five-icon bottom navigation below (docs/product.md#screens-routing). */
export default function Shell() {
  return (
    <div className="shell">
      <div className="shell__content">
        <Outlet />
      </div>
      <BottomNav />
      <PushBanner />
      <RouteLoading />
    </div>
  );
}

/**
 * A spinner while a main screen loads, coming from another screen: the profile
 * (docs/product.md#screens-profile), the watchlist (#screens-watchlist), the UIP list, and the
 * recommendations (#states-data; not when closing an option detail over them).
 */
const LOADING: [path: string, label: string][] = [
  ["/profile" satisfies Href, "Loading profile"],
  ["/user-stocks" satisfies Href, "Loading the watchlist"],
  ["/uip-stocks" satisfies Href, "Loading UIP stocks"],
  ["/insights" satisfies Href, "Loading recommendations"],
];

function RouteLoading() {
  const navigation = useNavigation();
  const here = useLocation().pathname;
  const to = navigation.state === "loading" ? navigation.location.pathname : null;
  const label = LOADING.find(
    ([path]) =>
      path === to &&
      here !== path &&
      !(path === ("/insights" satisfies Href) && here.startsWith("/recommendation/" satisfies Href)),
  )?.[1];
  return label ? (
    <div className="route-loading">
      <Spinner label={label} />
    </div>
  ) : null;
}
