import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { createAnimationWorld } from '../src/index.js';
import { createInertializationComponent, defaultMaxTransitions } from '../src/components/Inertialization.js';
import { heapAllocator } from '../src/memory/poolAllocator.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('../examples/bitecsGame.ts', import.meta.url), 'utf8');

describe('README', () => {
  it('shows examples/bitecsGame.ts verbatim, so the example it shows is the one tested here', () => {
    const block = /<!-- example: examples\/bitecsGame\.ts -->\s*```ts\n([\s\S]*?)```/.exec(readme);
    expect(block?.[1]).toBe(example);
  });

  it('shows the pixi.js Fox app (examples/pixiFox.ts: test/docs/examples.test.ts checks the copy, test/pixi/example.test.ts runs it)', () => {
    expect(readme).toContain('<!-- example: examples/pixiFox.ts#imports+app -->');
  });

  it('stays short (≤ 15,000 characters) and links every guide in docs/', () => {
    expect(readme.length).toBeLessThanOrEqual(15_000);
    const guides = readdirSync(new URL('../docs/', import.meta.url)).filter((name) => name.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(10);
    expect(guides.filter((name) => !readme.includes(`docs/${name}`))).toEqual([]);
  });

  it('quick start commands are the ones .ci/run runs', () => {
    const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');
    const quickStart = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = quickStart.split('\n').filter((l) => l.startsWith('npm '));
    expect(commands.slice(0, 2)).toEqual(['npm ci', 'npm test']);
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
  });
});

describe('the importing guide\'s inspect outputs', () => {
  it('are what bitanim inspect prints now (docs/importing.md)', async () => {
    const guide = readFileSync(new URL('../docs/importing.md', import.meta.url), 'utf8');
    const blocks = [...guide.matchAll(/<!-- inspect -->\n```console\n\$ npx bitanim (.*)\n([\s\S]*?)```/g)];
    expect(blocks).toHaveLength(4);
    for (const [, command, output] of blocks) {
      const lines: string[] = [];
      expect(await run(command!.split(' '), (line) => lines.push(line))).toBe(0);
      expect(lines.join('\n') + '\n').toBe(output);
    }
  });

  it('--map shows the joint map bitanim inspect prints now, after the report it elides (docs/importing.md)', async () => {
    const guide = readFileSync(new URL('../docs/importing.md', import.meta.url), 'utf8');
    const blocks = [...guide.matchAll(/<!-- inspect --map -->\n```console\n\$ npx bitanim (.*)\n([\s\S]*?)```/g)];
    expect(blocks).toHaveLength(1);
    const [, command, output] = blocks[0]!;
    expect(command).toMatch(/ --map /);
    const lines: string[] = [];
    expect(await run(command!.split(' '), (line) => lines.push(line))).toBe(0);
    // The block: the report's first line, an ellipsis line, then the last lines printed.
    const [first, ellipsis, ...tail] = output!.trimEnd().split('\n');
    expect([first, ellipsis]).toEqual([lines[0], '…']);
    expect(tail[1]).toMatch(/^joint map: /);
    expect(lines.slice(-tail.length)).toEqual(tail);
  });

  it('--map\'s refusal is the line bitanim inspect prints now, on stderr (docs/importing.md)', async () => {
    const guide = readFileSync(new URL('../docs/importing.md', import.meta.url), 'utf8');
    const block = /```console\n\$ npx bitanim (inspect assets\/Fox\.glb .*--map .*)\n(.*)\n```/.exec(guide);
    const out: string[] = [], err: string[] = [];
    expect(await run(block![1]!.split(' '), (line) => out.push(line), { err: (line) => err.push(line) })).toBe(1);
    expect([out, err]).toEqual([[], [block![2]]]);
  });
});

describe('the transitions guide\'s memory statement', () => {
  it('matches the Inertialization component arrays (docs/transitions.md)', () => {
    const guide = readFileSync(new URL('../docs/transitions.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const maxJoints = 64;
    // Per character: the arrays with a row per entity id; per slot: the pool's arrays.
    const small = createAnimationWorld({ maxEntities: 3, maxJoints }).components.Inertialization;
    const bytesEach = (a: ArrayBufferView & { length: number }): number => a.byteLength / a.length;
    const scalars = [small.mode, small.pending, small.pendingMode, small.elapsed, small.duration, small.halfLife, small.fadeCurve, small.lastDt, small.lead, small.slot, small.outputLevel]
      .reduce((sum, a) => sum + bytesEach(a), 0);
    expect(guide).toContain(`state is ${scalars} bytes per character`);
    const slotBytes = small.slots.byteLength / small.slotOwner.length; // 3 characters: 3 slots
    expect(small.slotOwner.length).toBe(3);
    expect(guide).toContain(`each slot is ${slotBytes / maxJoints} bytes per joint`);
    expect(guide).toContain(`plus ${small.slotOwner.byteLength / small.slotOwner.length} bytes`);
    // A crowd of 8,192 with the default maxTransitions (1,024 slots): bytes per character.
    const maxEntities = 8192;
    const crowd = createInertializationComponent(maxEntities + 1, maxJoints, heapAllocator, defaultMaxTransitions(maxEntities));
    const total = Object.values(crowd).reduce((sum, a) => sum + (a as ArrayBufferView).byteLength, 0);
    const perCharacter = Math.round(total / maxEntities);
    expect(guide).toContain(`that is ${perCharacter.toLocaleString('en-US')} bytes per character at 64 joints`);
    const before = 64 * (2 * 10 + 18) * 4 + 20; // two output poses and the offsets per character, and 20 bytes of scalars
    expect(guide).toContain(`against ${before.toLocaleString('en-US')} bytes`);
  });
});

describe('the README example', () => {
  it('runs: 100 characters of 2 joints upload 2,400 palette floats; each creak costs 1 health', async () => {
    const { frame, Health } = await import('../examples/bitecsGame.js');
    let uploaded = 0;
    for (let f = 0; f < 64; f++) uploaded = frame(1 / 64); // 1 s in binary-exact steps
    expect(uploaded).toBe(100 * 2 * 12);
    // Character n starts at clip time n/100 and plays at 0.8 + n/250 for 1 s; the 1 s clip's
    // creak at 0.5 fires for every k with start ≤ 0.5 + k < start + speed.
    for (let n = 0; n < 100; n++) {
      const start = n / 100, speed = 0.8 + n / 250;
      let creaks = 0;
      for (let k = -1; k < 3; k++) if (start <= 0.5 + k && 0.5 + k < start + speed) creaks++;
      expect(Health.value[n + 1]).toBe(100 - creaks);
    }
  });
});
