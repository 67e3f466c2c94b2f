import type { Href } from "#app/lib/href.ts";
import { redirect } from "react-router";

/** `/` is the watchlist (docs/product.md#screens-routing: the default landing route). */
export function loader() {
  return redirect("/user-stocks" satisfies Href);
}
