import type { Href } from "#app/lib/href.ts";
import { redirect } from "react-router";
import { logout } from "#app/server/auth.server.ts";
import type { Route } from "./+types/route";

/** Sign-out is a POST so a link or prefetch can never end a session by accident. */
export async function action({ request }: Route.ActionArgs) {
  return logout(request);
}

export function loader() {
  return redirect("/user-stocks" satisfies Href);
}
