# TUI build rules (ncurses + readline front end).
