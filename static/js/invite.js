// A private table's invite link (#/join/<code>, app.js): copied for the player to send, or shown
// to copy by hand where the page may not write the clipboard (plain http on a LAN address).

import { t } from "./i18n.js";

export function inviteLink(code) {
  return `${location.origin}${location.pathname}#/join/${code}`;
}

export async function copyInvite(code, toast) {
  const link = inviteLink(code);
  try {
    await navigator.clipboard.writeText(link);
    toast(t("lobby.invite.copied", { code }));
  } catch { toast(t("lobby.invite.link", { link })); }
}
