// The live feed's frames: the first frame (and one after a resync) is whole, every other one is a
// delta from the frame before it (see web/relay.py). FrameState keeps the whole current frame.

export class FrameState {
  constructor() {
    this.tick = null;
    this.time = null;
    this.personas = {}; // id -> the persona's whole entry as of `tick`
  }

  /**
   * Apply one `frame` message.
   * @returns {{tick, time, full: boolean, personas: object, gone: string[]} | null} the personas
   *   whose entry changed (whole entries), or null when the delta is not based on the frame held
   *   (the caller asks the server to resync).
   */
  apply(message) {
    let changed;
    let gone = [];
    if (message.full) {
      gone = Object.keys(this.personas).filter((id) => !(id in message.personas));
      this.personas = { ...message.personas };
      changed = message.personas;
    } else {
      if (this.tick === null || message.base !== this.tick) return null;
      changed = {};
      for (const [id, fields] of Object.entries(message.changed || {})) {
        changed[id] = this.personas[id] = { ...this.personas[id], ...fields };
      }
      gone = message.gone || [];
      for (const id of gone) delete this.personas[id];
    }
    this.tick = message.tick;
    this.time = message.time;
    return { tick: message.tick, time: message.time, full: Boolean(message.full), personas: changed, gone };
  }
}
