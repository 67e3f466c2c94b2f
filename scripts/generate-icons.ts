/**
 * Generates the installable app's icons (issue 11) from one source image, public/favicon.svg:
 *   public/icons/icon-192.png, icon-512.png           the mark as drawn (rounded square)
 *   public/icons/maskable-192.png, maskable-512.png   full-bleed background, the mark inside the safe zone
 *   public/icons/apple-touch-icon.png (180)            full-bleed (iOS rounds the corners itself)
 *
 * Run: `npx node scripts/generate-icons.ts` (commit the PNGs). No image package is needed: the
 * source uses a small SVG subset (one <svg viewBox>, <rect> with fill and rx, <path> with M/L
 * commands, fill or stroke, round caps and joins), rasterised here with 4×4 supersampling and
 * written as PNG with node:zlib. Anything else in the source is refused, not silently dropped.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";

type Rgba = [number, number, number, number];

interface RectShape {
  kind: "rect";
  x: number;
  y: number;
  width: number;
  height: number;
  rx: number;
  fill: Rgba;
}
interface PolylineShape {
  kind: "polyline";
  points: [number, number][];
  stroke: Rgba;
  width: number;
}
type Shape = RectShape | PolylineShape;

export interface SourceImage {
  size: number;
  shapes: Shape[];
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z-:]+)="([^"]*)"/g)) found[match[1]!] = match[2]!;
  return found;
}

function color(text: string | undefined): Rgba {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text ?? "");
  if (!hex) throw new Error(`Unsupported colour ${text}: use #rgb or #rrggbb`);
  const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join("") : hex[1]!;
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)).concat(255) as Rgba;
}

/** Reads the supported SVG subset. */
export function parseSvg(svg: string): SourceImage {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0];
  if (!root) throw new Error("No <svg> element");
  const viewBox = (attributes(root).viewBox ?? "").split(/[\s,]+/).map(Number);
  if (viewBox.length !== 4 || viewBox[0] !== 0 || viewBox[1] !== 0 || viewBox[2] !== viewBox[3]) {
    throw new Error("The source needs a square viewBox starting at 0 0");
  }
  const shapes: Shape[] = [];
  for (const match of svg.matchAll(/<(\w+)\b([^>]*)\/?>/g)) {
    const [, name, rest] = match;
    if (name === "svg") continue;
    const a = attributes(rest!);
    if (name === "rect") {
      shapes.push({
        kind: "rect",
        x: Number(a.x ?? 0),
        y: Number(a.y ?? 0),
        width: Number(a.width),
        height: Number(a.height),
        rx: Number(a.rx ?? 0),
        fill: color(a.fill),
      });
    } else if (name === "path") {
      if (a.fill !== "none" || !a.stroke) throw new Error('Paths must be strokes (fill="none", a stroke colour)');
      if ((a["stroke-linecap"] ?? "round") !== "round" || (a["stroke-linejoin"] ?? "round") !== "round") {
        throw new Error("Strokes must have round caps and joins");
      }
      const points = polylineOf(a.d ?? "");
      shapes.push({ kind: "polyline", points, stroke: color(a.stroke), width: Number(a["stroke-width"] ?? 1) });
    } else {
      throw new Error(`Unsupported element <${name}>`);
    }
  }
  return { size: viewBox[2]!, shapes };
}

/** Path data of one open polyline: M/m, then L/l, H/h, V/v (absolute or relative, implicit repeats). */
export function polylineOf(d: string): [number, number][] {
  const tokens = d.match(/[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  const points: [number, number][] = [];
  let command = "";
  let x = 0;
  let y = 0;
  let i = 0;
  const number = () => {
    const value = Number(tokens[i++]);
    if (Number.isNaN(value)) throw new Error(`Unsupported path data "${d}"`);
    return value;
  };
  while (i < tokens.length) {
    if (/[A-Za-z]/.test(tokens[i]!)) command = tokens[i++]!;
    const relative = command === command.toLowerCase();
    switch (command.toUpperCase()) {
      case "M":
      case "L": {
        const dx = number();
        const dy = number();
        x = relative && points.length ? x + dx : dx;
        y = relative && points.length ? y + dy : dy;
        if (command.toUpperCase() === "M" && points.length) throw new Error("Only one subpath is supported");
        points.push([x, y]);
        // Pairs after a moveto are linetos (SVG's implicit repeat).
        command = relative ? "l" : "L";
        break;
      }
      case "H":
        x = relative ? x + number() : number();
        points.push([x, y]);
        break;
      case "V":
        y = relative ? y + number() : number();
        points.push([x, y]);
        break;
      default:
        throw new Error(`Unsupported path command "${command}" in "${d}"`);
    }
  }
  if (points.length === 0) throw new Error(`Empty path "${d}"`);
  return points;
}

function roundedRectInside(px: number, py: number, r: RectShape): boolean {
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  const rx = Math.min(r.rx, r.width / 2, r.height / 2);
  const qx = Math.abs(px - cx) - (r.width / 2 - rx);
  const qy = Math.abs(py - cy) - (r.height / 2 - rx);
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  return outside + Math.min(Math.max(qx, qy), 0) - rx <= 0;
}

function nearPolyline(px: number, py: number, line: PolylineShape): boolean {
  const half = line.width / 2;
  for (let i = 0; i + 1 < line.points.length; i++) {
    const [ax, ay] = line.points[i]!;
    const [bx, by] = line.points[i + 1]!;
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
    if (Math.hypot(px - (ax + t * dx), py - (ay + t * dy)) <= half) return true;
  }
  return line.points.length === 1 && Math.hypot(px - line.points[0]![0], py - line.points[0]![1]) <= half;
}

export interface Variant {
  /** Output size in pixels. */
  size: number;
  /** Fill the whole square with the first rectangle's colour (maskable, Apple) instead of drawing it. */
  fullBleed: boolean;
  /** The drawing (after the background) scaled about the centre, e.g. 0.8 to sit in a maskable safe zone. */
  scale: number;
}

/** RGBA pixels, row by row. */
export function render(source: SourceImage, variant: Variant): Uint8Array {
  const { size } = variant;
  const pixels = new Uint8Array(size * size * 4);
  const samples = 4;
  const [background, ...rest] = source.shapes;
  const shapes = variant.fullBleed && background?.kind === "rect" ? rest : source.shapes;
  const bleed = variant.fullBleed && background?.kind === "rect" ? background.fill : null;
  const unit = source.size / size;
  const centre = source.size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          // The sample in source units, then undo the variant's scaling about the centre.
          const ux = (x + (sx + 0.5) / samples) * unit;
          const uy = (y + (sy + 0.5) / samples) * unit;
          const px = centre + (ux - centre) / variant.scale;
          const py = centre + (uy - centre) / variant.scale;
          let colour: Rgba | null = bleed;
          for (const shape of shapes) {
            const hit = shape.kind === "rect" ? roundedRectInside(px, py, shape) : nearPolyline(px, py, shape);
            if (hit) colour = shape.kind === "rect" ? shape.fill : shape.stroke;
          }
          if (colour) {
            r += colour[0];
            g += colour[1];
            b += colour[2];
            a += 255;
          }
        }
      }
      const n = samples * samples;
      const i = (y * size + x) * 4;
      // Straight (not premultiplied) alpha: average colour of the covered samples.
      const covered = a / 255;
      pixels[i] = covered ? Math.round(r / covered) : 0;
      pixels[i + 1] = covered ? Math.round(g / covered) : 0;
      pixels[i + 2] = covered ? Math.round(b / covered) : 0;
      pixels[i + 3] = Math.round(a / n);
    }
  }
  return pixels;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG (8-bit RGBA, no filtering) of the pixels. */
export function encodePng(pixels: Uint8Array, size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0;
    Buffer.from(pixels.buffer, pixels.byteOffset + y * size * 4, size * 4).copy(rows, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", new Uint8Array()),
  ]);
}

/** The icons the manifest and root.tsx name, and how each is drawn. */
export const ICONS: Record<string, Variant> = {
  "icon-192.png": { size: 192, fullBleed: false, scale: 1 },
  "icon-512.png": { size: 512, fullBleed: false, scale: 1 },
  // Maskable: launchers crop to a circle of 80 % of the width; the mark is scaled into it.
  "maskable-192.png": { size: 192, fullBleed: true, scale: 0.8 },
  "maskable-512.png": { size: 512, fullBleed: true, scale: 0.8 },
  "apple-touch-icon.png": { size: 180, fullBleed: true, scale: 0.9 },
};

export const SOURCE = "public/favicon.svg";
export const OUT_DIR = "public/icons";

export function generate(root: string): Record<string, Buffer> {
  const source = parseSvg(readFileSync(path.join(root, SOURCE), "utf8"));
  return Object.fromEntries(
    Object.entries(ICONS).map(([name, variant]) => [name, encodePng(render(source, variant), variant.size)]),
  );
}

if (import.meta.main) {
  const root = path.resolve(import.meta.dirname, "..");
  mkdirSync(path.join(root, OUT_DIR), { recursive: true });
  for (const [name, png] of Object.entries(generate(root))) {
    writeFileSync(path.join(root, OUT_DIR, name), png);
    console.log(`${OUT_DIR}/${name} (${png.length} bytes)`);
  }
}
