/**
 * BVH files as studios and libraries write them: clips named after their file, a state machine
 * given two clips of one name, per-joint warnings of a rig with position channels on every
 * joint collapsed into one line, and frame times written rounded (0.0333333 for 1/30).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createStateMachine } from '../../src/index.js';
import { bvhFrameRate, parseBvh } from '../../src/import/bvh.js';
import { importFile } from '../../src/cli/main.js';
import { refused } from '../fixtures/errors.js';
import { assetPath } from '../support/assets.js';

/** A chain of `count` joints J0 … J(count−1), each with 6 channels and OFFSET `offset(j)`. */
function chain(count: number, offset: (j: number) => string, frameTime = '0.0333333'): string {
  const lines = ['HIERARCHY'];
  for (let j = 0; j < count; j++) {
    lines.push(`${j === 0 ? 'ROOT' : 'JOINT'} J${j}`, '{', `OFFSET ${offset(j)}`, 'CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation');
  }
  lines.push('End Site', '{', 'OFFSET 0 1 0', '}');
  for (let j = 0; j < count; j++) lines.push('}');
  lines.push('MOTION', 'Frames: 2', `Frame Time: ${frameTime}`);
  const row = Array.from({ length: count }, () => '0 1 0 0 0 0').join(' ');
  lines.push(row, row, '');
  return lines.join('\n');
}

/** The line of joint j's ROOT/JOINT keyword in {@link chain}'s text: 2 + 4j. */
const lineOf = (j: number) => 2 + 4 * j;

describe('clip names', () => {
  it('parseBvh names the clip from options.name; "bvh" when nothing is known; the CLI from the file', async () => {
    const text = readFileSync(assetPath('cmu_01_01_forward_jumps.bvh'), 'utf8');
    expect(parseBvh(text, { name: 'jumps' }).clip.name).toBe('jumps');
    expect(parseBvh(text).clip.name).toBe('bvh');
    const asset = await importFile(assetPath('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444 });
    expect(asset.clips.map((c) => c.name)).toEqual(['cmu_131_01_start_walk_stop']);
    expect(refused(() => parseBvh(text, { name: 3 as unknown as string })).message).toMatch(/options\.name.*must be a string/);
    expect(refused(() => parseBvh(text, { nmae: 'jumps' } as never)).message).toMatch(/options\.nmae.*unknown option/);
  });

  it('a state machine refuses a name two different clips bear, and builds once they are named apart', () => {
    const a = parseBvh(chain(2, () => '0 0 0'));
    const b = parseBvh(chain(2, () => '0 0 0'));
    const desc = { parameters: [], states: [{ name: 'idle', clip: 'bvh' }], transitions: [], initial: 'idle' };
    const error = refused(() => createStateMachine(desc, { clips: [a.clip, b.clip] }));
    expect(error.message).toMatch(/states\[0\].*clip.*names "bvh", the name of 2 different clips given to createStateMachine \(clips\[0\], clips\[1\]\).*parseBvh's name/);
    // The same clip listed twice is not ambiguous; distinct names are not either.
    expect(createStateMachine(desc, { clips: [a.clip, a.clip] }).stateClips[0]).toBe(a.clip);
    const idle = parseBvh(chain(2, () => '0 0 0'), { name: 'idle' });
    const walk = parseBvh(chain(2, () => '0 0 0'), { name: 'walk' });
    const named = { ...desc, states: [{ name: 'idle', clip: 'idle' }, { name: 'walk', clip: 'walk' }] };
    expect(createStateMachine(named, { clips: [idle.clip, walk.clip] }).stateClips).toEqual([idle.clip, walk.clip]);
  });
});

describe('warnings collapsed', () => {
  it('21 joints with position channels on a non-zero OFFSET give one warning naming all 21', () => {
    const { warnings } = parseBvh(chain(21, () => '0 0.1 0')); // 0.1 apart: a 2 m figure, no units warning
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^21 joints have position channels and a non-zero OFFSET on y: "J0" \(line 2\), "J1" \(line 6\), .*"J20" \(line 82\): the channel replaces the OFFSET/);
    for (let j = 0; j < 21; j++) expect(warnings[0]).toContain(`"J${j}" (line ${lineOf(j)})`);
  });

  it('joints on different axes get one warning per set of axes; a lone joint keeps its own sentence', () => {
    const { warnings } = parseBvh(chain(5, (j) => (j === 4 ? '1 0 2' : j % 2 === 0 ? '0 1 0' : '0 0 0')), { positionChannels: 'add' });
    expect(warnings).toEqual([
      `2 joints have position channels and a non-zero OFFSET on y: "J0" (line 2), "J2" (line 10): the channel is added to the OFFSET (positionChannels: add)`,
      `joint "J4" (line 18) has position channels and a non-zero OFFSET on x, z: the channel is added to the OFFSET (positionChannels: add)`,
    ]);
    expect(parseBvh(chain(3, () => '0 0 0')).warnings).toEqual([]);
  });
});

describe('frame rates from rounded frame times', () => {
  it('a period written rounded gives its rate: 0.0333333 → 30, .0083333 → 120, 0.0416667 → 24, 0.0333667 → 30000/1001', () => {
    const rate = (text: string) => parseBvh(chain(2, () => '0 0 0', text)).clip.frameRate;
    expect(rate('0.0333333')).toBe(30);
    expect(rate('.0083333')).toBe(120);
    expect(rate('0.0416667')).toBe(24);
    expect(rate('3.33333e-2')).toBe(30);
    expect(rate('0.033333333333333333')).toBe(30);
    expect(rate('0.0333667')).toBe(30000 / 1001);
    expect(rate('0.5')).toBe(2);
  });

  it('a period that is no rate rounded keeps 1 / Frame Time: 0.011, 0.03 (1/33 is 1 % off), 0.0333 (1/30 is 0.1 % off)', () => {
    // 0.011: 91 fps has period 0.010989, within half a unit (5e-4) of the written digits, but
    // 91 × 0.011 = 1.001 would move the timing by 0.1 %, past the 1e-4 bound.
    expect(bvhFrameRate(0.011, '0.011')).toBe(1 / 0.011);
    expect(bvhFrameRate(0.03, '0.03')).toBe(1 / 0.03);
    expect(bvhFrameRate(0.0333, '0.0333')).toBe(1 / 0.0333);
    // Digits beyond the rounding of 1/30: 0.03333 is 1/30 within half a unit (5e-6) and 1e-4.
    expect(bvhFrameRate(0.03333, '0.03333')).toBe(30);
    // 0.0333334 is 6.7e-8 off 1/30, more than half its last digit (5e-8): kept as written.
    expect(bvhFrameRate(0.0333334, '0.0333334')).toBe(1 / 0.0333334);
  });
});
