#!/usr/bin/env node
// The `bitanim` executable (package.json "bin"): see ./main.ts for the commands. Reports go to
// stdout; errors, warnings and the progress bar to stderr.
import { run } from './main.js';

process.exitCode = await run(process.argv.slice(2), console.log, { err: console.error, progress: process.stderr });
