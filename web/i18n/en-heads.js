// English strings of the heads grid (view/trained/head-roles.js), which the
// tiny model's view and the checkpoint view both draw: registered by the grid
// (addEnglish), so they load with whichever view comes first. Chinese has
// them in zh.js.
export default {
  'trained.kind.induction': 'induction head',
  'trained.kind.previousToken': 'previous-token head',
  'trained.kind.none': 'no clear role',
  'trained.score.previousToken': 'previous {value}',
  'trained.score.induction': 'induction {value}',
  'trained.heads.layer': 'Layer {layer}',
};
