// English strings of the authors' docs: the authors' page (authors.html,
// element/authors.js) and the element's manifest (custom-elements.json), whose
// attributes, events and custom properties they describe; registered there
// (addEnglish): no other page carries them. Chinese has them in zh.js.
export default {
  'element.attribute.config': 'JSON merged over the other attributes: any config field, weight edits included.',
  'element.attribute.preset':
    "A preset's key (tutorial, multi-head, …): its settings under the other attributes, and its note shown.",
  'element.event.change': 'After each run, with the result (tokens, vocab and every tensor) as detail.',
  'element.event.error':
    'When an attribute is not valid, with {field, code, params, message} as detail; the element shows it inline.',
  'element.css.negative': 'Heatmap colour of the most negative value (signed scale).',
  'element.css.zero': 'Heatmap colour of 0 on the signed scale (default: the background).',
  'element.css.positive': 'Heatmap colour of the most positive value (signed scale).',
  'element.css.probabilityLow': 'Heatmap colour of probability 0 (with -high, a two-colour scale replaces viridis).',
  'element.css.probabilityHigh': 'Heatmap colour of probability 1.',
  'element.css.head': "Head {h}'s colour: its tab, its bands, its links and its small heatmap.",
  'element.css.background': 'Background (light or dark by the theme).',
  'element.css.color': 'Text colour.',
  'element.css.muted': 'Secondary text colour.',
  'element.css.line': 'Borders and rules.',
  'element.css.panel': 'Background of the explanation and note panels.',
  'element.css.accent': 'Links, focus and selection.',
  'element.css.error': 'Colour of the inline error.',
  'element.css.chip': 'Background of the token chips.',
  'element.css.font': 'Font family of the text.',
  'element.css.mono': 'Font family of numbers and code.',
  'element.css.radius': 'Corner radius of the box.',
  'authors.css.property': 'custom property',
  'authors.css.parts': 'Parts for <code>::part()</code>:',
  'authors.back': '← Attention Lab',
  'authors.title': 'Attention Lab for tutorial authors',
  'authors.intro':
    'Put the calculator in your own page, link to exactly what you set up, and paste its numbers and code into your text. The numbers are the ones PyTorch prints for the same seed and settings.',
  'authors.element.heading': 'One script tag: <code>&lt;attention-lab&gt;</code>',
  'authors.element.body':
    "The element renders in Shadow DOM, loads the engine only when it nears the viewport, and every element on a page shares one engine instance. Two builds: <code>dist/attention-lab-element.standalone.js</code>, one self-contained classic script in English (the engine, the English strings and the styles inside; it works from <code>file://</code>; what only some pages need, the Chinese strings and the trained model's and the checkpoint's views, it loads from the <code>standalone/</code> folder beside it, and <code>model=\"tiny\"</code> fetches the trained model's files from the <code>tiny/</code> folder), as above, or <code>attention-lab-element.standalone.zh.js</code>, the same with the Chinese strings inside; or <code>dist/attention-lab-element.js</code>, an ES module that loads the engine and the Chinese strings from the <code>assets/</code> folder beside it (<code>import 'attention-lab/element'</code> after <code>npm i attention-lab</code>).",
  'authors.attributes.heading': 'Attributes',
  'authors.attributes.attribute': 'attribute',
  'authors.attributes.field': 'config field',
  'authors.attributes.type': 'type',
  'authors.attributes.default': 'default',
  'authors.attributes.meaning': 'meaning',
  'authors.attributes.body':
    "The table is the engine's own config schema: every config field is an attribute named as the command line's flag, and <code>config</code> takes JSON merged over them. Every attribute is also a typed property (<code>el.dModel = 16</code>, <code>el.heads = 4</code>, <code>el.qkvBias = false</code>, <code>el.editable = true</code>, <code>el.config = {…}</code>); changing either recomputes. After each run the element fires <code>attention-change</code> with the result as <code>event.detail</code> (tokens, vocab and every tensor as a <code>Float32Array</code>); a bad attribute fires <code>attention-error</code> and shows an inline message naming it.",
  'authors.class.heading': 'In class',
  'authors.class.body':
    'The steps are numbered and listed at the top with their shapes; a box jumps to its step. Readers can follow one token (the <em>Follow token</em> menu, or a click on a row label): its row lights up in every step, its column wherever it is a key; Esc clears it. <code>mode="steps"</code> shows one step at a time, larger, with a short narration that quotes the result\'s numbers, moved with ← → (PageUp/PageDown, Home/End) or the Previous/Next buttons.',
  'authors.styling.heading': 'Styling',
  'authors.styling.body':
    "Set these custom properties on the element (they reach into its shadow root). The heatmap and head colours are read when it draws, and again when its theme, the reader's colour scheme or the site's light/dark signals on <code>&lt;html&gt;</code> or <code>&lt;body&gt;</code> change (a site's dark-mode switch). Whatever the colours, every number on a heatmap is black or white, whichever contrasts more: at least 4.5:1. <code>custom-elements.json</code> in the package lists all of this for editors.",
  'authors.iframe.heading': 'An iframe',
  'authors.iframe.body':
    "The Share button on the main page gives an <code>&lt;iframe&gt;</code> snippet for <code>embed.html</code>, whose URL fragment holds the whole setup in a compact, versioned encoding (<code>#s=v2.…</code>). Its query says how it is shown, as the element's attributes: <code>lang</code> (<code>zh</code>, <code>zh-CN</code>, …), <code>steps</code>, <code>theme</code>, <code>head</code> and <code>compact</code>. With <code>origin=</code> your page's origin it posts its height, and nothing else, to that origin only, so you can size the frame, and it takes <code>{type: 'attention-lab:set', theme, lang, steps}</code> (any of the three) from that origin only, applied without a reload; without it, it posts nothing and takes nothing. The listener below sizes every such frame on the page, each from its own window, and takes heights only from the origin <code>embed.html</code> is served from (the Share dialog's snippet writes <code>origin=https://your-site.example</code>, for you to replace). Here the blog serves <code>dist/</code> itself, under <code>/attention-lab/</code>, so both origins are the blog's:",
  'authors.export.heading': 'Numbers and code for your text',
  'authors.export.body':
    'Under every matrix: copy it as CSV, JSON, a LaTeX <code>bmatrix</code> or a NumPy literal. At the top: download every tensor as one JSON file or as a NumPy <code>.npz</code> (<code>np.load</code> reads it), and <em>Copy as PyTorch</em> for a short script that rebuilds the same embeddings, weights, mask and dropout and prints the same tensors.',
  'authors.offline.heading': 'Offline',
  'authors.offline.body':
    '<code>npm run build</code> writes <code>dist/</code>, a static site with relative paths (host it in any folder), <code>dist/attention-lab.html</code>, one self-contained file that works from <code>file://</code> with no network, and <code>dist/attention-lab-element.standalone.js</code>, the element as one self-contained script.',
  'authors.recipes.heading': 'In your site: HTML, VitePress, Docusaurus, Astro, MkDocs, Hexo, Jupyter',
  'authors.recipes.body':
    "Each recipe below runs in the tests exactly as written, on the npm package installed from its tarball. The addresses are jsDelivr's (<code>https://unpkg.com/attention-lab@…/…</code> serves the same files); or <code>npm i attention-lab</code> and use <code>node_modules/attention-lab/dist/</code>.",
  'authors.recipes.html.heading': 'A plain HTML page',
  'authors.recipes.html.body':
    'One classic script in the head. Saved next to the page, the script makes it work offline, opened as a file (<code>file://</code>); <code>&lt;script type="module" src&gt;</code> works as well.',
  'authors.recipes.vitepress.heading': 'VitePress 1.6',
  'authors.recipes.vitepress.body':
    'After <code>npm i attention-lab</code>: tell Vue that <code>attention-lab</code> is a custom element, and import the element only in the browser (<code>vitepress build</code> renders the pages in Node first, where no element can be defined).',
  'authors.recipes.vitepress.page':
    "In a page, bind <code>theme</code> to VitePress's <code>isDark</code>, so the element follows the light/dark switch:",
  'authors.recipes.docusaurus.heading': 'Docusaurus 3',
  'authors.recipes.docusaurus.body':
    'After <code>npm i attention-lab</code>: import the element from a client module, only in the browser (Docusaurus renders every page in Node first, where no element can be defined), name the module in the config, and write the tag in any <code>.md</code> or <code>.mdx</code> page. The element follows the site\'s light/dark switch (<code>html[data-theme="dark"]</code>) by itself.',
  'authors.recipes.docusaurus.faster':
    "Docusaurus Faster bundles with rspack (and SWC and Lightning CSS) in place of webpack: <code>npm i @docusaurus/faster</code>, then this line in the config's object (<code>faster: true</code> also renders the pages in worker threads, which need the v4 flags). With either bundler the build prints no warning.",
  'authors.recipes.astro.heading': 'Astro 5',
  'authors.recipes.astro.body':
    'After <code>npm i attention-lab</code>: import the element in the page\'s <code>&lt;script&gt;</code>, which Astro bundles for the browser only; the tag stays in the page\'s HTML. A site whose switch sets <code>class="dark"</code> (or <code>data-theme="dark"</code>) on <code>&lt;html&gt;</code> turns the element dark with it.',
  'authors.recipes.mkdocs.heading': 'MkDocs with the Material theme',
  'authors.recipes.mkdocs.body':
    "Load the standalone script as an extra script in <code>mkdocs.yml</code> (from the CDN, or saved into <code>docs/</code> with the <code>standalone/</code> folder beside it, whose parts it loads when needed), and write the tag in any page. Material's palette toggle (<code>slate</code>) turns the element dark too, and a site in Chinese (<code>theme: { language: zh }</code>) gets it in Chinese.",
  'authors.recipes.hexo.heading': 'Hexo 7',
  'authors.recipes.hexo.body':
    "After <code>npm i attention-lab</code>: a script in the site's <code>scripts/</code> folder serves the standalone element from the package, with the parts it loads from beside it (<code>standalone/</code>), and adds it to every page's <code>&lt;head&gt;</code>; write the tag in any post or page.",
  'authors.recipes.jupyter.heading': 'A Jupyter notebook cell',
  'authors.recipes.jupyter.body':
    "In the classic Notebook, JupyterLab (a trusted notebook: JupyterLab runs a cell's scripts only then) and <code>jupyter nbconvert --execute --to html</code>. From the CDN:",
  'authors.recipes.jupyter.offline':
    "Offline: the script's text inside the notebook, read from the package installed in the notebook's folder:",
  'authors.gallery.heading': 'Gallery: the presets, live',
  'authors.gallery.body':
    'Each preset mirrors a classic PyTorch program (<code>tests/reference/programs/</code> in the repository) and shows the numbers it prints. <code>preset="…"</code> takes its settings (in the element\'s language), shows its note, and lets any attribute override them: <code>&lt;attention-lab preset="multi-head" heads="3"&gt;</code>.',
};
