/**
 * The amplification family fuzzed: 2,000 files made from assets/Fox.glb's JSON (its meshes left
 * out, so each load is the animation work alone) whose animations repeat the Fox's own a random
 * number of times (up to 2,000), with channels duplicated and interpolations changed, and in a
 * third of them one break (another accessor as a sampler's output, a target node or path that
 * does not exist, one sampler for every path, CUBICSPLINE over plain keys, a huge count, no
 * channels). Each file loads or is refused with an AnimationError — nothing else — within
 * 10 s, and the process stays under 1 GB resident.
 */
import { describe, expect, it } from 'vitest';
import { AnimationError, loadGltf } from '../../../src/index.js';
import { createRandom } from '../../fixtures/synthetic.js';
import { foxGlb, foxJson, type Json } from '../../support/foxGlb.js';


/** File `n` of the family (see the header). */
function variant(n: number): Uint8Array {
  const random = createRandom(1000 + n);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const json: Json = structuredClone(foxJson);
  // No meshes: the skins and nodes stay, so the skeleton and the clips are what the importer does.
  delete json['meshes'];
  for (const node of json['nodes'] as Json[]) delete node['mesh'];
  const own = foxJson['animations'] as Json[];
  // Mostly a few copies, now and then thousands.
  const copies = random() < 0.05 ? 500 + Math.floor(random() * 1500) : 1 + Math.floor(random() * 60);
  const accessors = (json['accessors'] as Json[]).length;
  const animations: Json[] = [];
  for (let c = 0; c < copies; c++) {
    const a: Json = structuredClone(pick(own));
    a['name'] = random() < 0.1 ? own[0]!['name'] : `copy ${c}`;
    // Mutations a valid file may have: every channel twice, other interpolations of the same keys.
    const r = random();
    if (r < 0.2) a['channels'] = [...a['channels'], ...a['channels']];
    else if (r < 0.3) for (const s of a['samplers']) s['interpolation'] = pick(['LINEAR', 'STEP']);
    animations.push(a);
  }
  // One that breaks it, in a third of the files: the importer must say so.
  const broken = random();
  const some = pick(animations);
  if (broken < 0.05) pick(some['samplers'] as Json[])['output'] = Math.floor(random() * (accessors + 3)); // another accessor, or none
  else if (broken < 0.1) pick(some['channels'] as Json[])['target']['node'] = Math.floor(random() * 200);
  else if (broken < 0.15) pick(some['channels'] as Json[])['target']['path'] = pick(['weights', 'nothing']);
  else if (broken < 0.2) for (const ch of some['channels']) ch['sampler'] = 0; // one sampler for every path
  else if (broken < 0.25) pick(some['samplers'] as Json[])['interpolation'] = 'CUBICSPLINE'; // three times the keys it has
  else if (broken < 0.3) pick(json['accessors'] as Json[])['count'] = Math.floor(random() * 1e7);
  else if (broken < 0.33) some['channels'] = [];
  json['animations'] = animations;
  return foxGlb(json);
}

describe('2,000 files of the repeated-animation family', () => {
  it('each loads or is refused with an AnimationError, within 10 s, the process under 1 GB', async () => {
    let loaded = 0, refused = 0, slowest = 0, most = 0, clips = 0;
    const faults: string[] = [];
    for (let n = 0; n < 2000; n++) {
      const bytes = variant(n);
      const start = performance.now();
      try {
        const result = await loadGltf(bytes);
        loaded++;
        clips = Math.max(clips, result.clips.length);
      } catch (error) {
        if (error instanceof AnimationError) refused++;
        else faults.push(`file ${n}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      }
      slowest = Math.max(slowest, performance.now() - start);
      if (n % 50 === 0) most = Math.max(most, process.memoryUsage().rss);
    }
    most = Math.max(most, process.memoryUsage().rss);
    console.log(`2,000 files: ${loaded} loaded (up to ${clips} clips), ${refused} refused; slowest ${slowest.toFixed(0)} ms; resident at most ${(most / 2 ** 20).toFixed(0)} MB`);
    expect(faults).toEqual([]);
    expect(loaded).toBeGreaterThan(100); // the family loads, not only refuses
    expect(refused).toBeGreaterThan(10);
    expect(slowest).toBeLessThan(10_000);
    expect(most).toBeLessThan(2 ** 30);
  }, 900_000);
});
