/**
 * Whether `value` is a path of this site, however a browser would read it: it starts with one
 * `/`, holds no backslash (browsers read `\` as `/`) and no control character (browsers drop
 * tabs and newlines, so `/\t/evil.example` becomes `//evil.example`, another host), and resolves
 * to this origin. No zod here: the service worker uses it and stays small.
 */
export function isSitePath(value: string | null | undefined): value is string {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return false;
  const base = "http://site.invalid";
  try {
    return new URL(value, base).origin === base;
  } catch {
    return false;
  }
}
