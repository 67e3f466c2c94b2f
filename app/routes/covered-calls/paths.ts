import type { Href } from "#app/lib/href.ts";

/** The two tabs' paths, checked against the route table at compile time (ADR 0100). */
export const COVERED_CALLS_PATH = "/insights/calls" satisfies Href;
export const PUTS_PATH = "/insights" satisfies Href;
