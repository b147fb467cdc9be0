import { PNG } from 'pngjs';

export interface PixelDiff {
  width: number;
  height: number;
  /** Pixels whose RGBA differs at all; every pixel when the sizes differ. */
  differing: number;
}

/** Compares two PNG screenshots pixel by pixel (decoded, so encoder details never count). */
export function pixelDiff(a: Buffer, b: Buffer): PixelDiff {
  const left = PNG.sync.read(a);
  const right = PNG.sync.read(b);
  if (left.width !== right.width || left.height !== right.height) {
    return { width: right.width, height: right.height, differing: right.width * right.height };
  }
  let differing = 0;
  for (let i = 0; i < left.data.length; i += 4) {
    if (left.data.readUInt32BE(i) !== right.data.readUInt32BE(i)) differing++;
  }
  return { width: left.width, height: left.height, differing };
}

/** A solid-colour PNG (a product picture for the tests). */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([...rgb, 255], i);
  return PNG.sync.write(png);
}
