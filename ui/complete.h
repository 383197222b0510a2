/*
 * Completion words for the command line (complete.c).
 */
#ifndef MICDB_UI_COMPLETE_H
#define MICDB_UI_COMPLETE_H


struct tui;

/* --- complete.c ------------------------------------------------------- */

/* Words that may complete the word at [start, end) of line; a
 * NULL-terminated malloc'd array of malloc'd strings. */
char	**complete_words(struct tui *t, const char *line, int start);
void	 complete_free(char **words);
#endif
