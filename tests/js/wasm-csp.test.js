// A page whose Content-Security-Policy forbids compiling WebAssembly: the
// browser's refusal is recognised (and said as engine-blocked-by-csp), other
// compile failures are not. The messages are the browsers' own.
import { describe, expect, test } from 'vitest';
import { AttentionEngineError, messageOf } from '../../web/api/errors.js';
import { compileWasm, isWasmBlockedByCsp } from '../../web/api/wasm-instance.js';

const error = (name, message) => Object.assign(new Error(message), { name });

describe('isWasmBlockedByCsp', () => {
  test('the refusals of Chromium (as Chromium 156 words it), Firefox and Safari', () => {
    for (const refusal of [
      error(
        'CompileError',
        `WebAssembly.compile(): Compiling or instantiating WebAssembly module violates the following Content Security policy directive because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: "script-src 'self'".`,
      ),
      error('CompileError', 'call to WebAssembly.compile() blocked by CSP'),
      error(
        'EvalError',
        "Refused to create a WebAssembly object because 'unsafe-eval' or 'wasm-unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: \"script-src 'self'\"",
      ),
    ])
      expect(isWasmBlockedByCsp(refusal), refusal.message).toBe(true);
  });

  test('not a broken module, a failed fetch or any other error', () => {
    for (const other of [
      error('CompileError', 'WebAssembly.compile(): expected magic word 00 61 73 6d, found 3c 21 64 6f @+0'),
      error('TypeError', 'Failed to fetch'),
      error('Error', "script-src needs 'unsafe-eval'"), // the right words, not the browser's kind of error
      null,
      undefined,
    ])
      expect(isWasmBlockedByCsp(other)).toBe(false);
  });
});

test('the engine error it becomes names wasm-unsafe-eval and warns off unsafe-eval', () => {
  const message = messageOf('engine-blocked-by-csp', {});
  expect(message).toContain("add 'wasm-unsafe-eval' to its script-src");
  expect(message).toContain("not 'unsafe-eval'");
  expect(AttentionEngineError.of('engine-blocked-by-csp').code).toBe('engine-blocked-by-csp');
});

test('compileWasm passes other failures through unchanged', async () => {
  const failure = await compileWasm(new Uint8Array([1, 2, 3, 4])).catch((e) => e);
  expect(failure).toBeInstanceOf(WebAssembly.CompileError);
});
