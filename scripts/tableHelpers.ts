/**
 * What the table scripts (lodTable, fitTable) share: progress on stderr and tolerance labels.
 */
import cliProgress from 'cli-progress';

/** Progress on stderr: a cli-progress bar on a terminal, plain lines otherwise (logs, CI). */
export function createProgress(name: string, total: number): { update(done: number, label: string): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${name} [{bar}] {value}/{total} reductions | {label}`, stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { label: '' });
    return { update: (done, label) => bar.update(done, { label }), stop: () => bar.stop() };
  }
  const start = performance.now();
  return {
    update(done, label) {
      process.stderr.write(`${name}: ${done}/${total} ${label} (${((performance.now() - start) / 1000).toFixed(0)} s)\n`);
    },
    stop() {},
  };
}

/** A tolerance in metres as the tables print it: "5 mm", "1 cm". */
export function tolerance(metres: number): string {
  return metres >= 0.01 ? `${metres * 100} cm` : `${metres * 1000} mm`;
}
