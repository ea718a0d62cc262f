// The bot levels a table offers (games/services/writing.py BOT_LEVELS) and those that
// search for the table's thinking time (games/services/lobby.py THINKING_LEVELS).

export const BOT_LEVELS = ["easy", "medium", "hard", "expert"];
export const THINKING_LEVELS = ["hard", "expert"];
