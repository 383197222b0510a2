# Debugger engine build rules (filled in by the debugger engine work).
