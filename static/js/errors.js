// Errors on screen come from their stable codes through the dictionaries (`err.<code>`), never
// from the server's own message, which is English: an unknown code shows the generic text.

import { t, has } from "./i18n.js";
import { ApiError } from "./api.js";

/**
 * The text for an error code of the REST API or of a socket's `error` message. `retryAfter`:
 * the seconds to wait a rate limit sends (429 `Retry-After`, the body's and the socket
 * message's `retry_after`), shown in seconds, or in whole minutes from 90 s on. `limits`: a
 * refused field's rule, `{min, max}` as the error body carries them (`err.name_length`).
 */
export function codeText(code, retryAfter, limits) {
  if (code === "rate_limited" && retryAfter > 0) {
    return retryAfter < 90
      ? t("err.rate_limited.seconds", { n: Math.ceil(retryAfter) })
      : t("err.rate_limited.minutes", { n: Math.ceil(retryAfter / 60) });
  }
  if (code && has(`err.${code}`)) return t(`err.${code}`, limits);
  return t("err.unknown", { code: code || "?" });
}

/** The text for a failed REST call (or the network being down). */
export function errorText(err) {
  if (err instanceof ApiError) {
    const { min, max } = err.body || {};
    return codeText(err.code, err.body?.retry_after, { min, max });
  }
  return t("error.network");
}
