// The host of the view, one for the page and one for each <attention-lab>:
// it runs the engine on the config its shell gives (on this thread when
// small, in the page's one worker when large: engine-client.js), shows the
// result in the pipeline view (controller.js), keeps the UI language and the
// heatmaps' palette, shows the trained model (model = tiny) and a checkpoint
// the reader opens (model = checkpoint) each in its own view, imported the
// first time, and runs the steppers on the config shown.
// The shells keep their DOM: the page its form, panels, share UI and teacher
// tools (page/main.js); the element its attributes, shadow root and events
// (element/attention-lab-element.js).
import { TINY_MODEL } from '../../api/index.js';
import { BUNDLED_LANGUAGE, loadLanguage, translator } from '../../i18n/index.js';
import { watchColorScheme } from '../common/color-scheme.js';
import { touchWording } from '../common/touch.js';
import { PipelineController } from './controller.js';
import { createEngineClient } from './engine-client.js';
import { loadStepsFor } from '../steps/registry.js';
import { runSettings } from '../../model/run-settings.js';

// The engine's errors for a sentence or head the result no longer has (fewer of them now).
const SELECTION_FIELDS = new Set(['options.batch', 'options.head']);

/** The options of `options` that the trained view takes, those given only. */
const trainedOptions = ({ t, theme, decimals }) =>
  Object.fromEntries(Object.entries({ t, theme, decimals }).filter(([, value]) => value !== undefined));

export class AttentionHost {
  /** The pipeline view (controller.js). */
  controller;
  /** The engine client (engine-client.js): runs, steppers and the tiny model's weights. */
  engine;
  /** The UI language's translator ("tap" on a touch screen); the bundled language's until its own has loaded. */
  t = touchWording(translator(BUNDLED_LANGUAGE));
  /** The trained model's view (trained/trained-view.js), once shown; null before. */
  trained = null;
  /** The checkpoint view (checkpoint/checkpoint-view.js), once shown; null before. */
  checkpoint = null;
  /** The config of the result shown (the steppers run it); null before the first. */
  shownConfig = null;
  #hooks;
  #trainedBox;
  #trainedLoading = null;
  #checkpointBox;
  #checkpointLoading = null;
  /** The palette last given to the views; null before the first. */
  #shownTheme = null;
  #runs = 0;
  #shows = 0; // show() calls so far
  #shownAsk = 0; // the call whose result is shown: an older one that finishes later shows nothing
  #languages = 0;
  #languageAsks = 0;
  #stopWatching = null;

  /**
   * parts: the controller's (controller.js), trained and checkpoint, the
   * boxes of the trained model's view and of the checkpoint view. hooks:
   * {theme() -> the palette's key now (a shell resolves "auto" and its custom
   * colours), isTrained() -> whether the trained model is chosen now,
   * isCheckpoint() -> whether the checkpoint is, onEditsChange(),
   * onSelectionChange?() (the shell runs again: see controller.js), trained?:
   * the trained view's onChange, onResult and onError (trained-view.js),
   * checkpoint?: the checkpoint view's onResult and onError}. engine: the engine
   * client to use (engine-client.js; by default a new one, whose large runs
   * go to the worker the page's clients share).
   */
  constructor(
    { trained, checkpoint, ...parts },
    {
      theme,
      isTrained,
      isCheckpoint,
      trained: trainedHooks = {},
      checkpoint: checkpointHooks = {},
      ...controllerHooks
    },
    engine,
  ) {
    this.engine = engine ?? createEngineClient();
    this.#hooks = { theme, isTrained, isCheckpoint, trainedHooks, checkpointHooks };
    this.#trainedBox = trained;
    this.#checkpointBox = checkpoint;
    this.controller = new PipelineController(parts, {
      ...controllerHooks,
      // The steppers' figures come from the engine too (in the worker when large), for the config shown.
      runStepper: (method, options) => this.engine.stepper(method, this.shownConfig, options),
    });
  }

  /** Whether a run, a language, a large result's slices, the steppers or the trained view are under way. */
  get busy() {
    const { controller } = this;
    return (
      this.#runs > 0 ||
      this.#languages > 0 ||
      controller.building ||
      controller.steppersBusy ||
      !!this.trained?.busy ||
      !!this.checkpoint?.busy
    );
  }

  /**
   * Runs `config` and shows its result, with the view options that
   * viewOptions(result) gives (it may throw: nothing is shown then). With
   * `selection`, the run holds the shown sentence and head only, and a
   * selection the result no longer has goes back to the first ones. Resolves
   * with the result, or null when a newer run superseded it; rejects with the
   * problem ({field, code, params, message}).
   */
  async show(config, { selection = false, viewOptions = () => ({}) } = {}) {
    let result;
    const ask = ++this.#shows;
    this.#runs++;
    try {
      result = await this.engine.run(config, selection ? this.controller.runOptions() : {});
      // The code of the steps this run needs and the page has not loaded yet (MLA's, differential attention's).
      if (result !== null) await loadStepsFor(runSettings(result.settings));
    } catch (error) {
      if (!selection || !SELECTION_FIELDS.has(error.field)) throw error;
      this.controller.resetSelection();
      return this.show(config, { selection, viewOptions });
    } finally {
      this.#runs--;
    }
    // A newer call already showed its result (this one waited for its steps' code): that one stays.
    if (result === null || ask < this.#shownAsk) return null;
    this.#shownAsk = ask;
    const options = viewOptions(result);
    this.shownConfig = config;
    this.controller.setResult(result, {
      ...options,
      t: this.t,
      theme: this.#theme(),
      weightsGiven: Boolean(config.weights?.values),
    });
    return result;
  }

  /**
   * Loads the strings of `lang` (a BCP 47 tag) and makes them the host's t,
   * without showing them (setOptions does). Resolves with t (the one it had
   * if they cannot load: offline), or null when another language was asked
   * for meanwhile.
   */
  async useLanguage(lang) {
    const ask = ++this.#languageAsks;
    this.#languages++;
    let t;
    try {
      t = await loadLanguage(lang);
    } catch {
      t = null;
    } finally {
      this.#languages--;
    }
    if (ask !== this.#languageAsks) return null;
    if (t) this.t = touchWording(t);
    return this.t;
  }

  /** View options for both views (t, theme, decimals; the pipeline's own too), with the palette now: they re-render. */
  setOptions(options) {
    const all = { ...options, theme: this.#theme() };
    this.controller.setOptions(all);
    this.trained?.setOptions(trainedOptions(all));
    this.checkpoint?.setOptions(trainedOptions(all));
  }

  /** The palette now, shown if it changed: a promise of the re-rendered steps, or null when it had not. */
  refreshTheme() {
    if (!this.themeChanged()) return null;
    this.setOptions({});
    return this.controller.whenShown();
  }

  /** Whether the palette now differs from the one shown (false before anything was). */
  themeChanged() {
    return this.#shownTheme !== null && this.#hooks.theme() !== this.#shownTheme;
  }

  #theme() {
    this.#shownTheme = this.#hooks.theme();
    return this.#shownTheme;
  }

  /** Calls onChange (by default refreshTheme) when the reader's colour scheme changes, until disconnect(). */
  connect(onChange = () => this.refreshTheme()) {
    this.disconnect();
    this.#stopWatching = watchColorScheme(onChange);
  }

  disconnect() {
    this.#stopWatching?.();
    this.#stopWatching = null;
  }

  /** Frees the engine state kept for the next edit (an element taken off the page); the next run prepares again. */
  releaseEngine() {
    this.engine.release?.();
  }

  /**
   * The trained model's view on `text` and `checkpoint` (undefined: its
   * defaults in `lang`), with `decimals`; imported the first time (a chunk of
   * its own: the attention layer never fetches it). Resolves false when the
   * attention layer was chosen meanwhile, else true once shown; the import's
   * failure rejects.
   */
  async showTrained({ text, checkpoint, lang, decimals = this.controller.options.decimals }) {
    this.#runs++;
    try {
      const view = await this.#trainedView();
      if (!this.#hooks.isTrained()) return false;
      view.setOptions({ t: this.t, theme: this.#theme(), decimals });
      await view.show({ text, checkpoint, lang });
      return true;
    } finally {
      this.#runs--;
    }
  }

  #trainedView() {
    this.#trainedLoading ??= import('../trained/trained-view.js').then(({ createTrainedView }) => {
      this.trained = createTrainedView(this.#trainedBox, {
        ...this.#hooks.trainedHooks,
        checkpoints: TINY_MODEL.checkpoints,
        weightsUrl: (step) => TINY_MODEL.weightsUrl(step).href,
        load: (step) => this.engine.loadTinyModel(step),
        run: (config) => this.engine.run(config),
      });
      return this.trained;
    });
    // A failed import is tried again the next time.
    return this.#trainedLoading.catch((error) => {
      this.#trainedLoading = null;
      throw error;
    });
  }

  /**
   * The checkpoint view (a model the reader opens from its files), with
   * `decimals`; imported the first time (a chunk of its own, which brings the
   * checkpoint's API: the attention layer never fetches it). Resolves false
   * when another model was chosen meanwhile, else true once shown; the
   * import's failure rejects.
   */
  async showCheckpoint({ decimals = this.controller.options.decimals } = {}) {
    this.#runs++;
    try {
      this.#checkpointLoading ??= import('../checkpoint/checkpoint-view.js').then(({ createCheckpointView }) => {
        this.checkpoint = createCheckpointView(this.#checkpointBox, this.#hooks.checkpointHooks);
        return this.checkpoint;
      });
      let view;
      try {
        view = await this.#checkpointLoading;
      } catch (error) {
        this.#checkpointLoading = null; // a failed import is tried again the next time
        throw error;
      }
      if (!this.#hooks.isCheckpoint?.()) return false;
      view.setOptions({ t: this.t, theme: this.#theme(), decimals });
      return true;
    } finally {
      this.#runs--;
    }
  }
}
