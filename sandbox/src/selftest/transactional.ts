/**
 * Part of `?selftest=threads`: `transactionalFrames` in this browser (test/parallel/transactionalFrames.test.ts
 * is the full check in Node). A 2-thread world created with it and a `step` twin get the threads
 * selftest's crowd and step alike; then one character's pool row is corrupted (a skeleton id that
 * does not exist), so a system throws on it mid-frame on whichever thread runs its chunk. The
 * frame must reject and leave every pool and the clock as before the call; with the row put back,
 * the world must step on equal to its twin, which never saw the failed frame.
 */
import { disposeAnimationWorld, step, stepParallel, type Clip } from 'bitanim';
import { checkpoint, COUNT, DT, makeRun } from './threads';

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
    const victim = COUNT - 2; // in one of the last chunks (ids 1 … COUNT, nobody removed yet)
    const id = Character.skeleton[victim]!;
    Character.skeleton[victim] = 60_000;
    await checkpoint(twin.world); // drains the twin's events as the next line drains the world's
    const before = await checkpoint(threaded.world);
    result.message = await stepParallel(threaded.world, DT).then(() => '', (error: unknown) => (error instanceof Error ? error.message : String(error)));
    result.unchanged = (await checkpoint(threaded.world)).hash === before.hash;
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
