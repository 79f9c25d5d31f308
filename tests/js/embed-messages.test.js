// embed.html's iframe protocol (model/embed-messages.js): what a set message
// may change, and the Share dialog's snippet (?origin= a placeholder, a
// listener for every frame, checked against the embed's origin).
import { describe, expect, test } from 'vitest';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import {
  FRAME_CLASS,
  HEIGHT_MESSAGE,
  ORIGIN_PLACEHOLDER,
  SET_MESSAGE,
  readSetMessage,
} from '../../web/model/embed-messages.js';
import { iframeSnippet } from '../../web/page/share-ui.js';

describe('readSetMessage', () => {
  test('theme, lang and steps, those given and valid', () => {
    expect(readSetMessage({ type: SET_MESSAGE, theme: 'dark', lang: ' zh-CN ', steps: 'scores weights' })).toEqual({
      theme: 'dark',
      lang: 'zh-CN',
      steps: 'scores weights',
    });
    expect(readSetMessage({ type: SET_MESSAGE, steps: ['scores', 'output'] })).toEqual({ steps: 'scores output' });
    expect(readSetMessage({ type: SET_MESSAGE, theme: 'auto' })).toEqual({ theme: 'auto' });
    // Empty steps: all of them (the attribute removed).
    expect(readSetMessage({ type: SET_MESSAGE, steps: '' })).toEqual({ steps: '' });
  });

  test('anything else changes nothing: other types, bad values, extra fields', () => {
    for (const data of [null, 'attention-lab:set', 42, { type: HEIGHT_MESSAGE, height: 9 }, { theme: 'dark' }])
      expect(readSetMessage(data)).toBeNull();
    expect(readSetMessage({ type: SET_MESSAGE, theme: 'purple', lang: '', steps: [1, 2], text: 'x', seed: 3 })).toEqual(
      {},
    );
  });
});

describe('iframeSnippet', () => {
  const src = 'https://lab.example/attention/embed.html?lang=zh&chapters=basics#s=v2.abc';
  const snippet = iframeSnippet(src, 'https://lab.example');

  test('the frame keeps its query and fragment and adds ?origin= the placeholder', () => {
    const url = new URL(snippet.match(/src="([^"]+)"/)[1]);
    expect(url.origin + url.pathname).toBe('https://lab.example/attention/embed.html');
    expect([...url.searchParams]).toEqual([
      ['lang', 'zh'],
      ['chapters', 'basics'],
      ['origin', ORIGIN_PLACEHOLDER],
    ]);
    expect(url.hash).toBe('#s=v2.abc');
    expect(new URL(iframeSnippet('https://lab.example/embed.html#s=1', 'x').match(/src="([^"]+)"/)[1]).search).toBe(
      `?origin=${ORIGIN_PLACEHOLDER}`,
    );
  });

  test('its listener checks the embed’s origin and sizes the frame whose window sent it, of every frame', () => {
    expect(snippet).toContain(`e.origin !== 'https://lab.example'`);
    expect(snippet).toContain(`e.data?.type !== '${HEIGHT_MESSAGE}'`);
    expect(snippet).toContain(`document.querySelectorAll('iframe.${FRAME_CLASS}')`);
    expect(snippet).toContain('frame.contentWindow === e.source');
    expect(snippet).toContain(`class="${FRAME_CLASS}"`);
  });

  test('the dialog tells, in English and Chinese, to replace the placeholder', () => {
    for (const strings of [en, zh]) expect(strings['share.iframeNote']).toContain(ORIGIN_PLACEHOLDER);
  });
});

test('the authors’ docs and page show the snippet’s listener as the dialog writes it', async () => {
  const { readFileSync } = await import('node:fs');
  const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const listener = (origin) => iframeSnippet('https://x.example/embed.html', origin).split('\n').slice(1).join('\n');
  expect(read('web/docs/authors.md')).toContain(listener('https://lab.example'));
  const authors = read('web/authors.html').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  // The authors' page adds a set message before its </script>.
  expect(authors).toContain(listener('https://blog.example').replace(/\n<\/script>$/, ''));
});
