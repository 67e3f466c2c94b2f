import { redirect } from "react-router";

/** `/` is the watchlist (SPEC.md §2: the default landing route). */
export function loader() {
  return redirect("/user-stocks");
}
