/**
 * Part of `?selftest=threads`: `transactionalFrames` in this browser (test/parallel/transactionalFrames.test.ts
 * is the full check in Node). A 2-thread world created with it and a `step` twin get the threads
 * selftest's crowd and step alike; then one character's pool row is corrupted (a skeleton id that
 * does not exist), so a system throws on it mid-frame on whichever thread runs its chunk. The
 * frame must reject and leave every pool and the clock as before the call; with the row put back,
 * the world must step on equal to its twin, which never saw the failed frame.
 */
import { disposeAnimationWorld, step, stepParallel, type Clip } from 'bitanim';
import { checkpoint, COUNT, difference, DT, makeRun } from './threads.js';

const BEFORE = 10;
const AFTER = 10;

/** What the page reports. */
export interface TransactionalSelftest {
  /** The failed frame's error message ('' when it did not reject). */
  message: string;
  /** Every pool, the events and the clock as before the rejected call. */
  unchanged: boolean;
  /** After the row was put back, `AFTER` frames equal to the twin's. */
  stepsOn: boolean;
}

/** Runs the check; never throws (an error lands in `message`). */
export async function runTransactionalSelftest(a: Clip, b: Clip): Promise<TransactionalSelftest> {
  const twin = makeRun(1, a, b);
  const threaded = makeRun(2, a, b, 'auto', true);
  const result: TransactionalSelftest = { message: '', unchanged: false, stepsOn: false };
  try {
    for (let f = 1; f <= BEFORE; f++) {
      twin.before(f);
      threaded.before(f);
      step(twin.world, DT);
      await stepParallel(threaded.world, DT);
    }
    const { Character } = threaded.world.components;
    // In one of the last chunks (ids 1 … COUNT, nobody removed yet), and without update-rate LOD
    // (the crowd gives it to every second character), so this frame's systems run on it.
    const victim = COUNT - 1;
    const id = Character.skeleton[victim]!;
    Character.skeleton[victim] = 60_000;
    // Checkpoints drain the events: drained first, both "before" and "after" hold none but the
    // failed frame's, which must be none.
    await checkpoint(twin.world);
    await checkpoint(threaded.world);
    const before = await checkpoint(threaded.world);
    result.message = await stepParallel(threaded.world, DT).then(() => '', (error: unknown) => (error instanceof Error ? error.message : String(error)));
    const after = await checkpoint(threaded.world);
    result.unchanged = after.hash === before.hash;
    if (!result.unchanged) result.message += ` [differs: ${difference(before, after)}]`;
    Character.skeleton[victim] = id;
    for (let f = BEFORE + 1; f <= BEFORE + AFTER; f++) {
      twin.before(f);
      threaded.before(f);
      step(twin.world, DT);
      await stepParallel(threaded.world, DT);
    }
    result.stepsOn = (await checkpoint(twin.world)).hash === (await checkpoint(threaded.world)).hash;
  } catch (error) {
    result.message = `error: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    disposeAnimationWorld(twin.world);
    disposeAnimationWorld(threaded.world);
  }
  return result;
}
