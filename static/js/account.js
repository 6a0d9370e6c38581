// Signing in: the welcome screen (play as a guest, log in, register) and the header's account
// menu (save the guest as an account, change the password, log out). The server keeps the
// session in HttpOnly cookies; this only sends the forms and says what went wrong, by code.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { errorText } from "./errors.js";

const MODES = ["guest", "login", "register"];

// The server's limits of a name, a username and a password (GET /api/players/rules): the
// inputs and the hints say the numbers the server checks, and its refusals carry the same.
let rules = null;
let asked = null;
function loadRules() {
  asked ??= api.rules().then((r) => { rules = r; return r; }, () => { asked = null; return null; });
  return asked;
}

/** Put the limits on the inputs and in the hints under root (a form already on screen keeps
 * what is typed in it). */
function applyRules(root) {
  if (!rules) return;
  const inputs = [["name", rules.name], ["username", rules.username], ["password", rules.password],
    ["new", rules.password]];
  for (const [name, rule] of inputs) {
    for (const el of root.querySelectorAll(`input[name=${name}]`)) {
      el.minLength = rule.min;
      el.maxLength = rule.max;
    }
  }
  for (const el of root.querySelectorAll("[data-hint=name]")) el.textContent = t("welcome.name_rule", rules.name);
  for (const el of root.querySelectorAll("[data-hint=account]")) {
    el.textContent = t("account.rules", {
      umin: rules.username.min, umax: rules.username.max, pmin: rules.password.min,
    });
  }
}

// An open account menu closes on a click anywhere else, or on Escape.
function closeMenus(e) {
  for (const box of document.querySelectorAll(".account-box")) {
    if (e.type === "keydown" ? e.key === "Escape" : !box.contains(e.target)) {
      box.querySelector(".account-menu").hidden = true;
    }
  }
}
if (globalThis.document) {
  document.addEventListener("click", closeMenus);
  document.addEventListener("keydown", closeMenus);
}

function field(name, label, attrs = {}) {
  return h("input", { name, "aria-label": label, placeholder: label, required: true, ...attrs });
}

function passwordField(name, label, autocomplete) {
  return field(name, label, { type: "password", autocomplete });
}

function usernameField() {
  return field("username", t("account.username"), {
    autocomplete: "username", autocapitalize: "none", spellcheck: "false",
  });
}

/** The account rules' hint: its words come with the limits (applyRules). */
function accountHint() { return h("p", { class: "hint", "data-hint": "account" }); }

/** A form that sends `submit(values)` and shows the refusal's words under it. */
function form(cls, fields, button, submit) {
  const err = h("p", { class: "error", role: "alert" });
  const go = h("button", { class: "btn btn-primary", type: "submit" }, button);
  const el = h("form", {
    class: cls, novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      go.disabled = true;
      try {
        await submit(Object.fromEntries(fields.map((f) => [f.name, f.value])));
      } catch (ex) { err.textContent = errorText(ex); } finally { go.disabled = false; }
    },
  }, fields, go, err);
  return el;
}

/** The first screen: a tab per way in. `done()` runs once the server has signed us in. */
/** `heading`: the card's own title and tagline (the landing page has said them already). */
export function welcome(main, done, mode = "guest", { heading = true } = {}) {
  const card = h("div", { class: "welcome card" });
  const draw = () => {
    const tabs = h("div", { class: "welcome-tabs", role: "tablist" }, MODES.map((m) => h("button", {
      class: `btn ${m === mode ? "btn-primary" : "btn-ghost"}`, type: "button", role: "tab",
      "aria-selected": String(m === mode), "data-mode": m,
      onclick: () => { mode = m; draw(); },
    }, t(`welcome.tab.${m}`))));
    let body;
    if (mode === "guest") {
      const name = field("name", t("welcome.name"), { autocomplete: "nickname" });
      body = [h("p", {}, t("welcome.text")), form("welcome-form", [name], t("welcome.go"), async ({ name: n }) => {
        await api.register(n); // the server checks it, and says what is wrong (err.name_length)
        done();
      }), h("p", { class: "hint", "data-hint": "name" })];
    } else if (mode === "login") {
      const user = usernameField();
      const pass = passwordField("password", t("account.password"), "current-password");
      body = [h("p", {}, t("welcome.login_text")), form("welcome-form", [user, pass], t("account.login"), async (v) => {
        await api.logIn(v.username, v.password);
        done();
      })];
    } else {
      const user = usernameField();
      const pass = passwordField("password", t("account.password"), "new-password");
      body = [h("p", {}, t("welcome.register_text")), form("welcome-form", [user, pass], t("account.register"), async (v) => {
        await api.signUp(v.username, v.password);
        done();
      }), accountHint()];
    }
    card.replaceChildren(...(heading ? [h("h1", {}, t("welcome.title")), h("p", { class: "tagline" }, t("app.tagline"))] : []),
      tabs, ...body);
    applyRules(card);
    card.querySelector("input")?.focus();
  };
  draw();
  main.append(card);
  if (!rules) loadRules().then(() => applyRules(card));
  return { destroy() { card.remove(); }, rerender: draw };
}

/** A modal dialog holding one form; closed when the form succeeded or on Escape. */
function dialog(title, makeForm) {
  const box = h("dialog", { class: "account-dialog card" });
  const close = () => { box.close(); box.remove(); };
  box.append(h("h2", {}, title), makeForm(close),
    h("button", { class: "btn btn-ghost", type: "button", onclick: close }, t("account.cancel")));
  box.addEventListener("close", () => box.remove());
  document.body.append(box);
  box.showModal();
  return box;
}

/** The header's account button and its menu. `changed()` runs after a sign-in or out. */
export function accountMenu(me, { changed, toast }) {
  const guest = me.kind !== "account";
  const menu = h("div", { class: "account-menu", role: "menu", hidden: true });
  const profile = ["profile.mine", () => { location.hash = `#/p/${encodeURIComponent(me.id)}`; }];
  const history = ["history.mine", () => { location.hash = "#/history"; }];
  const items = guest
    ? [profile, history, ["account.save", () => saveDialog(changed, toast)]]
    : [profile, history, ["account.change_password", () => passwordDialog(changed, toast)],
      ["account.logout", async () => {
        try { await api.logOut(); } catch { /* ended already: the welcome screen either way */ }
        changed();
      }]];
  if (me.role === "admin") items.splice(1, 0, ["admin.menu", () => { location.hash = "#/admin"; }]);
  for (const [key, run] of items) {
    menu.append(h("button", {
      class: "btn btn-ghost", type: "button", role: "menuitem", "data-action": key,
      onclick: () => { menu.hidden = true; run(); },
    }, t(key)));
  }
  const button = h("button", {
    class: guest ? "account account-guest" : "account", type: "button", "aria-haspopup": "menu", title: guest ? t("account.guest") : me.username,
    onclick: () => { menu.hidden = !menu.hidden; },
  }, guest ? h("span", { class: "account-kind" }, t("account.guest")) : null,
  h("span", { class: "account-name" }, me.name));
  return h("div", { class: "account-box" }, button, menu);
}

function saveDialog(changed, toast) {
  const box = dialog(t("account.save"), (close) => h("div", {}, h("p", {}, t("account.save_text")),
    form("dialog-form", [usernameField(), passwordField("password", t("account.password"), "new-password")],
      t("account.save_go"), async (v) => {
        await api.signUp(v.username, v.password);
        close();
        toast(t("account.saved"));
        changed();
      }), accountHint()));
  loadRules().then(() => applyRules(box));
}

function passwordDialog(changed, toast) {
  const box = dialog(t("account.change_password"), (close) => form("dialog-form", [
    passwordField("old", t("account.old_password"), "current-password"),
    passwordField("new", t("account.new_password"), "new-password"),
  ], t("account.change_go"), async (v) => {
    await api.changePassword(v.old, v.new);
    close();
    toast(t("account.password_changed"));
    changed();
  }));
  loadRules().then(() => applyRules(box));
}
