// phiscrub review page. Talks to this server's /v1/redact only; note text stays in this tab and is
// never written into the DOM as HTML (text nodes only).
"use strict";

(function () {
  const TOKEN_KEY = "phiscrub.token";
  // One colour per coarse label; other labels (fine, corpus-native) get one from the palette by name.
  const COLOURS = {
    NAME: "#f6a6a6", DATE: "#9fc5f8", ID: "#f8d77f", LOCATION: "#a6dfae",
    CONTACT: "#d5b2f2", AGE: "#f8c29a", PROFESSION: "#a9dde4",
  };
  const PALETTE = ["#f6a6a6", "#9fc5f8", "#f8d77f", "#a6dfae", "#d5b2f2", "#f8c29a", "#a9dde4",
    "#e6b8d6", "#c9d99b", "#bfc6f2", "#f2c6b0", "#b7e3c9"];

  const $ = (id) => document.getElementById(id);
  const state = { health: null, result: null, sent: "", fileName: "note.txt", runs: 0 };

  function colour(label) {
    if (COLOURS[label]) return COLOURS[label];
    let h = 0;
    for (const ch of label) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    return PALETTE[h % PALETTE.length];
  }

  function setStatus(message, isError) {
    const el = $("status");
    el.textContent = message;
    el.classList.toggle("error", Boolean(isError));
  }

  function token() {
    return $("token").value.trim();
  }

  async function loadHealth() {
    try {
      const res = await fetch("/healthz", { cache: "no-store" });
      const h = await res.json();
      state.health = h;
      const parts = [`v${h.version}`, h.model ? "model + rules" : "rules only",
        h.auth ? "token required" : "no authentication", h.surrogate ? "surrogates on" : "surrogates off"];
      $("server").textContent = parts.join(" · ");
      $("auth-row").hidden = !h.auth;
      const surrogate = $("mode").querySelector('option[value="surrogate"]');
      surrogate.disabled = !h.surrogate;
      if (!h.surrogate) surrogate.textContent = "surrogate (no key on this server)";
    } catch (err) {
      $("server").textContent = "server unreachable";
    }
  }

  function renderText(target, text, spans, startKey, endKey) {
    target.replaceChildren();
    let at = 0;
    spans.forEach((s, i) => {
      const start = s[startKey];
      const end = s[endKey];
      if (start < at) return; // never overlapping; defensive
      if (start > at) target.appendChild(document.createTextNode(text.slice(at, start)));
      const mark = document.createElement("mark");
      mark.className = "phi";
      mark.dataset.label = s.label;
      mark.dataset.index = String(i);
      mark.style.setProperty("--c", colour(s.label));
      mark.title = s.label;
      mark.textContent = text.slice(start, end);
      target.appendChild(mark);
      at = end;
    });
    if (at < text.length) target.appendChild(document.createTextNode(text.slice(at)));
  }

  function renderLegend(spans) {
    const counts = new Map();
    for (const s of spans) counts.set(s.label, (counts.get(s.label) || 0) + 1);
    const legend = $("legend");
    legend.replaceChildren();
    const labels = [...counts.keys()].sort();
    if (!labels.length) {
      const none = document.createElement("span");
      none.className = "muted";
      none.textContent = "no PHI found";
      legend.appendChild(none);
    }
    for (const label of labels) {
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.dataset.label = label;
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.setProperty("--c", colour(label));
      chip.append(sw, document.createTextNode(`${label} ${counts.get(label)}`));
      legend.appendChild(chip);
    }
  }

  function showDetails(index) {
    const r = state.result;
    const s = r.spans[index];
    document.querySelectorAll("mark.phi.selected").forEach((m) => m.classList.remove("selected"));
    document.querySelectorAll(`mark.phi[data-index="${index}"]`).forEach((m) => m.classList.add("selected"));
    const rows = [
      ["label", s.label], ["source", s.source], ["score", s.score.toFixed(3)],
      ["original", `[${s.start}, ${s.end})`], ["replaced by", r.text.slice(s.out_start, s.out_end)],
      ["policy", r.policy], ["mode", r.mode],
    ];
    const dl = document.createElement("dl");
    for (const [k, v] of rows) {
      const dt = document.createElement("dt");
      dt.textContent = k;
      const dd = document.createElement("dd");
      dd.textContent = v;
      dd.dataset.field = k;
      dl.append(dt, dd);
    }
    $("details").replaceChildren(dl);
  }

  function render() {
    const r = state.result;
    renderText($("original"), state.sent, r.spans, "start", "end");
    renderText($("redacted"), r.text, r.spans, "out_start", "out_end");
    renderLegend(r.spans);
    $("download-text").disabled = false;
    $("download-spans").disabled = false;
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = "Click a highlighted span to see its label, source and score.";
    $("details").replaceChildren(p);
  }

  async function run() {
    const text = $("note").value;
    if (!text.trim()) {
      setStatus("Paste a note or open a file first.", true);
      return;
    }
    const body = { text, mode: $("mode").value, labels: $("labels").value };
    if ($("policy").value) body.policy = $("policy").value;
    const headers = { "Content-Type": "application/json" };
    if (state.health && state.health.auth) {
      if (!token()) {
        setStatus("Enter the server's access token first.", true);
        $("token").focus();
        return;
      }
      headers.Authorization = `Bearer ${token()}`;
    }
    $("run").disabled = true;
    setStatus("De-identifying…");
    try {
      const res = await fetch("/v1/redact", { method: "POST", headers, body: JSON.stringify(body), cache: "no-store" });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) {
        const why = { 401: "the access token is missing or wrong", 413: "the note is over the server's size limit" }[res.status];
        setStatus(`Error ${res.status}: ${why || data.error || "request failed"}.`, true);
        return;
      }
      state.result = data;
      state.sent = text;
      render();
      setStatus(`${data.spans.length} PHI span(s) found, policy ${data.policy}, mode ${data.mode}.`);
    } catch (err) {
      setStatus("The server did not answer.", true);
    } finally {
      $("run").disabled = false;
      state.runs += 1;
      $("status").dataset.runs = String(state.runs); // finished runs, for scripts and tests
    }
  }

  function download(name, type, content) {
    const url = URL.createObjectURL(new Blob([content], { type }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function stem() {
    return state.fileName.replace(/\.[^.]*$/, "") || "note";
  }

  function init() {
    const saved = sessionStorage.getItem(TOKEN_KEY);
    if (saved) $("token").value = saved;
    $("token").addEventListener("input", () => sessionStorage.setItem(TOKEN_KEY, token()));
    $("run").addEventListener("click", run);
    $("note").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) run();
    });
    for (const id of ["mode", "policy", "labels"]) {
      $(id).addEventListener("change", () => { if (state.result) run(); });
    }
    $("file").addEventListener("change", () => {
      const f = $("file").files[0];
      if (!f) return;
      const reader = new FileReader();
      reader.onload = () => {
        $("note").value = String(reader.result);
        state.fileName = f.name;
        $("file-name").textContent = f.name;
        run();
      };
      reader.readAsText(f);
    });
    for (const pane of ["original", "redacted"]) {
      $(pane).addEventListener("click", (e) => {
        const mark = e.target.closest("mark.phi");
        if (mark) showDetails(Number(mark.dataset.index));
      });
    }
    $("download-text").addEventListener("click", () => {
      download(`${stem()}.redacted.txt`, "text/plain;charset=utf-8", state.result.text);
    });
    $("download-spans").addEventListener("click", () => {
      // Offsets, labels, sources and scores only: no PHI strings.
      const { id, mode, policy, labels, spans } = state.result;
      download(`${stem()}.spans.json`, "application/json", JSON.stringify({ id, mode, policy, labels, spans }, null, 2));
    });
    loadHealth();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
