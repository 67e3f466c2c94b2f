import type { href } from "react-router";

/**
 * A path of app/routes.ts, checked by the type of React Router's href(): calling href() in the
 * browser would add its code to every page's first load, so links to this screen are literals
 * that must satisfy this type.
 */
export type TypedPath = Parameters<typeof href>[0];

export const COVERED_CALLS_PATH = "/insights/calls" satisfies TypedPath;
export const PUTS_PATH = "/insights" satisfies TypedPath;
