// On a touch screen there is no hover: the UI says "tap". A string with a
// touch wording (the key under "touch.") is said that way there, in every
// language; the others are as they are.

/** Whether the page is used by touch: no hover, a coarse pointer. */
export const isTouchScreen = () =>
  typeof matchMedia === 'function' && matchMedia('(hover: none) and (pointer: coarse)').matches;

/** `t` that prefers the touch wording of a key on a touch screen (`touch`); `t` itself otherwise. */
export function touchWording(t, touch = isTouchScreen()) {
  if (!touch || t.touch) return t;
  const touchT = (key, values) => t(t.has(`touch.${key}`) ? `touch.${key}` : key, values);
  touchT.lang = t.lang;
  touchT.has = t.has;
  touchT.touch = true;
  return touchT;
}
