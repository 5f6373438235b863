/**
 * examples/differenceClips.ts (docs/difference-clips.md): "tired" taken from a tired run and
 * laid half-strength over a walk; a lean taken against one idle pose.
 * test/examples/guides.test.ts runs it.
 */
// #region imports
import { createDifferenceClip, play } from 'bitanim';

// #endregion
import type { AnimationWorld, Clip } from 'bitanim';

/** The clips the guide names: a walk, a run and a tired run, an idle and a leaning idle (one skeleton). */
export interface Clips { walk: Clip; run: Clip; tiredRun: Clip; idle: Clip; leanIdle: Clip }

/** Plays `walk` half as tired as `tiredRun` is against `run` on `eid`; returns the difference clips. */
export function halfTiredWalk(world: AnimationWorld, eid: number, { walk, run, tiredRun, idle, leanIdle }: Clips): { tired: Clip; lean: Clip } {
  // #region play
  const tired = createDifferenceClip(tiredRun, run);           // D(t) = S(t)·R(t)⁻¹, stride by stride
  play(world, eid, walk);                                      // T, the override blend
  play(world, eid, tired, { layer: 1, additive: true, weight: 0.5 }); // lerp(T, D·T, 0.5)

  // One reference pose instead of a clip: the same as play's single-pose reference.
  const lean = createDifferenceClip(leanIdle, idle, { referenceTime: 0 });
  // #endregion
  return { tired, lean };
}
