/**
 * A broker's local wall-clock time as an instant. Interactive Brokers writes its statements' times
 * in US Eastern (EST/EDT) without saying so; read as UTC they were 4–5 hours early (issue 43).
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  return format;
}

const HOUR_MS = 3_600_000;
/** Offsets by zone and UTC hour: they change only on an hour boundary, and Intl costs microseconds a call. */
const offsets = new Map<string, number>();

/** The zone's offset from UTC at `instant`, in ms (−4 h in New York's summer). */
function offsetAt(timeZone: string, instant: number): number {
  const key = `${timeZone}|${Math.floor(instant / HOUR_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = intlOffsetAt(timeZone, Math.floor(instant / HOUR_MS) * HOUR_MS);
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function intlOffsetAt(timeZone: string, instant: number): number {
  const parts = Object.fromEntries(
    formatOf(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** `2026-01-05` and `10:31:12` on the clocks of `timeZone`, as an ISO instant in UTC. */
export function zonedToIso(date: string, time: string, timeZone = "America/New_York"): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [hh, mm, ss = 0] = time.split(":").map(Number) as [number, number, number?];
  const wall = Date.UTC(y, m - 1, d, hh, mm, ss);
  // The offset at the wall time read as UTC is right except within hours of a change; once more settles it.
  let instant = wall - offsetAt(timeZone, wall);
  instant = wall - offsetAt(timeZone, instant);
  return new Date(instant).toISOString();
}
