import { Outlet, useLocation, useNavigation } from "react-router";
import { BottomNav } from "#app/components/bottom-nav.tsx";
import { PushBanner } from "#app/components/push-banner.tsx";
import { Spinner } from "#app/components/spinner.tsx";
import { shellMarketNote } from "#app/server/market-status.server.ts";

/** The market line beside the Live dot (docs/product.md#states-market), as finished text. */
export async function loader() {
  return { marketNote: await shellMarketNote() };
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
      <ProfileLoading />
      <WatchlistLoading />
      <UipLoading />
      <InsightsLoading />
    </div>
  );
}

/** docs/product.md#screens-profile: a spinner while the profile loads. */
function ProfileLoading() {
  const navigation = useNavigation();
  const location = useLocation();
  const loading =
    navigation.state === "loading" && navigation.location.pathname === "/profile" && location.pathname !== "/profile";
  return loading ? (
    <div className="route-loading">
      <Spinner label="Loading profile" />
    </div>
  ) : null;
}

/** docs/product.md#screens-watchlist: the watchlist's loading state shows a spinner (coming from another screen). */
function WatchlistLoading() {
  const navigation = useNavigation();
  const location = useLocation();
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname === "/user-stocks" &&
    location.pathname !== "/user-stocks";
  return loading ? (
    <div className="route-loading">
      <Spinner label="Loading the watchlist" />
    </div>
  ) : null;
}

/** The UIP list's loading state, coming from another screen (as the watchlist's). */
function UipLoading() {
  const navigation = useNavigation();
  const location = useLocation();
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname === "/uip-stocks" &&
    location.pathname !== "/uip-stocks";
  return loading ? (
    <div className="route-loading">
      <Spinner label="Loading UIP stocks" />
    </div>
  ) : null;
}

/** docs/product.md#states-data: recommendations show a loading state while they load, coming from another screen. */
function InsightsLoading() {
  const navigation = useNavigation();
  const location = useLocation();
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname === "/insights" &&
    location.pathname !== "/insights" &&
    !location.pathname.startsWith("/recommendation/");
  return loading ? (
    <div className="route-loading">
      <Spinner label="Loading recommendations" />
    </div>
  ) : null;
}
