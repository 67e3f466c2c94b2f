/** "2026-11-27" → "27 Nov 2026", as the put cards write an expiry (built on first use). */
let format: Intl.DateTimeFormat | undefined;
export function longDate(date: string): string {
  format ??= new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  return format.format(new Date(`${date}T00:00:00Z`));
}
