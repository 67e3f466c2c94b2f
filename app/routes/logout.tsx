import { redirect } from "react-router";
import { logout } from "#app/server/auth.server.ts";

/** Sign-out is a POST so a link or prefetch can never end a session by accident. */
export async function action() {
  return logout();
}

export function loader() {
  return redirect("/user-stocks");
}
