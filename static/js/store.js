// One state store per page, drawn by region. `set(patch)` changes the state and marks dirty the
// regions that show the changed keys; the scheduler draws each dirty region once, on the next
// animation frame, however many changes came in between (a burst of socket messages, a flash
// ending, the clock). No DOM here: node --test drives it with a fake frame.

/**
 * createStore(state, shows): `shows[key]` lists the regions that draw `key`; a key not named
 * there is drawn by every region (safe by default), one named with [] by none. A key set to
 * the value it has (===) marks nothing: replace arrays and objects, never change them in place.
 */
export function createStore(state, shows) {
  const listeners = new Set();
  function notify(regions) { for (const f of listeners) f(regions); }
  return {
    state,
    set(patch) {
      const regions = new Set();
      let all = false;
      for (const [key, value] of Object.entries(patch)) {
        if (state[key] === value) continue;
        state[key] = value;
        if (!(key in shows)) all = true;
        else for (const r of shows[key]) regions.add(r);
      }
      if (all) notify(null);
      else if (regions.size) notify([...regions]);
    },
    /** Mark regions dirty without a change of state (a resize); none named: every region. */
    touch(...regions) { notify(regions.length ? regions : null); },
    subscribe(f) { listeners.add(f); return () => listeners.delete(f); },
  };
}

/**
 * regionScheduler(draw, frame): `draw` maps region -> function, in the order they are drawn
 * (a region may mark a later one dirty while drawing and it is drawn in the same frame).
 * `mark(regions)` (null: all) asks for one frame; `flush()` draws now.
 */
export function regionScheduler(draw, frame = (f) => requestAnimationFrame(f)) {
  const order = Object.keys(draw);
  const dirty = new Set();
  let pending = false, drawing = false, stopped = false;

  function request() {
    if (pending || drawing || stopped || !dirty.size) return;
    pending = true;
    frame(flush);
  }

  function flush() {
    pending = false;
    if (stopped) return;
    drawing = true;
    try {
      for (const r of order) {
        if (!dirty.has(r)) continue;
        dirty.delete(r);
        draw[r]();
      }
    } finally {
      drawing = false;
      request(); // an earlier region marked while drawing: the next frame
    }
  }

  function mark(regions) {
    for (const r of regions || order) if (r in draw) dirty.add(r);
    request();
  }

  return { mark, flush, stop() { stopped = true; }, get dirty() { return new Set(dirty); } };
}
