/**
 * Import work bounded by the file's bytes: a .glb whose JSON repeats an animation thousands of
 * times over the same accessors (made here by editing the JSON chunk of assets/Fox.glb) is
 * read and resampled once — every copy is that clip renamed, sharing its frames — and the
 * limits on what one file may make the importer do (distinct channels, decoded key numbers)
 * refuse with an AnimationError naming the limit and the count. Nothing here is timed: sharing
 * one frame array is what shows the animation was decoded once.
 */
import { describe, expect, it } from 'vitest';
import { AnimationError, loadGltf, type Clip } from '../../src/index.js';
import { MAX_GLTF_CHANNELS, MAX_GLTF_KEY_NUMBERS } from '../../src/import/gltf/clips.js';
import { MAX_GLTF_ACCESSOR_BYTES } from '../../src/import/gltf/validateAccessors.js';
import { foxBytes as fox, foxGlb, foxJson, type Json } from '../support/foxGlb.js';


/** The Fox's JSON with `animations` instead of its own. */
function withAnimations(animations: Json[]): Json {
  return { ...structuredClone(foxJson), animations };
}

const [survey, walk, run] = foxJson['animations'] as Json[];
const bits = (clip: Clip): Buffer => Buffer.from(clip.frames.buffer, clip.frames.byteOffset, clip.frames.byteLength);

describe('a file that repeats an animation is read and resampled once', async () => {
  const plain = await loadGltf(fox);
  const original = (name: string): Clip => plain.clips.find((c) => c.name === name)!;

  it('2,000 copies of the Survey under other names: 2,000 clips sharing one frame array, each the Survey bit for bit', async () => {
    const copies = Array.from({ length: 2000 }, (_, i) => ({ ...survey, name: `copy ${i}` }));
    const file = foxGlb(withAnimations(copies));
    expect(file.length).toBeGreaterThan(2_000_000); // the amplifying file: megabytes of JSON over 160 KB of keys
    const { clips, warnings } = await loadGltf(file);
    expect(clips.map((c) => c.name)).toEqual(copies.map((c) => c.name));
    for (const clip of clips) expect(clip.frames).toBe(clips[0]!.frames);
    expect(bits(clips[1999]!).equals(bits(original('Survey')))).toBe(true);
    expect(clips[1999]!.frameRate).toBe(original('Survey').frameRate);
    expect(clips[1999]!.importError).toBe(original('Survey').importError);
    // Each copy carries the warnings the Survey gets, under its own name and index.
    const surveyWarnings = plain.warnings.filter((w) => w.startsWith('animation "Survey" (animations[0])'));
    expect(warnings.filter((w) => w.startsWith('animation "copy 1234" (animations[1234])'))).toEqual(
      surveyWarnings.map((w) => w.replace('animation "Survey" (animations[0])', 'animation "copy 1234" (animations[1234])')),
    );
  });

  it('copies interleaved with other animations: the clips in the file\'s order, each its original\'s frames', async () => {
    const order = [survey, walk, { ...survey, name: 'Survey again' }, run, { ...walk, name: 'Walk again' }, { ...survey, name: '' }];
    const { clips } = await loadGltf(foxGlb(withAnimations(order)));
    expect(clips.map((c) => c.name)).toEqual(['Survey', 'Walk', 'Survey again', 'Run', 'Walk again', 'animation5']);
    const sources = ['Survey', 'Walk', 'Survey', 'Run', 'Walk', 'Survey'];
    clips.forEach((clip, i) => expect(bits(clip).equals(bits(original(sources[i]!))), clip.name).toBe(true));
    expect(clips[2]!.frames).toBe(clips[0]!.frames);
    expect(clips[4]!.frames).toBe(clips[1]!.frames);
    expect(clips[1]!.frames).not.toBe(clips[0]!.frames);
  });

  it('the same channels with the samplers listed in another order (other JSON, same accessors): decoded once, the frames shared', async () => {
    const n = survey['samplers'].length as number;
    const reordered = {
      name: 'Survey, samplers reversed',
      samplers: [...survey['samplers']].reverse(),
      channels: survey['channels'].map((c: Json) => ({ ...c, sampler: n - 1 - c['sampler'] })),
    };
    const { clips } = await loadGltf(foxGlb(withAnimations([survey, reordered])));
    expect(clips[1]!.name).toBe('Survey, samplers reversed');
    expect(clips[1]!.frames).toBe(clips[0]!.frames);
    expect(bits(clips[1]!).equals(bits(original('Survey')))).toBe(true);
  });
});

describe('the limits on one file\'s animation work refuse, naming the limit and the count', () => {
  it(`more than MAX_GLTF_CHANNELS (${MAX_GLTF_CHANNELS}) distinct channels: refused before any is read`, async () => {
    // Distinct animations over the Survey's keys: each drops a different set of its channels.
    const channels = survey['channels'] as Json[];
    const animations: Json[] = [];
    let total = 0;
    for (let mask = (1 << channels.length) - 1; total <= MAX_GLTF_CHANNELS; mask--) {
      const kept = channels.filter((_, c) => (mask >> c) & 1);
      if (kept.length < channels.length - 6) continue; // long ones: fewer animations to write
      animations.push({ name: `subset ${mask}`, samplers: survey['samplers'], channels: kept });
      total += kept.length;
    }
    const error = await loadGltf(foxGlb(withAnimations(animations))).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AnimationError);
    const message = (error as AnimationError).message;
    expect(message).toContain(`animations[${animations.length - 1}].channels`);
    expect(message).toContain(`${total} channels`);
    expect(message).toContain(`more than the ${MAX_GLTF_CHANNELS} one file may hold (MAX_GLTF_CHANNELS)`);
  });

  it(`accessors aliasing one buffer view past MAX_GLTF_ACCESSOR_BYTES (${MAX_GLTF_ACCESSOR_BYTES}): refused before any is copied out`, async () => {
    // 26,000 accessors over the Fox's 20,736 bytes of positions (each would be copied out by
    // @gltf-transform): 539 MB from a few MB of JSON.
    const json = withAnimations([]);
    const accessors = json['accessors'] as Json[];
    const positions = accessors[0]!;
    expect([positions['type'], positions['count']]).toEqual(['VEC3', 1728]);
    const aliases = Array.from({ length: 26_000 }, () => accessors.push({ ...positions }) - 1);
    json['animations'] = [{
      name: 'aliases',
      samplers: aliases.map((output) => ({ input: survey['samplers'][0]['input'], output })),
      channels: aliases.map((_, k) => ({ sampler: k, target: { node: survey['channels'][0]['target']['node'], path: 'translation' } })),
    }];
    const error = await loadGltf(foxGlb(json)).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AnimationError);
    const message = (error as AnimationError).message;
    // Past the limit after some 25,890 of the aliases (20,736 bytes each), whatever the Fox's own accessors add.
    const at = Number(/past the limit at accessors\[(\d+)\]/.exec(message)?.[1]);
    const firstAlias = aliases[0]!;
    expect(at - firstAlias).toBeGreaterThan(Math.floor(MAX_GLTF_ACCESSOR_BYTES / 20_736) - 100);
    expect(at - firstAlias).toBeLessThanOrEqual(Math.floor(MAX_GLTF_ACCESSOR_BYTES / 20_736));
    expect(Number(/hold (\d+) bytes/.exec(message)?.[1])).toBeGreaterThan(26_000 * 20_736);
    expect(message).toContain(`more than the ${MAX_GLTF_ACCESSOR_BYTES} one file may use (MAX_GLTF_ACCESSOR_BYTES)`);
  });

  it('accessors without a buffer view count their zero-filled bytes too', async () => {
    const json = withAnimations([]);
    const accessors = json['accessors'] as Json[];
    const zeros = Array.from({ length: 9 }, () => accessors.push({ componentType: 5126, count: 1 << 24, type: 'SCALAR', min: [0], max: [0] }) - 1);
    const [first] = survey['channels'] as Json[];
    json['animations'] = [{
      name: 'zeros',
      samplers: zeros.map((input) => ({ ...survey['samplers'][first!['sampler']], input })),
      channels: zeros.map((_, k) => ({ ...first, sampler: k })),
    }];
    const error = await loadGltf(foxGlb(json)).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AnimationError);
    expect((error as AnimationError).message).toContain(`(MAX_GLTF_ACCESSOR_BYTES)`);
    expect((error as AnimationError).message).toContain(`past the limit at accessors[${zeros[7]}]`); // 8 × 64 MiB = 512 MiB is the limit, not past it
  });

  it(`key times and outputs past MAX_GLTF_KEY_NUMBERS (${MAX_GLTF_KEY_NUMBERS}): refused before they are decoded`, async () => {
    // Two inputs of 2²⁴ zero times each (accessors without a buffer view are zero-filled): with
    // the outputs, past the limit — counted from the accessors' sizes, never read.
    const json = withAnimations([]);
    const accessors = json['accessors'] as Json[];
    const big = (): number => accessors.push({ componentType: 5126, count: 1 << 24, type: 'SCALAR', min: [0], max: [0] }) - 1;
    const a = big(), b = big();
    const [first, second] = survey['channels'] as Json[];
    const samplerOf = (c: Json): Json => survey['samplers'][c['sampler']];
    json['animations'] = [{
      name: 'huge',
      samplers: [{ ...samplerOf(first!), input: a }, { ...samplerOf(second!), input: b }],
      channels: [{ ...first, sampler: 0 }, { ...second, sampler: 1 }],
    }];
    const outputs = [first, second].map((c) => {
      const output = accessors[samplerOf(c!)['output']]!;
      return output['count'] * (output['type'] === 'VEC4' ? 4 : 3);
    });
    const error = await loadGltf(foxGlb(json)).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AnimationError);
    const message = (error as AnimationError).message;
    expect(message).toContain('animations[0]');
    expect(message).toContain(`${2 * (1 << 24) + outputs[0]! + outputs[1]!} numbers`);
    expect(message).toContain(`more than the ${MAX_GLTF_KEY_NUMBERS} one file may decode (MAX_GLTF_KEY_NUMBERS)`);
  });
});
