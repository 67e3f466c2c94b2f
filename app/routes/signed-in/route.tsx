import { Outlet } from "react-router";
import { requireSessionMiddleware } from "#app/server/auth.server.ts";

/** Every route below needs a session; anonymous visits go to /login. */
export const middleware = [requireSessionMiddleware];

export default function SignedIn() {
  return <Outlet />;
}
