import { addComponent, createWorld, query } from 'bitecs';
import {
  createAnimationWorld,
  createClip,
  createSkeleton,
  drainEachEvent,
  getSkinPalette,
  play,
  spawnCharacter,
  step,
  type EventRecord,
} from 'bitanim';

// The game's own bitecs world, with a component of its own.
const game = createWorld();
export const Health = { value: new Float32Array(1001) };

// bitanim lives in the same world: characters are ordinary entities that also carry animation
// components. Pools are sized once here; frames never allocate.
const animation = createAnimationWorld({ maxEntities: 1000, maxJoints: 64, world: game });

// Assets: a two-joint skeleton (hips → spine) and a looping 1 s clip that bends the spine.
const skeleton = createSkeleton({
  names: ['hips', 'spine'],
  parents: [-1, 0],
  rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, /* spine: */ 0, 0.2, 0, 0, 0, 0, 1, 1, 1, 1],
});
const bend = Math.sin(0.25); // a 0.5 rad bend about X, as a quaternion (sin θ/2, 0, 0, cos θ/2)
const frames = [
  ...[0, 1, 0, 0, 0, 0, 1, 1, 1, 1], ...[0, 0.2, 0, 0, 0, 0, 1, 1, 1, 1], // t = 0
  ...[0, 1, 0, 0, 0, 0, 1, 1, 1, 1], ...[0, 0.2, 0, bend, 0, 0, Math.cos(0.25), 1, 1, 1], // t = 0.5
  ...[0, 1, 0, 0, 0, 0, 1, 1, 1, 1], ...[0, 0.2, 0, 0, 0, 0, 1, 1, 1, 1], // t = 1 (seam = first frame)
];
const sway = createClip({ skeleton, frameRate: 2, frames, events: [{ time: 0.5, name: 'creak' }] });

// Spawn characters, give them game components too, and play.
for (let n = 0; n < 100; n++) {
  const eid = spawnCharacter(animation, skeleton);
  addComponent(game, eid, Health);
  Health.value[eid] = 100;
  play(animation, eid, sway, { time: n / 100, speed: 0.8 + n / 250 });
}

// Events reach a visitor defined once, so draining them every frame allocates nothing.
const onEvent = (event: EventRecord): void => {
  if (event.name === 'creak') Health.value[event.eid]! -= 1;
};

// The game loop: step the animation world, react to events, hand palettes to the renderer.
export function frame(dt: number): number {
  step(animation, dt);
  drainEachEvent(animation, onEvent);
  let uploaded = 0;
  for (const eid of query(game, [Health])) {
    const palette = getSkinPalette(animation, eid); // J × 12 floats: upload as a bone texture
    uploaded += palette.length;
  }
  return uploaded;
}
