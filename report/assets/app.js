// leaper report: draws the charts the Go side computed, lists the tasks
// and renders a task's card on demand. Everything it needs is in #data.
"use strict";
(function () {
  performance.mark("report-start");
  const D = JSON.parse(document.getElementById("data").textContent);
  performance.mark("report-data");
  const palette = ["#2563eb", "#d97706", "#059669", "#dc2626", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#9333ea", "#ea580c"];
  const charts = {};
  let C = null; // the cards' data, parsed when first needed
  let byTask = null;
  function cards() {
    if (C === null) {
      C = JSON.parse(document.getElementById("cards-data").textContent);
      byTask = {};
      C.trajs.forEach(function (t, i) { if (t.task >= 0) (byTask[t.task] = byTask[t.task] || []).push(i); });
    }
    return C;
  }
  window.leaperReport = { data: D, charts: charts, open: openTask, cards: cards };

  Chart.defaults.animation = false;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.font.size = 11;
  Chart.defaults.maintainAspectRatio = false;

  function color(i, alpha) {
    const c = palette[i % palette.length];
    if (alpha === undefined) return c;
    const n = parseInt(c.slice(1), 16);
    return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + alpha + ")";
  }

  function draw(c) {
    const el = document.getElementById(c.id);
    if (!el) return;
    const scatter = c.kind === "scatter";
    const datasets = c.series.map(function (s, i) {
      if (scatter) {
        return { label: s.name, data: (s.points || []).map(function (p) { return { x: p[0], y: p[1] }; }),
          tasks: s.tasks || [], backgroundColor: color(i, 0.35), borderColor: color(i), pointRadius: 3, pointHoverRadius: 5, clip: 6 };
      }
      return { label: s.name, data: s.data || [], backgroundColor: color(i, 0.75), borderColor: color(i), borderWidth: 1 };
    });
    const axis = function (title, stacked) {
      return { title: { display: !!title, text: title || "" }, stacked: !!stacked, beginAtZero: true };
    };
    const cfg = {
      type: scatter ? "scatter" : "bar",
      data: { labels: c.labels || [], datasets: datasets },
      options: {
        indexAxis: c.kind === "hbar" ? "y" : "x",
        plugins: {
          title: { display: true, text: c.title, font: { size: 13, weight: "600" } },
          legend: { display: datasets.length > 1 || scatter, position: "bottom" },
          tooltip: scatter ? { callbacks: { label: function (ctx) {
            const ti = ctx.dataset.tasks[ctx.dataIndex];
              const id = ti >= 0 && D.tasks[ti] ? D.tasks[ti].id + ": " : "";
            return id + "(" + ctx.parsed.x + ", " + ctx.parsed.y + ")";
          } } } : {}
        },
        scales: c.kind === "hbar"
          ? { x: axis(c.x, c.stacked), y: { stacked: !!c.stacked, ticks: { autoSkip: false } } }
          : scatter
            ? { x: Object.assign(axis(c.x), { type: "linear" }, c.xmax ? { max: c.xmax } : {}), y: Object.assign(axis(c.y), c.ymax ? { max: c.ymax } : {}) }
            : { x: axis(c.x, c.stacked), y: axis(c.y, c.stacked) },
        onClick: scatter ? function (ev, els) {
          if (!els.length) return;
          const ti = datasets[els[0].datasetIndex].tasks[els[0].index];
          if (ti >= 0) { openTask(ti); document.getElementById("cards").scrollIntoView(); }
        } : undefined
      }
    };
    charts[c.id] = new Chart(el, cfg);
  }
  D.charts.forEach(draw);
  performance.mark("report-charts");

  // The task list.
  const tbody = document.querySelector("#task-list tbody");
  const rows = [];
  if (!D.runs || D.runs.length === 0) document.querySelector("#task-list th.runs").remove();
  else document.querySelector("#task-list th.runs").title = "ISR per run: " + D.runs.join(" | ");
  const variants = {};
  const frag = document.createDocumentFragment();
  D.tasks.forEach(function (t, i) {
    const tr = document.createElement("tr");
    tr.className = "task";
    tr.dataset.i = i;
    const cls = t.op ? t.v + "/" + t.op : t.v;
    variants[cls] = true;
    const cells = [t.id, cls, t.n, t.trees, t.pages];
    if (D.runs && D.runs.length) cells.push((t.isr || []).map(function (x) { return x < 0 ? "–" : x.toFixed(2); }).join(" | "));
    cells.push(t.q);
    cells.forEach(function (v, j) {
      const td = document.createElement("td");
      td.textContent = v;
      if (j === cells.length - 1) { td.className = "q"; td.title = t.q; }
      tr.appendChild(td);
    });
    tr.addEventListener("click", function () { openTask(i); });
    frag.appendChild(tr);
    rows.push({ tr: tr, cls: cls, n: t.n, text: null });
  });
  tbody.appendChild(frag);
  const sel = document.getElementById("variant");
  Object.keys(variants).sort().forEach(function (v) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = v;
    sel.appendChild(o);
  });

  function haystack(i) {
    const r = rows[i];
    if (r.text === null) {
      const t = D.tasks[i], c = cards();
      r.text = (t.id + " " + t.q + " " + c.tasks[i].t.map(function (x) { return c.names[x[0]] || ""; }).join(" ")).toLowerCase();
    }
    return r.text;
  }
  function filter() {
    const q = document.getElementById("filter").value.trim().toLowerCase();
    const v = sel.value;
    const minr = parseInt(document.getElementById("minr").value, 10) || 0;
    const words = q ? q.split(/\s+/) : [];
    let shown = 0;
    rows.forEach(function (r, i) {
      let ok = (!v || r.cls === v) && r.n >= minr;
      if (ok && words.length) {
        const h = haystack(i);
        ok = words.every(function (w) { return h.indexOf(w) >= 0; });
      }
      r.tr.hidden = !ok;
      if (ok) shown++;
    });
    document.getElementById("shown").textContent = shown + " of " + rows.length + " tasks";
  }
  ["filter", "variant", "minr"].forEach(function (id) { document.getElementById(id).addEventListener("input", filter); });
  filter();
  performance.mark("report-list");

  // A task's card.
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function name(id) { return C.names[id] !== undefined ? C.names[id] : "#" + id; }
  function table(head, body) {
    const t = el("table", "tbl");
    const h = el("tr");
    head.forEach(function (x) { h.appendChild(el("th", "", x)); });
    t.appendChild(h);
    body.forEach(function (r) { t.appendChild(r); });
    return t;
  }
  function openTask(i) {
    const t = D.tasks[i];
    if (!t) return;
    const tc = cards().tasks[i];
    rows.forEach(function (r) { r.tr.classList.remove("sel"); });
    rows[i].tr.classList.add("sel");
    const list = document.querySelector(".list");
    const tr = rows[i].tr;
    if (tr.offsetTop < list.scrollTop || tr.offsetTop > list.scrollTop + list.clientHeight - tr.offsetHeight) {
      list.scrollTop = tr.offsetTop - list.clientHeight / 3;
    }
    const card = document.getElementById("card");
    card.textContent = "";
    card.dataset.task = t.id;
    card.appendChild(el("div", "meta", t.id + " · " + (t.op ? t.v + "/" + t.op : t.v) + " · |R| = " + t.n + " · " + t.trees + " trees · " + t.pages + " pages"));
    card.appendChild(el("div", "q", t.q));
    if (tc.f && tc.f !== "null") {
      const f = el("div", "meta");
      f.appendChild(el("code", "", tc.f));
      card.appendChild(f);
    }

    // A key cell is lit when its entity is a layer-2 target; a value cell
    // when it holds a layer-3 target either where the target was read (its
    // tree and relation), or on a target's row in a column of a relation
    // some target was read through: targets are listed once, with one
    // provenance, while an intersection's keys sit in every tree.
    const l2 = new Set(), l3 = new Set(), exact = new Set(), rels = new Set();
    tc.t.forEach(function (x) {
      if (x[1] === 2) { l2.add(x[0]); return; }
      l3.add(x[0]);
      exact.add(x[2] + ":" + x[3] + ":" + x[0]);
      const tr = C.trees[x[2]];
      if (x[3] >= 0 && tr) rels.add(tr.rels[x[3]]);
    });
    card.appendChild(el("h3", "", "Source tables (target cells highlighted)"));
    tc.trees.forEach(function (id) {
      const tree = C.trees[id];
      if (!tree) return;
      const box = el("div", "src");
      box.dataset.tree = id;
      box.appendChild(el("h4", "", "Tree " + id + ": " + tree.title));
      const pg = el("div", "page", "page ");
      const a = el("a", "", tree.url);
      a.href = tree.url;
      a.target = "_blank";
      a.rel = "noreferrer";
      pg.appendChild(a);
      box.appendChild(pg);
      let hits = 0;
      const body = tree.rows.map(function (r) {
        const tr = el("tr");
        let rowHit = false;
        const k = el("td", "", name(r[0]));
        const keyHit = l2.has(r[0]);
        if (keyHit) { k.className = "hit"; rowHit = true; hits++; }
        tr.appendChild(k);
        for (let j = 1; j < r.length; j++) {
          const vs = r[j] || [];
          const td = el("td", "", vs.map(name).join("; "));
          const onRow = keyHit && rels.has(tree.rels[j - 1]);
          if (vs.some(function (v) { return exact.has(id + ":" + (j - 1) + ":" + v) || exact.has(id + ":-1:" + v) || (onRow && l3.has(v)); })) { td.className = "hit"; rowHit = true; hits++; }
          tr.appendChild(td);
        }
        if (!rowHit) tr.className = "off";
        return tr;
      });
      box.dataset.hits = hits;
      box.appendChild(table([tree.key].concat(tree.heads), body));
      card.appendChild(box);
    });

    const ans = el("details", "answer");
    ans.appendChild(el("summary", "", "Answer (" + tc.rows.length + " rows)" + (tc.agg ? " · " + tc.agg : "")));
    ans.appendChild(table(tc.cols, tc.rows.map(function (r) {
      const tr = el("tr");
      r.forEach(function (c) { tr.appendChild(el("td", "", c)); });
      return tr;
    })));
    card.appendChild(ans);

    (byTask[i] || []).forEach(function (ti) {
      const tj = C.trajs[ti];
      const box = el("div", "traj");
      box.appendChild(el("h3", "", "Trajectory · " + D.runs[tj.run] + " · ISR " + tj.isr + " · ISE " + tj.ise + " · valid " + tj.valid + " · " + tj.steps.length + " calls · ended " + tj.end));
      const ol = el("ol");
      tj.steps.forEach(function (s) {
        const li = el("li");
        li.appendChild(el("span", "tag", s.tool || "none"));
        li.appendChild(document.createTextNode((s.args || "") + " → " + s.obs + " targets shown, " + (s.new || []).length + " new" + ((s.new || []).length ? ": " : "")));
        if (s.err) li.appendChild(el("span", "err", s.err + " "));
        const nw = s.new || [];
        nw.slice(0, 40).forEach(function (id) { li.appendChild(el("span", "new", name(id))); });
        if (nw.length > 40) li.appendChild(el("span", "meta", "+" + (nw.length - 40) + " more new targets"));
        ol.appendChild(li);
      });
      box.appendChild(ol);
      if (tj.answer) {
        const ans = el("details", "answer");
        ans.appendChild(el("summary", "", "The run's answer"));
        ans.appendChild(el("pre", "meta", tj.answer));
        box.appendChild(ans);
      }
      card.appendChild(box);
    });
    history.replaceState(null, "", "#task=" + encodeURIComponent(t.id));
  }

  const m = /^#task=(.+)$/.exec(location.hash);
  if (m) {
    const id = decodeURIComponent(m[1]);
    const i = D.tasks.findIndex(function (t) { return t.id === id; });
    if (i >= 0) {
      openTask(i);
      document.getElementById("cards").scrollIntoView();
    }
  }
})();
