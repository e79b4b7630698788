// Collidescope's web page: replays the runs in the JSON block above (written by
// `collidescope export --html`, see crates/core/src/export/web). Draws lines, dots and
// translucent triangles on a 2-D canvas, far to near; every text of the data goes into
// the document as text (textContent), never as markup. No network request.
'use strict';
// The data block is JSON, gzip'd, in base64: the browser's own DecompressionStream
// opens it (no request: a Blob read in memory).
async function collidescopeData() {
  const text = document.getElementById('collidescope-data').textContent.trim();
  const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
}
collidescopeData().then(function (data) {
  const FOV = Math.PI / 4;
  const BACKGROUND = '#eef1f4';

  // ---- the document ------------------------------------------------------------
  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function button(text, title, onClick) {
    const b = el('button', '', text);
    b.title = title;
    b.addEventListener('click', onClick);
    return b;
  }
  // A lesson text's styled runs [text, bold, code, script] (the core's markup) as
  // elements holding text: <strong>, <code>, <sub>, <sup>.
  function setSpans(node, spans) {
    node.textContent = '';
    for (const [text, bold, code, script] of spans) {
      let leaf = script === 1 ? el('sub', '', text) : script === 2 ? el('sup', '', text) : document.createTextNode(text);
      if (code) { const c = el('code'); c.appendChild(leaf); leaf = c; }
      if (bold) { const b = el('strong'); b.appendChild(leaf); leaf = b; }
      node.appendChild(leaf);
    }
  }
  function spansText(spans) { return spans.map(s => s[0]).join(''); }
  // The first `n` words of styled spans (their styles kept: 2^{−34} stays a power),
  // and whether words were left out.
  function firstWords(spans, n) {
    const text = spansText(spans);
    const word = /\S+/g;
    let m, count = 0, end = text.length;
    while ((m = word.exec(text))) {
      if (++count === n) { end = m.index + m[0].length; break; }
    }
    const out = [];
    let at = 0;
    for (const [part, bold, code, script] of spans) {
      if (at >= end) break;
      out.push([part.slice(0, end - at), bold, code, script]);
      at += part.length;
    }
    return [out, text.slice(end).trim().length > 0];
  }

  const header = el('header');
  header.appendChild(el('h1', '', data.title || 'Collidescope'));
  if (data.notes) header.appendChild(el('p', 'notes', data.notes));
  header.appendChild(el('p', 'replay', data.replay));
  document.body.appendChild(header);

  const main = el('main');
  const left = el('section', 'left');
  const right = el('section', 'right');
  main.appendChild(left);
  main.appendChild(right);
  document.body.appendChild(main);

  const view = el('canvas');
  view.id = 'view';
  left.appendChild(view);
  const viewButtons = el('div', 'buttons');
  left.appendChild(viewButtons);
  const plotCaption = el('p', 'caption');
  left.appendChild(plotCaption);
  const plot = el('canvas');
  plot.id = 'plot';
  left.appendChild(plot);
  // The focused run's upper and lower bounds per step (the viewer's linear choice).
  const boundsCaption = el('p', 'caption');
  left.appendChild(boundsCaption);
  const boundsPlot = el('canvas');
  boundsPlot.id = 'bounds-plot';
  left.appendChild(boundsPlot);

  // A lesson: its page list, the page's text, and the questions page.
  const lesson = data.lesson;
  const lessonBox = el('div', 'lesson');
  const pageTitle = el('h2', '');
  const pageText = el('div', 'page-text');
  pageText.id = 'page-text';
  const pageList = el('ol', 'pages');
  if (lesson) {
    right.appendChild(lessonBox);
    const nav = el('div', 'controls');
    nav.appendChild(button('◀ previous page', 'previous page (PageUp)', () => showPage(state.page - 1)));
    nav.appendChild(button('next page ▶', 'next page (PageDown)', () => showPage(state.page + 1)));
    lessonBox.appendChild(pageTitle);
    lessonBox.appendChild(nav);
    lessonBox.appendChild(pageText);
    lessonBox.appendChild(pageList);
  }
  right.appendChild(el('h2', '', 'Methods'));
  const methodList = el('div', 'methods');
  right.appendChild(methodList);
  const controls = el('div', 'controls');
  right.appendChild(controls);
  const slider = el('input');
  slider.type = 'range';
  slider.min = '0';
  slider.id = 'slider';
  const counter = el('span', 'counter');
  counter.id = 'counter';
  const narration = el('p', 'narration');
  narration.id = 'narration';
  const verdict = el('p', 'verdict');
  verdict.id = 'verdict';
  const noPicture = el('p', 'note');
  right.appendChild(narration);
  right.appendChild(noPicture);
  right.appendChild(verdict);
  // Why the focused run was slow (a scene's page; a lesson's text says what it shows).
  const notes = el('div', 'run-notes');
  notes.id = 'run-notes';
  right.appendChild(notes);
  function showNotes(run) {
    notes.textContent = '';
    const n = run.notes;
    if (!n || lesson) return;
    if (n.supports) notes.appendChild(el('p', 'note', n.supports));
    for (const [cause, first] of n.causes) {
      const line = el('p', 'slow', 'slow: ' + cause + ' ');
      if (first !== null) line.appendChild(button('show', 'jump to the first step that shows it', () => go(first)));
      notes.appendChild(line);
    }
    if (!n.causes.length && n.checks.length) {
      const details = el('details', 'slow-checks');
      details.appendChild(el('summary', 'slow', 'slow, no cause named: what each test measured'));
      for (const check of n.checks) details.appendChild(el('p', 'note', check));
      notes.appendChild(details);
    }
  }
  if (data.scene) {
    const details = el('details', 'scene');
    details.appendChild(el('summary', '', 'The scene file (RON: shapes and poses to the bit; open it with collidescope view, or import it in Python with cs.Scene.load)'));
    details.appendChild(el('pre', '', data.scene));
    right.appendChild(details);
  }

  // ---- state -------------------------------------------------------------------
  const state = { run: 0, cursor: 0, page: 0, shapes: true, difference: true, origin: true, plots: true, construction: false };
  // The construction's clock (as the viewer's: a copy every step_seconds, a pause, again).
  const started = performance.now();
  let animating = false;
  // A planar scene is seen from above (yaw and pitch 0: looking down −z, y up).
  const camera = { yaw: data.planar ? 0 : 0.6, pitch: data.planar ? 0 : 0.45, distance: 6, focus: [0, 0, 0] };

  function currentRun() { return data.runs[state.run]; }
  function currentPair() { return data.pairs[currentRun().pair]; }
  // The runs listed and plotted: a lesson page's, else all.
  function shownRuns() {
    if (lesson && state.page < lesson.pages.length) return lesson.pages[state.page].plotted;
    if (lesson) return lesson.pages[lesson.pages.length - 1].plotted;
    return data.runs.map((_, i) => i);
  }
  function stepIndex() { return Math.min(state.cursor, currentRun().steps.length - 1); }
  function currentStep() { return currentRun().steps[stepIndex()]; }

  // ---- camera ------------------------------------------------------------------
  // The viewer's orbit: eye = focus + distance · (cos p sin y, sin p, cos p cos y), y up.
  function basis() {
    const cp = Math.cos(camera.pitch), sp = Math.sin(camera.pitch);
    const cy = Math.cos(camera.yaw), sy = Math.sin(camera.yaw);
    const back = [cp * sy, sp, cp * cy];
    const eye = [0, 1, 2].map(i => camera.focus[i] + camera.distance * back[i]);
    const forward = back.map(x => -x);
    let right = cross(forward, [0, 1, 0]);
    right = normalise(right);
    const up = cross(right, forward);
    return { eye, forward, right, up };
  }
  function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function normalise(a) { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; }
  function frameSphere(s, grow) {
    camera.focus = [s[0], s[1], s[2]];
    camera.distance = Math.max(s[3] * (grow || 1), 1e-12) / Math.sin(FOV / 2) * 1.05;
  }
  // The viewer's "frame all": the box, not the sphere round it, fills the view, seen
  // from the current direction.
  // What "frame all" fits: the shapes and A ⊖ B, or the shapes alone when A ⊖ B is
  // hidden (as the viewer's scene bounds hold only what is drawn).
  function allBox() {
    const pair = currentPair();
    return state.difference || !state.shapes ? pair.box_all : pair.box_shapes;
  }
  function frameBox(box) {
    const [lo, hi] = box;
    const centre = [0, 1, 2].map(i => (lo[i] + hi[i]) / 2);
    const b = basis();
    const back = b.forward.map(x => -x);
    const tanV = Math.tan(FOV / 2);
    const aspect = view.clientWidth / Math.max(1, view.clientHeight) || 1.6;
    const tanH = tanV * Math.max(aspect, 0.1);
    let distance = 1e-5;
    for (let i = 0; i < 8; i++) {
      const corner = [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]];
      const d = sub(corner, centre);
      const depth = dot(d, back);
      distance = Math.max(distance, depth + Math.abs(dot(d, b.right)) / tanH, depth + Math.abs(dot(d, b.up)) / tanV);
    }
    camera.focus = centre;
    camera.distance = distance * 1.08;
  }

  let frameBasis = null;
  let scale = 1, width = 1, height = 1;
  function project(p) {
    const d = sub(p, frameBasis.eye);
    const z = dot(d, frameBasis.forward);
    if (!(z > camera.distance * 1e-4)) return null;
    const f = 1 / Math.tan(FOV / 2);
    return [
      width / 2 + dot(d, frameBasis.right) / z * f * height / 2,
      height / 2 - dot(d, frameBasis.up) / z * f * height / 2,
      z,
    ];
  }
  function colour(index, alpha) {
    const c = data.palette[index] || [0, 0, 0, 1];
    const a = alpha === undefined ? c[3] : alpha;
    return 'rgba(' + Math.round(c[0] * 255) + ',' + Math.round(c[1] * 255) + ',' + Math.round(c[2] * 255) + ',' + a + ')';
  }
  function shaded(index, shade) {
    const c = data.palette[index] || [0, 0, 0, 1];
    return 'rgba(' + Math.round(c[0] * 255 * shade) + ',' + Math.round(c[1] * 255 * shade) + ',' + Math.round(c[2] * 255 * shade) + ',' + c[3] + ')';
  }
  // Label text: the layer's colour, darker, so that it reads on the pale backing.
  function labelColour(index) {
    const c = data.palette[index] || [0, 0, 0, 1];
    return 'rgb(' + Math.round(c[0] * 150) + ',' + Math.round(c[1] * 150) + ',' + Math.round(c[2] * 150) + ')';
  }

  // ---- the 3-D view --------------------------------------------------------------
  function resizeCanvas(canvas, cssHeight) {
    const ratio = window.devicePixelRatio || 1;
    const cssWidth = canvas.parentElement.clientWidth;
    canvas.style.width = cssWidth + 'px';
    canvas.style.height = cssHeight + 'px';
    canvas.width = Math.round(cssWidth * ratio);
    canvas.height = Math.round(cssHeight * ratio);
    return ratio;
  }

  function viewHeight() { return Math.max(320, Math.round(window.innerHeight * 0.55)); }

  function meshTriangles(mesh, colourIndex, out) {
    const v = mesh.vertices;
    for (const t of mesh.triangles) out.push({ p: [v[t[0]], v[t[1]], v[t[2]]], colour: colourIndex });
  }

  function drawView() {
    const ratio = resizeCanvas(view, viewHeight());
    const ctx = view.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    width = view.width / ratio;
    height = view.height / ratio;
    scale = height / 600;
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, 0, width, height);
    frameBasis = basis();
    const step = currentStep();
    const picture = step.picture;

    // Triangles far to near: the bodies, A ⊖ B and the step's faces.
    const pair = currentPair();
    const meshes = [];
    if (state.shapes) data.bodies.forEach((body, i) => meshes.push([body, pair.body_colours[i]]));
    if (state.difference && pair.difference) meshes.push([pair.difference, pair.difference.colour]);
    const triangles = [];
    for (const [mesh, c] of meshes) meshTriangles(mesh, c, triangles);
    const P = currentRun().points;
    if (picture) {
      for (const list of picture.faces.map(i => currentRun().face_sets[i])) {
        for (let i = 1; i + 2 < list.length; i += 3) {
          triangles.push({ p: [P[list[i]], P[list[i + 1]], P[list[i + 2]]], colour: list[0] });
        }
      }
    }
    const light = normalise([0.3, 0.8, 0.5]);
    const drawn = [];
    for (const t of triangles) {
      const q = t.p.map(project);
      if (q.some(x => x === null)) continue;
      const n = normalise(cross(sub(t.p[1], t.p[0]), sub(t.p[2], t.p[0])));
      const shade = 0.6 + 0.4 * Math.abs(dot(n, light));
      drawn.push({ q, depth: (q[0][2] + q[1][2] + q[2][2]) / 3, fill: shaded(t.colour, shade) });
    }
    drawn.sort((a, b) => b.depth - a.depth);
    for (const t of drawn) {
      ctx.beginPath();
      ctx.moveTo(t.q[0][0], t.q[0][1]);
      ctx.lineTo(t.q[1][0], t.q[1][1]);
      ctx.lineTo(t.q[2][0], t.q[2][1]);
      ctx.closePath();
      ctx.fillStyle = t.fill;
      ctx.fill();
    }
    // The meshes' edges.
    ctx.lineWidth = 1;
    ctx.strokeStyle = 'rgba(40,40,40,0.55)';
    for (const [mesh] of meshes) {
      ctx.beginPath();
      for (const e of mesh.edges) {
        const a = project(mesh.vertices[e[0]]), b = project(mesh.vertices[e[1]]);
        if (!a || !b) continue;
        ctx.moveTo(a[0], a[1]);
        ctx.lineTo(b[0], b[1]);
      }
      ctx.stroke();
    }
    const labels = [];
    // O, the origin of A ⊖ B.
    const o = project(pair.origin);
    if (o && state.origin) {
      ctx.fillStyle = '#000';
      ctx.beginPath();
      ctx.arc(o[0], o[1], 3, 0, 2 * Math.PI);
      ctx.fill();
      labels.push({ x: o[0], y: o[1], text: 'O', colour: '#000' });
    }
    if (state.construction && pair.construction) drawConstruction(ctx, pair.construction);
    if (picture) drawPicture(ctx, picture, labels);
    drawLabels(ctx, labels);
  }

  // Copies of −B at point after point of A sweep out A ⊖ B, the newest strongest; the
  // view is drawn again every frame while the layer is on.
  function drawConstruction(ctx, c) {
    const count = c.points.length;
    const steps = Math.floor((performance.now() - started) / 1000 / c.step_seconds);
    const shown = Math.min(steps % (count + c.pause_steps), count);
    for (let k = 0; k < shown; k++) {
      const a = c.points[k];
      const newest = k + 1 === shown;
      const style = colour(newest ? c.newest : c.older);
      for (const [p, q] of c.edges) {
        line(ctx, [a[0] + p[0], a[1] + p[1], a[2] + p[2]], [a[0] + q[0], a[1] + q[1], a[2] + q[2]], style, newest ? 2 : 1.2);
      }
    }
    if (!animating) {
      animating = true;
      requestAnimationFrame(() => { animating = false; if (state.construction) drawView(); });
    }
  }

  function line(ctx, a, b, style, widthPx) {
    const p = project(a), q = project(b);
    if (!p || !q) return null;
    ctx.strokeStyle = style;
    ctx.lineWidth = widthPx;
    ctx.beginPath();
    ctx.moveTo(p[0], p[1]);
    ctx.lineTo(q[0], q[1]);
    ctx.stroke();
    return [p, q];
  }

  function drawPicture(ctx, picture, labels) {
    const P = currentRun().points;
    ctx.lineCap = 'round';
    for (const s of picture.strips) {
      ctx.strokeStyle = colour(s[0]);
      ctx.lineWidth = 3;
      ctx.beginPath();
      let started = false;
      for (let i = 1; i < s.length; i++) {
        const p = project(P[s[i]]);
        if (!p) { started = false; continue; }
        if (started) ctx.lineTo(p[0], p[1]); else ctx.moveTo(p[0], p[1]);
        started = true;
      }
      ctx.stroke();
    }
    for (const l of picture.lines) line(ctx, P[l[0]], P[l[1]], colour(l[2]), 3);
    for (const a of picture.arrows) {
      const ends = line(ctx, P[a[0]], P[a[1]], colour(a[2]), 3);
      if (!ends) continue;
      const [p, q] = ends;
      const angle = Math.atan2(q[1] - p[1], q[0] - p[0]);
      const head = 12;
      ctx.beginPath();
      ctx.moveTo(q[0], q[1]);
      ctx.lineTo(q[0] - head * Math.cos(angle - 0.4), q[1] - head * Math.sin(angle - 0.4));
      ctx.moveTo(q[0], q[1]);
      ctx.lineTo(q[0] - head * Math.cos(angle + 0.4), q[1] - head * Math.sin(angle + 0.4));
      ctx.stroke();
    }
    // Markers: the viewer's spheres are 0.007 of the camera's distance per size unit.
    const f = 1 / Math.tan(FOV / 2);
    for (const m of picture.markers) {
      const p = project(P[m[0]]);
      if (!p) continue;
      const r = Math.max(2, Math.min(14, 0.007 * m[1] * camera.distance / p[2] * f * height / 2));
      ctx.fillStyle = colour(m[2]);
      ctx.beginPath();
      ctx.arc(p[0], p[1], r, 0, 2 * Math.PI);
      ctx.fill();
    }
    for (const l of picture.labels) {
      const p = project(P[l[0]]);
      if (p) labels.push({ x: p[0], y: p[1], text: l[2], colour: labelColour(l[1]) });
    }
  }

  // Labels on a pale backing, each moved to the first place beside its point that no
  // earlier label takes, and kept inside the view.
  function drawLabels(ctx, labels) {
    const size = Math.round(15 * Math.max(1, scale * 0.9));
    ctx.font = size + 'px sans-serif';
    ctx.textBaseline = 'middle';
    const taken = [];
    // Beside the point first (right, left; above, below), then further out ring by
    // ring, a leader line joining a label set apart to its point.
    const offsets = [];
    for (let ring = 0; ring < 5; ring++) {
      const up = -10 - 22 * ring, down = 12 + 22 * ring;
      for (const [dx, dy] of [[8, up], [8, down], [-1, up], [-1, down]]) offsets.push([dx, dy, ring]);
    }
    for (const label of labels) {
      // A point outside the view is not named (as in the viewer): a label pinned to
      // the edge would name a place it is not.
      if (label.x < 0 || label.x > width || label.y < 0 || label.y > height) continue;
      const w = ctx.measureText(label.text).width + 6, h = size + 4;
      let best = null;
      for (const [dx, dy, ring] of offsets) {
        let x = dx < 0 ? label.x - w - 8 : label.x + dx;
        let y = label.y + dy - h / 2;
        x = Math.min(Math.max(x, 2), width - w - 2);
        y = Math.min(Math.max(y, 2), height - h - 2);
        const rect = { x, y, w, h, ring };
        if (!taken.some(r => overlap(r, rect))) { best = rect; break; }
        if (!best) best = rect;
      }
      taken.push(best);
      if (best.ring > 0) {
        ctx.strokeStyle = label.colour;
        ctx.globalAlpha = 0.6;
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(label.x, label.y);
        ctx.lineTo(Math.min(Math.max(label.x, best.x), best.x + best.w), best.y + (label.y < best.y ? 0 : best.h));
        ctx.stroke();
        ctx.globalAlpha = 1;
      }
      ctx.fillStyle = 'rgba(255,255,255,0.82)';
      ctx.fillRect(best.x, best.y, best.w, best.h);
      ctx.fillStyle = label.colour;
      ctx.fillText(label.text, best.x + 3, best.y + h / 2);
    }
  }
  function overlap(a, b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  }

  // ---- the plot ------------------------------------------------------------------
  // Axes of a plot: horizontal grid lines at `yTicks` (labelled by `yText`), vertical
  // ones at iterations 0 to kMax (the last label kept inside the plot), the k axis named.
  function axes(ctx, frame, yTicks, yText) {
    const { w, h, margin, X, Y, kMax } = frame;
    ctx.font = '13px sans-serif';
    ctx.fillStyle = '#333';
    ctx.strokeStyle = '#ddd';
    ctx.lineWidth = 1;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    for (const v of yTicks) {
      ctx.beginPath(); ctx.moveTo(margin.left, Y(v)); ctx.lineTo(w - margin.right, Y(v)); ctx.stroke();
      ctx.fillText(yText(v), 6, Y(v));
    }
    ctx.textBaseline = 'top';
    const decade = Math.pow(10, Math.floor(Math.log10(kMax)));
    const kStep = Math.max(1, decade / (kMax / decade < 3 ? 2 : 1));
    for (let k = 0; k <= kMax; k += kStep) {
      ctx.beginPath(); ctx.moveTo(X(k), margin.top); ctx.lineTo(X(k), h - margin.bottom); ctx.stroke();
      const text = String(k);
      const half = ctx.measureText(text).width / 2;
      ctx.textAlign = X(k) + half > w - 2 ? 'right' : 'center';
      ctx.fillText(text, ctx.textAlign === 'right' ? w - 2 : X(k), h - margin.bottom + 4);
    }
    ctx.textAlign = 'center';
    ctx.fillText('iteration k', margin.left + (w - margin.left - margin.right) / 2, h - 16);
    ctx.textAlign = 'left';
  }

  // The plot's frame: its size, margins and the maps from (k, value) to pixels.
  function plotFrame(canvas, kMax, yMin, yMax) {
    const ratio = resizeCanvas(canvas, Math.max(160, Math.round(window.innerHeight * 0.22)));
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const w = canvas.width / ratio, h = canvas.height / ratio;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, w, h);
    const margin = { left: 64, right: 12, top: 10, bottom: 34 };
    const X = k => margin.left + (k / kMax) * (w - margin.left - margin.right);
    const Y = v => margin.top + (yMax - v) / (yMax - yMin) * (h - margin.top - margin.bottom);
    return { ctx, w, h, margin, X, Y, kMax };
  }

  function runColour(run) { return 'rgb(' + run.colour.join(',') + ')'; }

  function stepLine(frame) {
    const { ctx, margin, X, h } = frame;
    const k = currentStep().k;
    ctx.strokeStyle = '#555';
    ctx.lineWidth = 1.5;
    ctx.setLineDash([]);
    ctx.beginPath(); ctx.moveTo(X(k), margin.top); ctx.lineTo(X(k), h - margin.bottom); ctx.stroke();
  }

  function drawPlot() {
    const shown = shownRuns();
    // A residual of 0 sits at the floor, 1e-18, as the viewer plots it.
    // (and below it: a residual of round-off below zero).
    const series = data.runs.map(run => run.steps
      .filter(s => s.residual !== null)
      .map(s => [s.k, Math.log10(Math.max(s.residual, 1e-18))]));
    const all = shown.map(i => series[i]).flat();
    const names = [];
    for (const i of shown) if (!names.includes(data.runs[i].residual)) names.push(data.runs[i].residual);
    // The tolerance the residuals are tested against, dashed (the focused run's).
    const epsilon = currentRun().tolerance;
    plotCaption.textContent = 'per step, log₁₀: ' + names.join('; ') + '; grey line: this step' +
      (epsilon ? '; dashed: ε = ' + epsilon.toExponential() : '');
    const kMax = Math.max(1, ...shown.map(i => data.runs[i].steps[data.runs[i].steps.length - 1].k));
    let yMin = Math.min(...all.map(p => p[1])), yMax = Math.max(...all.map(p => p[1]));
    if (!isFinite(yMin)) { yMin = -1; yMax = 1; }
    if (epsilon) { yMin = Math.min(yMin, Math.log10(epsilon)); yMax = Math.max(yMax, Math.log10(epsilon)); }
    yMin = Math.floor(yMin); yMax = Math.ceil(yMax);
    if (yMax === yMin) yMax = yMin + 1;
    const frame = plotFrame(plot, kMax, yMin, yMax);
    const { ctx, w, margin, X, Y } = frame;
    const every = Math.max(1, Math.ceil((yMax - yMin) / 8));
    const ticks = [];
    for (let v = yMin; v <= yMax; v += every) ticks.push(v);
    axes(ctx, frame, ticks, v => '1e' + v);
    if (epsilon) {
      ctx.strokeStyle = 'rgb(0,114,178)';
      ctx.lineWidth = 1.5;
      ctx.setLineDash([6, 5]);
      const y = Y(Math.log10(epsilon));
      ctx.beginPath(); ctx.moveTo(margin.left, y); ctx.lineTo(w - margin.right, y); ctx.stroke();
      ctx.setLineDash([]);
    }
    data.runs.forEach((run, i) => {
      if (!shown.includes(i)) return;
      ctx.strokeStyle = runColour(run);
      ctx.lineWidth = i === state.run ? 3 : 2;
      ctx.beginPath();
      series[i].forEach((p, j) => { if (j === 0) ctx.moveTo(X(p[0]), Y(p[1])); else ctx.lineTo(X(p[0]), Y(p[1])); });
      ctx.stroke();
      // A run of one point is a dot.
      if (series[i].length === 1) {
        ctx.fillStyle = runColour(run);
        ctx.beginPath(); ctx.arc(X(series[i][0][0]), Y(series[i][0][1]), 4, 0, 2 * Math.PI); ctx.fill();
      }
    });
    stepLine(frame);
  }

  // The focused run's upper bound (solid) and lower bound (dashed) per step, as they are.
  function drawBounds() {
    const run = currentRun();
    const [upperName, lowerName, axis] = run.bounds;
    const upper = run.steps.filter(s => s.upper !== null).map(s => [s.k, s.upper]);
    const lower = run.steps.filter(s => s.lower !== null).map(s => [s.k, s.lower]);
    boundsCaption.textContent = run.label + ', per step: ' + axis + ' (solid: ' + upperName +
      (lowerName ? '; dashed: ' + lowerName : '') + ')';
    const values = upper.concat(lower).map(p => p[1]);
    const kMax = Math.max(1, run.steps[run.steps.length - 1].k);
    let yMin = Math.min(...values), yMax = Math.max(...values);
    if (!isFinite(yMin)) { yMin = 0; yMax = 1; }
    if (yMax - yMin <= Math.abs(yMax) * 1e-12) { const pad = Math.abs(yMax) * 0.05 || 0.5; yMin -= pad; yMax += pad; }
    const frame = plotFrame(boundsPlot, kMax, yMin, yMax + (yMax - yMin) * 0.05);
    const { ctx, X, Y } = frame;
    const ticks = [];
    for (let i = 0; i <= 4; i++) ticks.push(yMin + (yMax - yMin) * i / 4);
    // Ticks to three digits, relative to the plot's span (a 1e-16 beside 0.01 is 0).
    const span = Math.abs(yMax - yMin) || 1;
    axes(ctx, frame, ticks, v => Math.abs(v) < span * 1e-6 ? '0' : Number(v.toPrecision(3)).toString());
    for (const [series, dashed] of [[upper, false], [lower, true]]) {
      if (!series.length) continue;
      ctx.strokeStyle = runColour(run);
      ctx.globalAlpha = dashed ? 0.6 : 1;
      ctx.lineWidth = 2.5;
      ctx.setLineDash(dashed ? [6, 5] : []);
      ctx.beginPath();
      series.forEach((p, j) => { if (j === 0) ctx.moveTo(X(p[0]), Y(p[1])); else ctx.lineTo(X(p[0]), Y(p[1])); });
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
    stepLine(frame);
  }

  // ---- controls ------------------------------------------------------------------
  const methodRows = [];
  const methodButtons = data.runs.map((run, i) => {
    const row = el('div', 'method');
    methodRows.push(row);
    const swatch = el('span', 'swatch');
    swatch.style.background = runColour(run);
    const b = button(run.label, run.method, () => { state.run = i; update(); });
    row.appendChild(swatch);
    row.appendChild(b);
    const n = run.steps.length;
    row.appendChild(el('span', 'summary', n + (n === 1 ? ' step · ' : ' steps · ') + run.verdict));
    methodList.appendChild(row);
    return b;
  });
  function go(cursor) {
    const n = currentRun().steps.length;
    state.cursor = Math.max(0, Math.min(n - 1, cursor));
    update();
  }
  controls.appendChild(button('|◀', 'first step (Home)', () => go(0)));
  controls.appendChild(button('◀', 'previous step (←)', () => go(stepIndex() - 1)));
  controls.appendChild(button('▶', 'next step (→)', () => go(stepIndex() + 1)));
  controls.appendChild(button('▶|', 'last step (End)', () => go(1e9)));
  controls.appendChild(slider);
  controls.appendChild(counter);
  slider.addEventListener('input', () => go(Number(slider.value)));
  viewButtons.appendChild(button('Frame all', 'the shapes and A ⊖ B', () => { frameBox(allBox()); drawView(); }));
  viewButtons.appendChild(button('Frame step', "the step's points", () => {
    const p = currentStep().picture; if (p) { frameSphere(p.step, 1.3); drawView(); }
  }));
  viewButtons.appendChild(button('Frame newest', "the step's newest part", () => {
    const p = currentStep().picture; if (p && p.newest) { frameSphere(p.newest, 1.3); drawView(); }
  }));
  document.addEventListener('keydown', e => {
    if (e.target && e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
    if (lesson && e.key === 'PageDown') { showPage(state.page + 1); e.preventDefault(); }
    else if (lesson && e.key === 'PageUp') { showPage(state.page - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight' || e.key === 'PageDown') { go(stepIndex() + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') { go(stepIndex() - 1); e.preventDefault(); }
    else if (e.key === 'Home') { go(0); e.preventDefault(); }
    else if (e.key === 'End') { go(1e9); e.preventDefault(); }
  });
  // Orbit with the left button, zoom with the wheel.
  let dragging = null;
  view.addEventListener('pointerdown', e => { dragging = [e.clientX, e.clientY]; view.setPointerCapture(e.pointerId); });
  view.addEventListener('pointerup', () => { dragging = null; });
  view.addEventListener('pointermove', e => {
    if (!dragging || data.planar) return;
    camera.yaw -= (e.clientX - dragging[0]) * 0.008;
    camera.pitch = Math.max(-1.56, Math.min(1.56, camera.pitch + (e.clientY - dragging[1]) * 0.008));
    dragging = [e.clientX, e.clientY];
    drawView();
  });
  view.addEventListener('wheel', e => {
    camera.distance *= Math.exp(e.deltaY * 0.001);
    e.preventDefault();
    drawView();
  }, { passive: false });
  window.addEventListener('resize', () => { drawView(); drawPlot(); });

  function update() {
    const run = currentRun();
    const index = stepIndex();
    const step = run.steps[index];
    const shown = shownRuns();
    methodButtons.forEach((b, i) => b.classList.toggle('active', i === state.run));
    methodRows.forEach((row, i) => { row.style.display = shown.includes(i) ? '' : 'none'; });
    for (const node of [plot, plotCaption, boundsPlot, boundsCaption]) node.style.display = state.plots ? '' : 'none';
    slider.max = String(run.steps.length - 1);
    slider.value = String(index);
    counter.textContent = 'step ' + (index + 1) + ' of ' + run.steps.length;
    narration.textContent = step.text;
    verdict.textContent = run.label + ': ' + run.verdict;
    if (notes.dataset.run !== String(state.run)) { showNotes(run); notes.dataset.run = String(state.run); }
    noPicture.textContent = step.picture ? '' :
      'This step has no picture here: ' + run.label + "'s steps are drawn only by the desktop viewer (collidescope view) so far.";
    drawView();
    if (state.plots) { drawPlot(); drawBounds(); }
  }

  // ---- lesson pages ----------------------------------------------------------------
  // The viewer's orbit placed at `eye`, looking at `target`.
  function lookFrom(eye, target) {
    const d = sub(eye, target);
    const distance = Math.hypot(d[0], d[1], d[2]);
    if (!(distance > 0 && isFinite(distance))) return;
    camera.focus = target.slice();
    camera.distance = distance;
    camera.pitch = Math.asin(Math.max(-1, Math.min(1, d[1] / distance)));
    camera.yaw = Math.atan2(d[0] / distance, d[2] / distance);
  }
  const pageItems = [];
  function showPage(k) {
    const pages = lesson.pages;
    state.page = Math.max(0, Math.min(pages.length, k));
    pageItems.forEach((item, i) => item.classList.toggle('active', i === state.page));
    if (state.page === pages.length) {
      // The questions page keeps the last page's picture.
      pageTitle.textContent = 'Questions for the class';
      pageText.textContent = '';
      const list = el('ol', 'questions');
      for (const q of lesson.questions) {
        const item = el('li');
        setSpans(item, q);
        list.appendChild(item);
      }
      pageText.appendChild(list);
      update();
      return;
    }
    const page = pages[state.page];
    pageTitle.textContent = 'Page ' + (state.page + 1) + ' of ' + pages.length;
    setSpans(pageText, page.text);
    if (page.viewer_only.length) {
      pageText.appendChild(el('p', 'note', 'Drawn only in the desktop viewer so far: ' + page.viewer_only.join(', ') + '.'));
    }
    state.run = page.run;
    state.cursor = page.cursor;
    state.shapes = page.shapes;
    state.difference = page.difference;
    state.origin = page.origin;
    state.construction = page.construction;
    state.plots = page.plots;
    if (page.camera && !data.planar) lookFrom(page.camera[0], page.camera[1]);
    const picture = currentRun().steps[Math.min(page.cursor, currentRun().steps.length - 1)].picture;
    if (page.frame === 'all') frameBox(allBox());
    else if (page.frame === 'difference') frameSphere(currentPair().frame_difference);
    else if (page.frame === 'step' && picture) frameSphere(picture.step, 1.3);
    else if (page.frame === 'newest' && picture && picture.newest) frameSphere(picture.newest, 1.3);
    update();
  }
  if (lesson) {
    lesson.pages.forEach((page, i) => {
      const [shown, cut] = firstWords(page.text, 8);
      const item = el('li');
      setSpans(item, cut ? shown.concat([['…', false, false, 0]]) : shown);
      item.addEventListener('click', () => showPage(i));
      pageList.appendChild(item);
      pageItems.push(item);
    });
    if (lesson.questions.length) {
      const item = el('li', '', 'Questions for the class');
      item.addEventListener('click', () => showPage(lesson.pages.length));
      pageList.appendChild(item);
      pageItems.push(item);
    }
  }

  // For tests and scripts: the page's state and a way to step it.
  window.collidescope = {
    data,
    step(index) { go(index); return narration.textContent; },
    focus(run) { state.run = run; go(state.cursor); },
    page(k) { showPage(k); return { text: pageText.textContent, narration: narration.textContent }; },
    state() { return { run: state.run, step: stepIndex(), page: state.page, text: narration.textContent }; },
  };

  resizeCanvas(view, viewHeight());
  // The first frame holds what the first page shows.
  if (lesson && lesson.pages.length) {
    state.run = lesson.pages[0].run;
    state.shapes = lesson.pages[0].shapes;
    state.difference = lesson.pages[0].difference;
  }
  frameBox(allBox());
  if (lesson && lesson.pages.length) showPage(0); else update();
  // When the first picture was drawn, from the start of the page's load (milliseconds).
  window.collidescope.firstPicture = performance.now();
});
