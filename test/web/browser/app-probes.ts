// Read-only probes the browser test injects into the MCP App frame (DOM code: checked by tsconfig.client.json).
declare global {
  interface Window {
    countColour(rgb: [number, number, number], tol: number): number;
  }
}

/** Pixels of the map's WebGL canvas within `tol` of an RGB colour (the canvas keeps its drawing buffer). */
window.countColour = ([r, g, b], tol) => {
  const gl = document.querySelector('canvas.maplibregl-canvas') as HTMLCanvasElement | null;
  if (!gl) return -1;
  const c = document.createElement('canvas');
  c.width = gl.width;
  c.height = gl.height;
  const ctx = c.getContext('2d') as CanvasRenderingContext2D;
  ctx.drawImage(gl, 0, 0);
  const px = ctx.getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - r) <= tol && Math.abs(px[i + 1] - g) <= tol && Math.abs(px[i + 2] - b) <= tol) n++;
  return n;
};

export {};
