import { readFileSync } from "node:fs";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { generate, ICONS, OUT_DIR, parseSvg, polylineOf, render } from "../../scripts/generate-icons.ts";

/**
 * The app's icons (issue 11) are generated from public/favicon.svg by scripts/generate-icons.ts:
 * the committed PNGs must be what the script makes of the source today.
 */
const root = path.resolve(import.meta.dirname, "../..");

/** RGBA pixels of an 8-bit RGBA PNG with unfiltered rows (what the script writes). */
function decode(png: Buffer): { size: number; pixels: Uint8Array } {
  const size = png.readUInt32BE(16);
  const idat = png.indexOf("IDAT");
  const rows = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
  const pixels = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    expect(rows[y * (size * 4 + 1)]).toBe(0);
    pixels.set(rows.subarray(y * (size * 4 + 1) + 1, (y + 1) * (size * 4 + 1)), y * size * 4);
  }
  return { size, pixels };
}

const at = (image: { size: number; pixels: Uint8Array }, x: number, y: number) => [
  ...image.pixels.subarray((y * image.size + x) * 4, (y * image.size + x) * 4 + 4),
];

describe("generated icons", () => {
  it("the committed PNGs are the script's output for the source image", () => {
    const made = generate(root);
    expect(Object.keys(made).sort()).toEqual(Object.keys(ICONS).sort());
    for (const [name, png] of Object.entries(made)) {
      const committed = readFileSync(path.join(root, OUT_DIR, name));
      expect(committed.equals(png), `${name} is stale: run npx node scripts/generate-icons.ts`).toBe(true);
    }
  });

  it("regular icons keep the rounded corners transparent; maskable ones fill the square and keep the mark in the safe zone", () => {
    const made = generate(root);
    const regular = decode(made["icon-512.png"]!);
    const maskable = decode(made["maskable-512.png"]!);
    expect(regular.size).toBe(512);
    expect(at(regular, 0, 0)[3]).toBe(0);
    expect(at(regular, 256, 20)).toEqual([11, 18, 32, 255]);
    expect(at(maskable, 0, 0)).toEqual([11, 18, 32, 255]);
    // Every green pixel of the maskable icon lies within the central circle of 40 % radius.
    for (let y = 0; y < 512; y += 2) {
      for (let x = 0; x < 512; x += 2) {
        const [r, g] = at(maskable, x, y);
        if (g! > 100 && r! < 100) expect(Math.hypot(x - 256, y - 256)).toBeLessThan(0.4 * 512);
      }
    }
    expect(decode(made["apple-touch-icon.png"]!).size).toBe(180);
  });

  it("reads the SVG subset and refuses the rest", () => {
    expect(polylineOf("M14 44 28 28l8 8 14-18")).toEqual([
      [14, 44],
      [28, 28],
      [36, 36],
      [50, 18],
    ]);
    expect(polylineOf("M0 0H10v5")).toEqual([
      [0, 0],
      [10, 0],
      [10, 5],
    ]);
    expect(() => polylineOf("M0 0C1 1 2 2 3 3")).toThrow(/Unsupported path command/);
    expect(() => parseSvg('<svg viewBox="0 0 10 10"><circle r="3"/></svg>')).toThrow(/Unsupported element <circle>/);
    expect(() => parseSvg('<svg viewBox="0 0 10 20"></svg>')).toThrow(/square viewBox/);
    const tiny = render(parseSvg('<svg viewBox="0 0 4 4"><rect width="4" height="4" fill="#ff0000"/></svg>'), {
      size: 2,
      fullBleed: false,
      scale: 1,
    });
    expect([...tiny]).toEqual([255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255]);
  });
});
