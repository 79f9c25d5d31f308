// The entry of dist/attention-lab-element.standalone.js: the element in one
// classic script (an IIFE) with the engine's wasm, both languages' strings and
// the CSS inside, so a page loads it with one <script src> (module or not),
// from any host or from file://, and it fetches nothing else. It defines
// <attention-lab> and adds no globals. vite.standalone.config.js builds it.
import './attention-lab-element.js';
