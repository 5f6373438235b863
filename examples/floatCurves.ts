/**
 * examples/floatCurves.ts (docs/importing.md, "Float curves"): a face's curves blended with the
 * layers — a blink clip, a smile clip on a second layer at half weight, then an inertialized
 * switch — read through `getCurves` and handed to morph targets by name, mapped once.
 * test/examples/floatCurves.test.ts runs it.
 */
// #region imports
import { createAnimationWorld, createClip, createSkeleton, curveIndex, getCurves, play, spawnCharacter, step, transition } from 'bitanim';

// #endregion

/** The face's curves after each of the steps below, and the morph weights at the end. */
export function faceCurves() {
  // #region assets
  const rest = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]; // one joint: the head
  const skeleton = createSkeleton({
    names: ['head'], parents: [-1], rest,
    curves: [{ name: 'Face.Blink' }, { name: 'Face.Smile', default: 0.2 }], // the order getCurves keeps
  });
  const frames = (n: number) => Array.from({ length: n }, () => rest).flat();
  const blink = createClip({ skeleton, frameRate: 10, frames: frames(5), name: 'blink', curves: [{ name: 'Face.Blink', values: [0, 1, 1, 0, 0] }] });
  const smile = createClip({ skeleton, frameRate: 10, frames: frames(2), name: 'smile', curves: [{ name: 'Face.Smile', values: [1, 1] }] });
  // #endregion

  // #region play
  const world = createAnimationWorld({ maxEntities: 100, maxJoints: 8, maxCurves: 4 }); // default maxCurves: 8
  const eid = spawnCharacter(world, skeleton);
  const curves = getCurves(world, eid); // live: [Face.Blink, Face.Smile], rewritten by every step
  const blinkAt = curveIndex(skeleton, 'Face.Blink'), smileAt = curveIndex(skeleton, 'Face.Smile');
  play(world, eid, blink, { time: 0.15, speed: 0 });
  play(world, eid, smile, { layer: 1, weight: 0.5 });
  step(world, 1 / 60);
  // Layer 1 (weight 0.5, blend 'layer', the default) lerps layer 0's curves toward its own:
  // Blink = (1 − 0.5)·1 + 0.5·0 = 0.5 (smile lacks it: its default, 0);
  // Smile = (1 − 0.5)·0.2 + 0.5·1 = 0.6 (blink lacks it: 0.2).
  const blended = [curves[blinkAt]!, curves[smileAt]!];
  // #endregion

  // #region switch
  transition(world, eid, smile, { duration: 0.3 }); // layer 0 switches; the curves decay like the pose
  step(world, 1 / 60);
  const justAfter = [curves[blinkAt]!, curves[smileAt]!]; // still near `blended`: no pop
  for (let i = 0; i < 30; i++) step(world, 1 / 60);
  const settled = [curves[blinkAt]!, curves[smileAt]!]; // both layers play smile: Blink 0, Smile 1
  // #endregion

  // #region morph
  // A mesh's morph targets take the curves of their names: map once, copy per frame.
  const targetNames = ['Face.Smile', 'Face.Blink'];      // e.g. mesh.morphTargets.map((t) => t.name)
  const slots = targetNames.map((name) => curveIndex(skeleton, name));
  const weights = new Float32Array(slots.length);
  for (let k = 0; k < slots.length; k++) weights[k] = curves[slots[k]!]!; // → skinVertices or the GPU's influences
  // #endregion
  return { blended, justAfter, settled, weights };
}
