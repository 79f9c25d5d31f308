// The CLI (web/cli/cli.js) run in this process on strings: the same command
// line, exit code, stdout and stderr as `node web/cli/attention-lab.js …`,
// without starting Node and the engine for every case. What only a process
// shows (a pipe closed early, a terminal, the exit status) is left to the
// tests that spawn attention-lab.js.
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../web/cli/cli.js';

export const CLI_PATH = fileURLToPath(new URL('../../web/cli/attention-lab.js', import.meta.url));

/** The locale variables of an English shell (what the tests' env starts from). */
export const ENGLISH = { LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };

/**
 * Runs `attention-lab …args` with `input` on stdin and `env` over an English
 * shell's: {status, stdout, stderr} (stdout as text; stdoutBytes as a Buffer).
 */
export async function run(args, input = '', env = {}) {
  const chunks = [];
  const errors = [];
  const stdout = Object.assign(new EventEmitter(), {
    isTTY: false,
    write: (chunk) => chunks.push(Buffer.from(chunk)) > 0,
  });
  const stderr = { write: (chunk) => errors.push(String(chunk)) > 0 };
  const status = await runCli(args, {
    stdout,
    stderr,
    env: { ...ENGLISH, ...env },
    readStdin: () => input ?? '',
  });
  const stdoutBytes = Buffer.concat(chunks);
  return { status, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: errors.join('') };
}
