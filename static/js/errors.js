// Errors on screen come from their stable codes through the dictionaries (`err.<code>`), never
// from the server's own message, which is English: an unknown code shows the generic text.

import { t, has } from "./i18n.js";
import { ApiError } from "./api.js";

/** The text for an error code of the REST API or of a socket's `error` message. */
export function codeText(code) {
  if (code && has(`err.${code}`)) return t(`err.${code}`);
  return t("err.unknown", { code: code || "?" });
}

/** The text for a failed REST call (or the network being down). */
export function errorText(err) {
  if (err instanceof ApiError) return codeText(err.code);
  return t("error.network");
}
