// 简体中文 strings of the heads grid (view/trained/head-roles.js), registered by it with the English
// ones (addStrings), so they load with whichever view comes first.
export default {
  'trained.kind.induction': '归纳头',
  'trained.kind.previousToken': '前一词元头',
  'trained.kind.none': '没有明显作用',
  'trained.score.previousToken': '前一词元 {value}',
  'trained.score.induction': '归纳 {value}',
  'trained.heads.layer': '第 {layer} 层',
};
