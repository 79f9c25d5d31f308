// The trained views' stylesheet (trained.css), one constructed sheet for the
// page and every element: the tiny model's view adopts it, and so does the
// checkpoint view, whose heads grid, sections and errors are drawn with the
// same classes (head-roles.js).
import trainedCss from './trained.css?inline';

let sheet = null;

export function trainedStyleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(trainedCss);
  }
  return sheet;
}
