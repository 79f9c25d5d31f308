// The entry of dist/attention-lab-element.standalone.js (and .zh.js): the
// element in one classic script (an IIFE) with the engine's wasm, one
// language's strings and the CSS inside, so a page loads it with one
// <script src> (module or not), from any host or from file://; what it loads
// later (the other language, the trained and checkpoint views) are parts
// beside it (standalone-parts.js). It defines
// <attention-lab> and adds no globals. vite.standalone.config.js builds it.
import './attention-lab-element.js';
