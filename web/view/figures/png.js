// A figure's SVG as a PNG at 1×, 2× or 4× its size: drawn by the browser into
// a canvas of width·scale × height·scale (the SVG is vector, so its text and
// edges are drawn at that resolution, not enlarged). Browser only.

/** figure: {svg, width, height} (an SVG writer's); scale: 1, 2 or 4. A Promise of the PNG Blob. */
export async function pngOf({ svg, width, height }, scale) {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be made'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
