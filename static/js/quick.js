// Quick chat: short phrases and emotes a player sends with one tap. Each is an id the server
// knows (app/ws/protocol.py QUICK_CHAT) and the dictionaries translate (`quick.<id>`), so every
// reader sees it in their own language; it goes through the chat's rate limit.

export const QUICK_PHRASES = ["hello", "nice", "hurry", "sorry", "thanks", "gg"];
export const QUICK_EMOTES = ["laugh", "wow", "angry", "cool"];

/** How long a quick line shows over its sender's plate. */
export const BUBBLE_MS = 4000;
