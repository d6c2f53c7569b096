// The seat page: polls its own state, sends its own answers. Everything it
// shows comes from the server, already limited to what this seat may see.
(function () {
  const cfg = JSON.parse(document.getElementById("config").textContent);
  const base = "/api/seat/" + cfg.seat;
  let version = cfg.version;
  let busy = false;

  function show(reply) {
    if (reply.version < version) return;   // a poll answered after a newer move
    if (reply.html !== undefined) {
      const log = document.querySelector(".log-entries");
      const atEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
      document.getElementById("table").innerHTML = reply.html;
      const fresh = document.querySelector(".log-entries");
      if (fresh && atEnd) fresh.scrollTop = fresh.scrollHeight;
    }
    version = reply.version;
    document.body.dataset.version = version;   // tests wait on it
  }

  async function send(body) {
    if (busy) return;
    busy = true;
    try {
      body.token = cfg.token;
      const r = await fetch(base + "/act", {method: "POST", headers: {"Content-Type": "application/json"},
                                            body: JSON.stringify(body)});
      show(await r.json());
    } finally { busy = false; }
  }

  async function poll() {
    try {
      if (!busy) {
        const r = await fetch(base + "/state?token=" + encodeURIComponent(cfg.token) + "&since=" + version);
        if (r.ok) show(await r.json());
      }
    } catch (e) { /* the server may be gone once the game is over */ }
    setTimeout(poll, cfg.poll_ms);
  }

  document.addEventListener("click", function (e) {
    const option = e.target.closest("button.option");
    if (option) { e.preventDefault(); send({labels: [option.dataset.label]}); return; }
    if (e.target.closest("button.undo")) { send({undo: true}); }
  });
  document.addEventListener("submit", function (e) {
    e.preventDefault();
    const form = e.target;
    if (form.classList.contains("choose-number")) {
      send({labels: [form.dataset.prefix + String(parseInt(form.elements["value"].value, 10))]});
    } else if (form.classList.contains("choose-several")) {
      const picked = Array.from(form.querySelectorAll("input[type=checkbox]:checked")).map(x => x.value);
      send({labels: picked.length ? picked : ["done"]});
    }
  });
  document.getElementById("table").scrollTop = 0;
  const log = document.querySelector(".log-entries");
  if (log) log.scrollTop = log.scrollHeight;
  document.body.dataset.version = version;
  setTimeout(poll, cfg.poll_ms);
})();
