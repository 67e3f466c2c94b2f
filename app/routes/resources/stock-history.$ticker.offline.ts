import { routeOffline } from "#app/offline/index.ts";
import { PATHS } from "#app/lib/paths.ts";

/** The expanded row's price chart: kept with the list that shows it. */
export const offline = routeOffline({ path: PATHS.stockHistory, screen: "saved" });
