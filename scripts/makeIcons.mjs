// Draws gasfees' icons with plain Node (a tiny PNG encoder over zlib) and writes them under build/:
//   build/icon.png            1024 px, the app icon electron-builder converts for macOS (.icns) and Windows (.ico)
//   build/icons/<n>x<n>.png   the Linux icon set
//   build/tray/<state>.png    tray icons by congestion (normal, busy, unknown), 16 px with an @2x of 32 px
// Run: node scripts/makeIcons.mjs (the output is committed; run again only to change the drawing).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** RGBA pixels (size × size × 4) to a PNG file. */
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * Renders a drawing given as a function of a point in the unit square (0..1, y down) that returns [r, g, b, a]
 * (0..255) or undefined, with 4×4 supersampling for smooth edges, layered over transparency.
 */
function render(size, paint) {
  const samples = 4;
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const color = paint((x + (sx + 0.5) / samples) / size, (y + (sy + 0.5) / samples) / size);
          if (!color) continue;
          const alpha = color[3] / 255;
          r += color[0] * alpha;
          g += color[1] * alpha;
          b += color[2] * alpha;
          a += alpha;
        }
      }
      const offset = (y * size + x) * 4;
      if (a > 0) {
        rgba[offset] = Math.round(r / a);
        rgba[offset + 1] = Math.round(g / a);
        rgba[offset + 2] = Math.round(b / a);
      }
      rgba[offset + 3] = Math.round((a / (samples * samples)) * 255);
    }
  }
  return encodePng(size, rgba);
}

const mix = (from, to, t) => from.map((value, i) => Math.round(value + (to[i] - value) * t));

/** The app icon: a fee gauge (green to red arc, white needle) on a deep blue rounded square. */
function appIcon(u, v) {
  const inset = 0.06,
    radius = 0.2;
  const qx = Math.max(Math.abs(u - 0.5) - (0.5 - inset - radius), 0);
  const qy = Math.max(Math.abs(v - 0.5) - (0.5 - inset - radius), 0);
  if (Math.hypot(qx, qy) > radius) return undefined;
  const background = [...mix([28, 46, 94], [12, 20, 48], v), 255];
  const cx = 0.5,
    cy = 0.6;
  const d = Math.hypot(u - cx, v - cy);
  const angle = Math.atan2(v - cy, u - cx); // -PI..PI, y down: the upper half is negative
  const onArc = d > 0.25 && d < 0.33 && v < cy + 0.06 && angle > -Math.PI * 1.12 && angle < Math.PI * 0.12;
  if (onArc) {
    const t = Math.min(1, Math.max(0, (angle + Math.PI) / Math.PI)); // left 0 .. right 1
    return [...mix(mix([46, 204, 113], [241, 196, 15], Math.min(1, t * 2)), [231, 76, 60], Math.max(0, t * 2 - 1)), 255];
  }
  // The needle: from the hub towards the upper right (a busy-ish reading).
  const needleAngle = -Math.PI * 0.3;
  const nx = Math.cos(needleAngle),
    ny = Math.sin(needleAngle);
  const along = (u - cx) * nx + (v - cy) * ny;
  const across = Math.abs(-(u - cx) * ny + (v - cy) * nx);
  if (along > 0 && along < 0.27 && across < 0.022 * (1 - along / 0.32)) return [255, 255, 255, 255];
  if (d < 0.05) return [255, 255, 255, 255];
  return background;
}

const TRAY_COLOURS = { normal: [46, 174, 96], busy: [229, 72, 77], unknown: [139, 141, 152] };
/** A tray icon: a disc in the congestion's colour with a white gauge needle, legible at 16 px on light and dark bars. */
function trayIcon(colour) {
  return (u, v) => {
    const d = Math.hypot(u - 0.5, v - 0.5);
    if (d > 0.47) return undefined;
    if (d > 0.4) return [255, 255, 255, 200];
    const nx = Math.cos(-Math.PI * 0.3),
      ny = Math.sin(-Math.PI * 0.3);
    const along = (u - 0.5) * nx + (v - 0.56) * ny;
    const across = Math.abs(-(u - 0.5) * ny + (v - 0.56) * nx);
    if ((along > 0 && along < 0.3 && across < 0.07) || Math.hypot(u - 0.5, v - 0.56) < 0.1) return [255, 255, 255, 255];
    return [...colour, 255];
  };
}

const out = "build";
mkdirSync(join(out, "icons"), { recursive: true });
mkdirSync(join(out, "tray"), { recursive: true });
writeFileSync(join(out, "icon.png"), render(1024, appIcon));
for (const size of [16, 32, 48, 64, 128, 256, 512]) writeFileSync(join(out, "icons", `${size}x${size}.png`), render(size, appIcon));
for (const [state, colour] of Object.entries(TRAY_COLOURS)) {
  writeFileSync(join(out, "tray", `${state}.png`), render(16, trayIcon(colour)));
  writeFileSync(join(out, "tray", `${state}@2x.png`), render(32, trayIcon(colour)));
}
console.log("icons written under build/");
