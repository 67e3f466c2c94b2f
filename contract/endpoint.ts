import { z } from "zod";

/**
 * One provider call: method, path template and the zod schemas of its parts.
 * The app's provider client and the provider's router are both built from these,
 * so a path or a field is spelled once.
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** How the response body is read: parsed JSON, or a streamed `text/plain` body. */
export type ResponseKind = z.ZodType | "text-stream";

export interface Endpoint<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Res extends ResponseKind = ResponseKind,
  Auth extends "public" | "user" = "public" | "user",
> {
  method: Method;
  /** Path template with `:name` segments, e.g. `/api/user-stocks/:userId`. */
  path: string;
  /** `public` needs no token; `user` needs a valid bearer token. */
  auth: Auth;
  params: Params;
  query: Query;
  body: Body;
  /** `form` for `application/x-www-form-urlencoded` (POST /auth/token), else JSON. */
  bodyEncoding: "json" | "form";
  response: Res;
}

const none = z.object({}).strict();
type None = typeof none;

export function endpoint<
  Params extends z.ZodType = None,
  Query extends z.ZodType = None,
  Body extends z.ZodType = z.ZodUndefined,
  Res extends ResponseKind = z.ZodUnknown,
  Auth extends "public" | "user" = "user",
>(def: {
  method: Method;
  path: string;
  auth?: Auth;
  params?: Params;
  query?: Query;
  body?: Body;
  bodyEncoding?: "json" | "form";
  response?: Res;
}): Endpoint<Params, Query, Body, Res, Auth> {
  return {
    auth: "user" as Auth,
    bodyEncoding: "json",
    params: none as unknown as Params,
    query: none as unknown as Query,
    body: z.undefined() as unknown as Body,
    response: z.unknown() as unknown as Res,
    ...def,
  };
}

/** Names of the `:segments` of a path template, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
}

/** Fills a path template; every value is URI-encoded. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

export type ResponseOf<E extends Endpoint> = E["response"] extends z.ZodType
  ? z.output<E["response"]>
  : ReadableStream<Uint8Array>;
