#!/usr/bin/env node
// The `bitanim` executable (package.json "bin"): see ./main.ts for the commands.
import { run } from './main.js';

process.exitCode = await run(process.argv.slice(2));
