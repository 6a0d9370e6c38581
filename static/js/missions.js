// Daily missions in the lobby (docs/players.md "Daily missions"): three tasks with a progress
// bar each, their reward, and when new ones come (00:00 WIB). The server counts them from the
// rounds it stored; the page only shows GET /api/missions.

import { h } from "./dom.js";
import { t, fmt } from "./i18n.js";
import { api } from "./api.js";

const TOLD = "meja.missions.told"; // the rewards already told, "<day>:<mission> ..."

/** `paid(text)`: told once per reward, when this browser first sees it paid (the header's
 * wallet is read again then). */
export function missionsPanel({ paid = () => {} } = {}) {
  const node = h("section", { class: "card missions-card", "data-testid": "missions" });
  let data = null;

  function row(m) {
    const pct = Math.round((100 * m.count) / m.goal);
    return h("li", { class: `mission ${m.done ? "done" : ""}`, "data-mission": m.name },
      h("div", { class: "mission-head" },
        h("span", { class: "mission-name" }, t(`mission.${m.name}`, { n: m.goal })),
        h("span", { class: "mission-reward" }, m.paid ? t("missions.paid", { n: fmt(m.reward) })
          : t("missions.reward", { n: fmt(m.reward) }))),
      h("div", { class: "mission-bar", role: "progressbar", "aria-valuemin": "0",
        "aria-valuemax": String(m.goal), "aria-valuenow": String(m.count) },
      h("span", { style: `width: ${pct}%` })),
      h("span", { class: "mission-count muted", "data-count": m.count }, t("missions.count", { n: m.count, goal: m.goal })));
  }

  function draw() {
    node.replaceChildren(h("h3", {}, t("missions.title")),
      data ? h("ul", { class: "mission-list" }, data.missions.map(row)) : h("p", { class: "muted" }, "…"),
      h("p", { class: "muted small" }, t("missions.reset")));
  }

  async function refresh() {
    let got;
    try { got = await api.missions(); } catch { return; }
    const told = localStorage.getItem(TOLD) || "";
    for (const m of got.missions) {
      const key = `${got.day}:${m.name}`;
      if (m.paid && !told.split(" ").includes(key)) paid(t("missions.paid_toast", { n: fmt(m.reward) }));
    }
    localStorage.setItem(TOLD, got.missions.filter((m) => m.paid).map((m) => `${got.day}:${m.name}`).join(" "));
    data = got;
    draw();
  }

  draw();
  return { node, refresh, rerender: draw };
}
