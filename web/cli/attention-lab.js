#!/usr/bin/env node
// The attention-lab command (package.json "bin"): cli.js on this process's streams.
//   npx attention-lab "He sat by the bank" --heads 2      (--help lists every flag)
import { readFileSync } from 'node:fs';
import { runCli } from './cli.js';

// A reader that stops early (| head) closes the pipe after our last write: not an error.
// Errors while a write is pending are the CLI's to say (cli.js stdoutOutput).
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  readStdin: () => readFileSync(0, 'utf8'),
});
