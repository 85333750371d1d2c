// Pause/resume, step and speed, sent as Socket.IO "control" messages (acknowledged with the
// runner's new status). Speed is in ticks per wall second; "max" runs as fast as possible.

import { token } from "./api.js";

const $ = (id) => document.getElementById(id);

export class Controls {
  /**
   * @param {object} socket the Socket.IO connection
   * @param {{onSpeed: function(?number), onError: function(string), onStatus: function(object)}} handlers
   */
  constructor(socket, { onSpeed, onError, onStatus }) {
    this.socket = socket;
    this.onSpeed = onSpeed;
    this.onStatus = onStatus;
    this.onError = onError;
    this.state = "";
    this.allowed = true;
    $("btn-pause").addEventListener("click", () => this.send(this.state === "paused" ? "resume" : "pause"));
    $("btn-step").addEventListener("click", () => this.send("step", 1));
    $("speed").addEventListener("change", (e) => {
      const v = e.target.value;
      this.send("speed", v === "max" ? null : Number(v));
    });
  }

  send(op, value = null) {
    const message = { op, value };
    if (token) message.token = token;
    this.socket.timeout(30000).emit("control", message, (err, reply) => {
      if (err) this.onError(`no answer to ${op}`);
      else if (!reply.ok) this.onError(reply.error);
      else this.showStatus(reply.status);
    });
  }

  setAllowed(allowed) {
    this.allowed = allowed;
    for (const id of ["btn-pause", "btn-step", "speed"]) $(id).title = allowed ? $(id).title : "read-only: open the URL with ?token=… printed by the server";
    this.refresh();
  }

  showStatus(status) {
    if (!status) return;
    this.state = status.state;
    const pill = $("status");
    // a failed, stalled or rate-limited run says why (the model server's state shows while a tick waits)
    const label = status.state === "rate_limited" ? "rate limited" : status.state;
    const why = ["failed", "stalled", "rate_limited"].includes(status.state) && status.reason;
    pill.textContent = why ? `${label}: ${status.reason}` : label;
    pill.dataset.state = status.state;
    if ("speed" in status) {
      const value = status.speed === null ? "max" : String(status.speed).replace(/\.0$/, "");
      const select = $("speed");
      if ([...select.options].some((o) => o.value === value)) select.value = value;
      this.onSpeed(status.speed);
    }
    this.onStatus(status);
    this.refresh();
  }

  refresh() {
    const live = ["running", "paused", "stalled", "rate_limited"].includes(this.state);
    $("btn-pause").textContent = this.state === "paused" ? "Resume" : "Pause";
    $("btn-pause").disabled = !this.allowed || !live;
    $("btn-step").disabled = !this.allowed || this.state !== "paused";
    $("speed").disabled = !this.allowed || !live;
  }
}
