/**
 * Layer rules (components/layerRules.ts, issue 16 item 3): the predicates and the sync-group
 * helper on hand-made layer rows, with the expected answers worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { createLayersComponent, LAYER_ADDITIVE, LAYER_CLEAR_AFTER_FADE, LAYER_LAYERED, LAYER_LOOP, DEFAULT_MAX_LAYERS, MAX_LAYERS, type LayersComponent } from '../../src/components/Layers.js';
import {
  BLEND_ADDITIVE,
  BLEND_OVERRIDE,
  blendMode,
  clearsAfterFade,
  fadingOutFlags,
  isAdditive,
  isOverride,
  layerFlags,
  layersOver,
  loops,
  planOverrideSteps,
  standsInFor,
  STEP_AVERAGE,
  STEP_JOIN,
  STEP_KIND_SHIFT,
  STEP_LAYER,
  STEP_SLOT,
  STEPS_LAYERED,
  measureSyncGroup,
  movesRoot,
  playingSyncGroups,
  SYNC_DURATION,
  SYNC_PHASE,
} from '../../src/components/layerRules.js';

interface Row { clip?: number; weight?: number; flags?: number; reference?: number; syncGroup?: number; time?: number; phaseOffset?: number }

/** Layers of 3 entity ids with `rows` written into character 1's slots (li = 4 + layer). */
function layersWith(rows: Row[]): LayersComponent {
  const layers = createLayersComponent(3);
  rows.forEach((row, layer) => {
    const li = DEFAULT_MAX_LAYERS + layer;
    layers.clip[li] = row.clip ?? -1;
    layers.weight[li] = row.weight ?? 0;
    layers.flags[li] = row.flags ?? 0;
    layers.reference[li] = row.reference ?? -1;
    layers.syncGroup[li] = row.syncGroup ?? -1;
    layers.time[li] = row.time ?? 0;
    layers.phaseOffset[li] = row.phaseOffset ?? 0;
  });
  return layers;
}

describe('layer predicates', () => {
  // [row, isOverride, isAdditive, blend mode, loops, clears after fade]
  const cases: [string, Row, boolean, boolean, number, boolean, boolean][] = [
    ['a weighted looping override clip', { clip: 0, weight: 1, flags: LAYER_LOOP }, true, false, BLEND_OVERRIDE, true, false],
    ['an override clip at weight 0', { clip: 0, weight: 0, flags: LAYER_LOOP }, false, false, BLEND_OVERRIDE, true, false],
    ['an empty slot with a weight', { clip: -1, weight: 1 }, false, false, BLEND_OVERRIDE, false, false],
    ['a weighted additive clip with a reference', { clip: 2, weight: 0.5, flags: LAYER_ADDITIVE, reference: 0 }, false, true, BLEND_ADDITIVE, false, false],
    ['an additive clip without a reference', { clip: 2, weight: 0.5, flags: LAYER_ADDITIVE | LAYER_LOOP }, false, false, BLEND_ADDITIVE, true, false],
    ['an additive clip at weight 0', { clip: 2, weight: 0, flags: LAYER_ADDITIVE, reference: 0 }, false, false, BLEND_ADDITIVE, false, false],
    ['a fading-out cross-fade copy', { clip: 1, weight: 0.3, flags: LAYER_LOOP | LAYER_CLEAR_AFTER_FADE }, true, false, BLEND_OVERRIDE, true, true],
    ['a fading-out additive copy', { clip: 1, weight: 0.3, flags: LAYER_ADDITIVE | LAYER_CLEAR_AFTER_FADE, reference: 4 }, false, true, BLEND_ADDITIVE, false, true],
  ];
  for (const [what, row, override, additive, mode, loop, clears] of cases) {
    it(what, () => {
      const layers = layersWith([{}, row]);
      const li = DEFAULT_MAX_LAYERS + 1;
      expect(isOverride(layers, li)).toBe(override);
      expect(isAdditive(layers, li)).toBe(additive);
      expect(movesRoot(layers, li)).toBe(override); // additive layers carry no travel
      expect(blendMode(layers, li)).toBe(mode);
      expect(loops(layers, li)).toBe(loop);
      expect(clearsAfterFade(layers, li)).toBe(clears);
      // The neighbour slots (empty) are none of these.
      for (const other of [li - 1, li + 1]) expect([isOverride(layers, other), isAdditive(layers, other)]).toEqual([false, false]);
    });
  }

  it('layerFlags composes the stored bits the predicates read back; fadingOutFlags adds the clear mark (and a layer copy\'s place)', () => {
    expect(layerFlags(false, BLEND_OVERRIDE, false)).toBe(0);
    expect(layerFlags(true, BLEND_OVERRIDE, false)).toBe(LAYER_LOOP);
    expect(layerFlags(false, BLEND_ADDITIVE, false)).toBe(LAYER_ADDITIVE);
    expect(layerFlags(true, BLEND_ADDITIVE, false)).toBe(LAYER_LOOP | LAYER_ADDITIVE);
    expect(layerFlags(true, BLEND_OVERRIDE, true)).toBe(LAYER_LOOP | LAYER_LAYERED);
    expect(layerFlags(false, BLEND_ADDITIVE, true)).toBe(LAYER_ADDITIVE); // an additive layer has no override mode
    for (const loop of [false, true]) {
      for (const [mode, layered] of [[BLEND_OVERRIDE, false], [BLEND_OVERRIDE, true], [BLEND_ADDITIVE, false]] as const) {
        const layers = layersWith([{ clip: 0, weight: 1, flags: layerFlags(loop, mode, layered) }]);
        const li = DEFAULT_MAX_LAYERS;
        expect([blendMode(layers, li), loops(layers, li), clearsAfterFade(layers, li), layersOver(layers, li), standsInFor(layers, li, 0)]).toEqual([mode, loop, false, layered, 0]);
        layers.flags[li] = fadingOutFlags(layers.flags[li]!, 3);
        // A 'layer' layer's copy keeps slot 3's place; an average or additive copy its own (0).
        expect([blendMode(layers, li), loops(layers, li), clearsAfterFade(layers, li), layersOver(layers, li), standsInFor(layers, li, 0)]).toEqual([mode, loop, true, layered, layered ? 3 : 0]);
        if (!layered) expect(layers.flags[li]).toBe(layerFlags(loop, mode, false) | LAYER_CLEAR_AFTER_FADE); // the old bits
      }
    }
    // Every slot of the largest world fits the four bits.
    const layers = layersWith([{ clip: 0, weight: 1, flags: layerFlags(true, BLEND_OVERRIDE, true) }]);
    layers.flags[DEFAULT_MAX_LAYERS] = fadingOutFlags(layers.flags[DEFAULT_MAX_LAYERS]!, MAX_LAYERS - 1);
    expect(standsInFor(layers, DEFAULT_MAX_LAYERS, 0)).toBe(MAX_LAYERS - 1);
    expect(loops(layers, DEFAULT_MAX_LAYERS)).toBe(true);
  });
});

describe('planOverrideSteps', () => {
  const LAYER = layerFlags(true, BLEND_OVERRIDE, true), AVERAGE = layerFlags(true, BLEND_OVERRIDE, false);
  /** The steps of character 1 as [slot, kind] pairs, and whether the answer says layered. */
  function stepsOf(rows: Row[]): { steps: [number, number][]; layered: boolean } {
    const layers = layersWith(rows);
    const steps = new Int32Array(DEFAULT_MAX_LAYERS).fill(-1);
    let overrides = 0;
    for (let n = 0; n < DEFAULT_MAX_LAYERS; n++) if (isOverride(layers, DEFAULT_MAX_LAYERS + n)) overrides |= 1 << n;
    const answer = planOverrideSteps(layers, DEFAULT_MAX_LAYERS, overrides, steps);
    const out: [number, number][] = [];
    for (let k = 0; k < (answer & STEP_SLOT); k++) out.push([steps[k]! & STEP_SLOT, steps[k]! >>> STEP_KIND_SHIFT]);
    return { steps: out, layered: (answer & STEPS_LAYERED) !== 0 };
  }
  const copyOf = (slot: number, flags: number): number => fadingOutFlags(flags, slot);

  it('averages only, or a layer with nothing below it: slot order, every step an average', () => {
    expect(stepsOf([{ clip: 0, weight: 1, flags: AVERAGE }, { clip: 1, weight: 0.5, flags: AVERAGE }])).toEqual({ steps: [[0, STEP_AVERAGE], [1, STEP_AVERAGE]], layered: false });
    expect(stepsOf([{}, { clip: 1, weight: 0.5, flags: LAYER }])).toEqual({ steps: [[1, STEP_AVERAGE]], layered: false });
    // A layer over weightless or additive slots has nothing below it either.
    expect(stepsOf([{ clip: 0, weight: 0, flags: LAYER }, { clip: 1, weight: 1, flags: layerFlags(true, BLEND_ADDITIVE, false), reference: 0 }, { clip: 2, weight: 1, flags: LAYER }]))
      .toEqual({ steps: [[2, STEP_AVERAGE]], layered: false });
    // An average copy keeps its slot (the old order and bits).
    expect(stepsOf([{ clip: 0, weight: 0.5, flags: copyOf(1, AVERAGE) }, { clip: 1, weight: 0.5, flags: AVERAGE }])).toEqual({ steps: [[0, STEP_AVERAGE], [1, STEP_AVERAGE]], layered: false });
  });

  it('a layer over others starts a group; a layer copy joins the slot it stands in for, wherever it lies', () => {
    expect(stepsOf([{ clip: 0, weight: 1, flags: LAYER }, { clip: 1, weight: 1, flags: LAYER }])).toEqual({ steps: [[0, STEP_AVERAGE], [1, STEP_LAYER]], layered: true });
    expect(stepsOf([{ clip: 0, weight: 1, flags: AVERAGE }, { clip: 1, weight: 0.3, flags: AVERAGE }, { clip: 2, weight: 1, flags: LAYER }, { clip: 3, weight: 1, flags: AVERAGE }]))
      .toEqual({ steps: [[0, STEP_AVERAGE], [1, STEP_AVERAGE], [2, STEP_LAYER], [3, STEP_AVERAGE]], layered: true });
    // The base cross-fading under an arm layer: its copy (slot 2) blends at slot 0's place, under the arm.
    expect(stepsOf([{ clip: 0, weight: 0.3, flags: LAYER }, { clip: 1, weight: 1, flags: LAYER }, { clip: 2, weight: 0.7, flags: copyOf(0, LAYER) }]))
      .toEqual({ steps: [[0, STEP_AVERAGE], [2, STEP_AVERAGE], [1, STEP_LAYER]], layered: true });
    // The arm layer cross-fading over the base, its copy in slot 2.
    expect(stepsOf([{ clip: 0, weight: 1, flags: LAYER }, { clip: 1, weight: 0.4, flags: LAYER }, { clip: 2, weight: 0.6, flags: copyOf(1, LAYER) }]))
      .toEqual({ steps: [[0, STEP_AVERAGE], [1, STEP_LAYER], [2, STEP_JOIN]], layered: true });
    // A copy below its slot: ordered after it.
    expect(stepsOf([{ clip: 0, weight: 1, flags: AVERAGE }, { clip: 3, weight: 0.6, flags: copyOf(3, LAYER) }, {}, { clip: 1, weight: 0.4, flags: LAYER }]))
      .toEqual({ steps: [[0, STEP_AVERAGE], [3, STEP_LAYER], [1, STEP_JOIN]], layered: true });
    // The copy alone at its place (the slot it left was stopped): it is the group.
    expect(stepsOf([{ clip: 0, weight: 1, flags: AVERAGE }, {}, { clip: 2, weight: 0.6, flags: copyOf(1, LAYER) }])).toEqual({ steps: [[0, STEP_AVERAGE], [2, STEP_LAYER]], layered: true });
    // An average slot's new clip with a layer copy: the place's first step decides (average).
    expect(stepsOf([{ clip: 0, weight: 1, flags: AVERAGE }, { clip: 1, weight: 0.4, flags: AVERAGE }, { clip: 2, weight: 0.6, flags: copyOf(1, LAYER) }]))
      .toEqual({ steps: [[0, STEP_AVERAGE], [1, STEP_AVERAGE], [2, STEP_AVERAGE]], layered: false });
  });
});

describe('sync groups', () => {
  // Clip durations by id: 1 s, 2 s, one frame (0 s: never a member), 1.5 s.
  const clips = [{ duration: 1 }, { duration: 2 }, { duration: 0 }, { duration: 1.5 }];

  it('playingSyncGroups: the groups with a member that has a clip', () => {
    const layers = layersWith([{ clip: 0, syncGroup: 2 }, { clip: -1, syncGroup: 1 }, { clip: 3, syncGroup: 0 }, { clip: 1 }]);
    expect(playingSyncGroups(layers, DEFAULT_MAX_LAYERS)).toBe(0b101);
    expect(playingSyncGroups(layers, 0)).toBe(0); // character 0: nothing
  });

  it('measureSyncGroup: weighted cycle duration, highest-weight leader and its phase', () => {
    const layers = layersWith([
      { clip: 0, weight: 0.25, syncGroup: 0, time: 0.3, phaseOffset: 0.125 },
      { clip: 1, weight: 0.75, syncGroup: 0, time: 1.5, phaseOffset: 0.5 },
      { clip: 2, weight: 1, syncGroup: 0 }, // duration 0: not a member, though the heaviest
      { clip: 3, weight: 0.5, syncGroup: 1, time: 0.375, phaseOffset: 0.75 },
    ]);
    const out = new Float64Array(2);
    const first = DEFAULT_MAX_LAYERS, end = 2 * DEFAULT_MAX_LAYERS;
    // Group 0: D = (0.25·1 + 0.75·2) / (0.25 + 0.75) = 1.75; leader layer 1; φ = 1.5 / 2 − 0.5 = 0.25.
    expect(measureSyncGroup(out, layers, clips, first, end, 0)).toBe(first + 1);
    expect(Array.from(out)).toEqual([1.75, 0.25]);
    // Group 1: one member; φ = 0.375 / 1.5 − 0.75 = −0.5 → 0.5.
    expect(measureSyncGroup(out, layers, clips, first, end, 1)).toBe(first + 3);
    expect([out[SYNC_DURATION], out[SYNC_PHASE]]).toEqual([1.5, 0.5]);
    // No member: −1, out untouched.
    out.fill(Number.NaN);
    expect(measureSyncGroup(out, layers, clips, first, end, 2)).toBe(-1);
    expect(Array.from(out)).toEqual([Number.NaN, Number.NaN]);
    // Only the slots asked for: layers 0 and 2 → the 1 s clip alone, φ = 0.3 − 0.125.
    expect(measureSyncGroup(out, layers, clips, first, first + 1, 0)).toBe(first);
    expect(out[SYNC_DURATION]).toBe(1);
    expect(out[SYNC_PHASE]).toBeCloseTo(0.175, 15);
  });

  it('measureSyncGroup: no weighted member gives the plain mean; equal weights, the lowest layer leads', () => {
    const out = new Float64Array(2);
    const idle = layersWith([{ clip: 0, syncGroup: 3, time: 0.5 }, { clip: 1, syncGroup: 3, time: 0.5 }]);
    expect(measureSyncGroup(out, idle, clips, DEFAULT_MAX_LAYERS, 2 * DEFAULT_MAX_LAYERS, 3)).toBe(DEFAULT_MAX_LAYERS);
    expect(Array.from(out)).toEqual([1.5, 0.5]); // (1 + 2) / 2; the first member's phase 0.5 / 1
    const tied = layersWith([{ clip: 3 }, { clip: 1, weight: 0.5, syncGroup: 0, time: 1 }, { clip: 0, weight: 0.5, syncGroup: 0, time: 0.9 }]);
    expect(measureSyncGroup(out, tied, clips, DEFAULT_MAX_LAYERS, 2 * DEFAULT_MAX_LAYERS, 0)).toBe(DEFAULT_MAX_LAYERS + 1);
    expect(Array.from(out)).toEqual([1.5, 0.5]); // (0.5·2 + 0.5·1) / 1; leader 1 / 2
  });
});
