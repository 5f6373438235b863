/**
 * assets/Fox.glb taken apart for tests that rewrite its JSON: the parsed JSON chunk, and a GLB
 * builder that puts an edited JSON over the Fox's own binary chunk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASSETS_DIR } from './assets.js';

/** A glTF JSON document, loosely typed for editing. */
export type Json = Record<string, any>;

const fox = readFileSync(join(ASSETS_DIR, 'Fox.glb'));
const binAt = 20 + fox.readUInt32LE(12);
const foxBin = fox.subarray(binAt + 8, binAt + 8 + fox.readUInt32LE(binAt));

/** The Fox's file bytes. */
export const foxBytes: Buffer = fox;
/** The Fox's JSON chunk, parsed (do not edit: clone it). */
export const foxJson: Json = JSON.parse(fox.subarray(20, binAt).toString('utf8'));

/** A GLB of `json` over the Fox's binary chunk (both chunks padded to 4 bytes). */
export function foxGlb(json: Json): Uint8Array {
  const text = Buffer.from(JSON.stringify(json), 'utf8');
  const jsonLength = (text.length + 3) & ~3, binLength = (foxBin.length + 3) & ~3;
  const out = Buffer.alloc(12 + 8 + jsonLength + 8 + binLength);
  out.writeUInt32LE(0x46546c67, 0); // 'glTF'
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(out.length, 8);
  out.writeUInt32LE(jsonLength, 12);
  out.writeUInt32LE(0x4e4f534a, 16); // 'JSON'
  text.copy(out, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonLength);
  const b = 20 + jsonLength;
  out.writeUInt32LE(binLength, b);
  out.writeUInt32LE(0x004e4942, b + 4); // 'BIN\0'
  foxBin.copy(out, b + 8);
  return out;
}
