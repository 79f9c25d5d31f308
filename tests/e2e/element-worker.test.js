// <attention-lab> with a large config computes off the main thread, in the
// page's engine worker (one for every element of the page, as for the page
// itself), with the same numbers as the engine here; a small config still
// runs on the main thread, and a worker that cannot load falls back to it;
// the standalone element (one script, no worker) runs every config there.
import { expect, test } from 'vitest';
import { useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();

// 512 tokens at dModel 64: far above the main-thread limit (engine-client.js), so the worker's.
const LARGE = `text="${Array.from({ length: 512 }, (_, i) => `w${i}`).join(' ')}" d-model="64" heads="2" steps="output"`;
const SMALL = 'text="the cat sat" d-model="8" heads="2" steps="output"';
const ENGINE_WASM = /attention-lab-wasm-[\w-]+\.wasm$/;

/** A page of `body` with the element's script; the workers it starts and the requests for the worker script. */
async function elementPage(name, body, { before } = {}) {
  const context = await suite.browser.newContext({ viewport: { width: 1200, height: 1600 } });
  const page = await context.newPage();
  const problems = [];
  const workers = [];
  const workerScripts = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('worker', (worker) => workers.push(worker));
  page.on('request', (r) => /engine-worker-[\w-]+\.js$/.test(r.url()) && workerScripts.push(r.url()));
  const html = `<!doctype html>${body}<script type="module" src="attention-lab-element.js"></script>`;
  await page.route(`${suite.server.url}${name}`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await before?.(page);
  await page.goto(`${suite.server.url}${name}`);
  return { page, problems, workers, workerScripts, close: () => context.close() };
}

const ready = (page, ids) =>
  page.waitForFunction((ids) => ids.every((id) => document.getElementById(id)?.result), ids, { timeout: 30_000 });

/** The element's config (its attributes over the default example) and its result's output, as plain arrays. */
const shown = (page, id) =>
  page.evaluate((id) => {
    const el = document.getElementById(id);
    const { output } = el.result.tensors;
    return { config: el.configObject, tokens: el.result.tokens[0].length, output: Array.from(output.data) };
  }, id);

/** The engine's .wasm files fetched by the page's main thread. */
const wasmHere = (page) =>
  page.evaluate((source) => {
    const pattern = new RegExp(source);
    return performance.getEntriesByType('resource').filter((entry) => pattern.test(entry.name)).length;
  }, ENGINE_WASM.source);

test('a large config computes in the worker, with the engine numbers; the main thread never loads the engine', async () => {
  const { page, problems, workers, workerScripts, close } = await elementPage(
    '__worker.html',
    `<attention-lab id="a" ${LARGE}></attention-lab><attention-lab id="b" ${LARGE} seed="7"></attention-lab>`,
  );
  await ready(page, ['a', 'b']);
  // One worker for both elements, and it loaded the engine; this thread did not (it ran nothing).
  expect(workers).toHaveLength(1);
  expect(workerScripts).toHaveLength(1);
  const inWorker = await workers[0].evaluate(
    (source) => performance.getEntriesByType('resource').filter((e) => new RegExp(source).test(e.name)).length,
    ENGINE_WASM.source,
  );
  expect(inWorker).toBe(1);
  expect(await wasmHere(page)).toBe(0);
  for (const id of ['a', 'b']) {
    const { config, tokens, output } = await shown(page, id);
    expect(tokens).toBe(512);
    expect(output).toEqual(Array.from(suite.lab.run(config).tensors.output.data));
  }
  // The numbers are on the screen too: the output's first cell (in the canvas heatmap's corner table), at 4 decimals.
  const cell = await page.waitForFunction(
    () =>
      document.getElementById('a').shadowRoot.querySelector('table[data-matrix="output"] td[data-i="0"][data-j="0"]')
        ?.textContent,
  );
  const { output } = await shown(page, 'a');
  expect(Number((await cell.jsonValue()).replace('\u2212', '-'))).toBeCloseTo(output[0], 3);

  // A small config on the same page runs here, and starts no other worker.
  await page.evaluate((attributes) => {
    document.body.insertAdjacentHTML('beforeend', `<attention-lab id="c" ${attributes}></attention-lab>`);
  }, SMALL);
  await ready(page, ['c']);
  const small = await shown(page, 'c');
  expect(small.output).toEqual(Array.from(suite.lab.run(small.config).tensors.output.data));
  expect(await wasmHere(page)).toBe(1);
  expect(workers).toHaveLength(1);
  expect(problems).toEqual([]);
  await close();
});

test('a worker script that is missing: the large config runs on the main thread, with the same numbers', async () => {
  const { page, workerScripts, close } = await elementPage(
    '__no-worker.html',
    `<attention-lab id="a" ${LARGE}></attention-lab>`,
    {
      before: (p) => p.route(/engine-worker-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: 'not found' })),
    },
  );
  await ready(page, ['a']);
  expect(workerScripts.length).toBeGreaterThan(0); // it was asked for
  expect(await wasmHere(page)).toBe(1); // and the engine ran here instead
  const { config, tokens, output } = await shown(page, 'a');
  expect(tokens).toBe(512);
  expect(output).toEqual(Array.from(suite.lab.run(config).tensors.output.data));
  await close();
});

test('the standalone element (one script, no worker): a large config runs on the main thread, with the same numbers', async () => {
  const context = await suite.browser.newContext();
  const page = await context.newPage();
  const workers = [];
  page.on('worker', (worker) => workers.push(worker));
  const html = `<!doctype html><attention-lab id="a" ${LARGE}></attention-lab><script src="attention-lab-element.standalone.js"></script>`;
  await page.route(`${suite.server.url}__standalone.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: html }),
  );
  await page.goto(`${suite.server.url}__standalone.html`);
  await ready(page, ['a']);
  const { config, tokens, output } = await shown(page, 'a');
  expect(tokens).toBe(512);
  expect(output).toEqual(Array.from(suite.lab.run(config).tensors.output.data));
  expect(workers).toEqual([]);
  await context.close();
});
